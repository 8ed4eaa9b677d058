package stage

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// writeReviewZip writes a zip of name -> content in t's temporary folder.
func writeReviewZip(t *testing.T, entries [][2]string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "c.zip")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range entries {
		w, err := zw.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSkillSurveyListsEverySkill: a skill whose own SKILL.md is rejected
// (a folder differing only in case from another, a name Stage refuses, a
// link) is listed with its problem, never silently left out of the
// survey, so a user installing --all learns it was not installed.
func TestSkillSurveyListsEverySkill(t *testing.T) {
	const md = "---\nname: x\ndescription: y\n---\nz\n"
	in := writeReviewZip(t, [][2]string{
		{"a/SKILL.md", md},
		{"b/SKILL.md", md},
		{"B/SKILL.md", md},
		{" d /SKILL.md", md},
	})
	c, err := Survey(in, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]error{"a": nil, "b": nil, "B": ErrDuplicate, " d ": ErrBadName}
	if len(c.Skills) != len(want) {
		t.Fatalf("survey lists %q, want %d skills", c.Names(), len(want))
	}
	for _, f := range c.Skills {
		w, ok := want[f.Root]
		switch {
		case !ok:
			t.Errorf("unexpected skill %q", f.Root)
		case w == nil && f.Problem != nil:
			t.Errorf("%q: problem %v", f.Root, f.Problem)
		case w != nil && !errors.Is(f.Problem, w):
			t.Errorf("%q: problem %v, want %v", f.Root, f.Problem, w)
		}
	}
}

// A folder whose SKILL.md is a symbolic link is listed with ErrLink.
func TestSkillSurveyListsLinkedSkillMD(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"good", "linked"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "good", "SKILL.md"), []byte("---\nname: good\ndescription: y\n---\nz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "good", "SKILL.md"), filepath.Join(dir, "linked", "SKILL.md")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	c, err := Survey(dir, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Skills) != 2 || c.Skills[1].Root != "linked" || !errors.Is(c.Skills[1].Problem, ErrLink) {
		t.Fatalf("survey: %+v", c.Skills)
	}
}
