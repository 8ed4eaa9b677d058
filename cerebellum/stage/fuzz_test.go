package stage

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var sentinels = []error{ErrUnsupportedInput, ErrNotZip, ErrCorrupt, ErrUnsupportedEntry, ErrEmpty, ErrUnsafePath,
	ErrBadName, ErrLink, ErrSpecialFile, ErrDuplicate, ErrTooManyFiles, ErrTooLarge,
	ErrFileTooLarge, ErrZipBomb, ErrTooDeep, ErrNoSkillMD, ErrMultipleSkillMD, ErrLayout}

// FuzzStageZip feeds arbitrary bytes as a .zip. Stage must not panic; a
// rejection must be a *Error wrapping a sentinel and leave the staging area
// empty; an acceptance must hold only regular files inside its folder; and
// nothing may appear beside the input. Seeds: testdata/fuzz/FuzzStageZip
// (made by the corpus generator).
func FuzzStageZip(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		tmp := t.TempDir()
		in := filepath.Join(tmp, "in.zip")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		parent := filepath.Join(tmp, "ws", ".staging")
		if err := os.MkdirAll(parent, 0o755); err != nil {
			t.Fatal(err)
		}
		st, err := Stage(in, parent, DefaultLimits())
		staged, _ := os.ReadDir(parent)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || !slices.ContainsFunc(sentinels, func(s error) bool { return errors.Is(err, s) }) {
				t.Fatalf("untyped rejection: %v", err)
			}
			if len(staged) != 0 {
				t.Fatalf("rejected (%v) but the staging area holds %v", err, staged)
			}
		} else {
			if len(staged) != 1 || filepath.Join(parent, staged[0].Name()) != st.Dir {
				t.Fatalf("staging area holds %v, want just %s", staged, st.Dir)
			}
			var files []string
			err := filepath.WalkDir(st.Dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				switch {
				case d.Type().IsRegular():
					rel, _ := filepath.Rel(st.Dir, path)
					files = append(files, filepath.ToSlash(rel))
				case !d.IsDir():
					t.Errorf("%s is a %v", path, d.Type())
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(files)
			if !slices.Equal(files, st.Files) || !slices.Contains(files, "SKILL.md") {
				t.Fatalf("on disk %q, Files %q", files, st.Files)
			}
		}
		// Nothing written beside the input or the workspace.
		top, _ := os.ReadDir(tmp)
		if len(top) != 2 {
			t.Fatalf("temp folder holds %v", top)
		}
		ws, _ := os.ReadDir(filepath.Join(tmp, "ws"))
		if len(ws) != 1 {
			t.Fatalf("workspace holds %v", ws)
		}
	})
}

// FuzzSurveyZip feeds arbitrary bytes as a collection archive. Survey must
// not panic, a rejection must be a typed *Error, and every skill it lists
// that has no Problem must stage with StageRoot or be refused with a typed
// *Error (never an untyped failure), leaving the staging area empty then.
func FuzzSurveyZip(f *testing.F) {
	for _, name := range []string{"collection.zip", "one-folder.zip", "root.zip"} {
		data, err := os.ReadFile(filepath.Join("testdata", "happy", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tmp := t.TempDir()
		in := filepath.Join(tmp, "in.zip")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Survey(in, DefaultLimits())
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || !slices.ContainsFunc(sentinels, func(s error) bool { return errors.Is(err, s) }) {
				t.Fatalf("untyped rejection: %v", err)
			}
			return
		}
		for _, found := range c.Skills {
			if found.Problem != nil {
				continue
			}
			parent := filepath.Join(tmp, "ws", ".staging")
			st, err := StageRoot(in, parent, found.Root, DefaultLimits())
			staged, _ := os.ReadDir(parent)
			if err != nil {
				var se *Error
				if !errors.As(err, &se) {
					t.Fatalf("%s: untyped rejection: %v", found.Root, err)
				}
				if len(staged) != 0 {
					t.Fatalf("%s: rejected but the staging area holds %v", found.Root, staged)
				}
				continue
			}
			if !slices.Contains(st.Files, "SKILL.md") {
				t.Fatalf("%s: staged %q without SKILL.md", found.Root, st.Files)
			}
			os.RemoveAll(st.Dir)
		}
	})
}
