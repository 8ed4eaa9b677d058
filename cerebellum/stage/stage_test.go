package stage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

type happyCase struct {
	input   string // under testdata/happy
	kind    Kind
	root    string
	files   []string
	ignored []string
	want    map[string]string // staged contents to compare
	exec    []string          // files staged 0755; every other is 0644
}

var folderFiles = []string{"SKILL.md", "assets/empty.txt", "assets/template.docx", "references/REFERENCE.md", "scripts/fill.py"}

func happyCases() []happyCase {
	skill := map[string]string{"SKILL.md": skillBody}
	fill := map[string]string{"SKILL.md": skillBody, "scripts/fill.py": "print('fill')\n"}
	return []happyCase{
		{input: "lone.md", kind: KindSkillFile, files: []string{"SKILL.md"}, want: skill},
		{input: "no-frontmatter.MD", kind: KindSkillFile, files: []string{"SKILL.md"},
			want: map[string]string{"SKILL.md": "# Just notes\n\nNo frontmatter here.\n"}},
		{input: "folder", kind: KindFolder, files: folderFiles, want: fill},
		{input: "folder-wrapped", kind: KindFolder, root: "pdf-tools", files: folderFiles, want: fill},
		{input: "root.zip", kind: KindZip, files: []string{"SKILL.md", "references/REFERENCE.md", "scripts/fill.py"}, want: fill},
		{input: "one-folder.zip", kind: KindZip, root: "pdf-tools", files: []string{"SKILL.md", "scripts/fill.py"},
			ignored: []string{"__MACOSX/", "pdf-tools/.DS_Store"}, want: fill},
		{input: "bundle.skill", kind: KindZip, root: "pdf-tools", files: []string{"SKILL.md", "scripts/fill.py"},
			ignored: []string{"__MACOSX/", "pdf-tools/.DS_Store"}, want: fill},
		{input: "powershell-backslash.zip", kind: KindZip, root: "my-skill", files: []string{"SKILL.md", "scripts/run.ps1"},
			want: map[string]string{"SKILL.md": skillBody, "scripts/run.ps1": "Write-Output hi\n"}},
		{input: "lowercase-skill.zip", kind: KindZip, files: []string{"SKILL.md"}, want: skill},
		{input: "junk.zip", kind: KindZip, files: []string{"SKILL.md", "scripts/fill.py"},
			ignored: []string{".git/", "Thumbs.db", "node_modules/", "scripts/__pycache__/"}, want: fill},
		{input: "compressible.zip", kind: KindZip, files: []string{"SKILL.md", "assets/blank.bin"},
			want: map[string]string{"SKILL.md": skillBody, "assets/blank.bin": string(make([]byte, ratioFloor))}},
		{input: "with-docx.zip", kind: KindZip, files: []string{"SKILL.md", "assets/template.docx"}, want: skill},
		{input: "exec-bits.zip", kind: KindZip, files: []string{"SKILL.md", "scripts/group-write.sh", "scripts/lib.sh", "scripts/run.sh"},
			want: map[string]string{"scripts/run.sh": "#!/bin/sh\necho hi\n"}, exec: []string{"scripts/group-write.sh", "scripts/run.sh"}},
		{input: "nested-zip.zip", kind: KindZip, files: []string{"SKILL.md", "assets/inner.zip"}},
		{input: "nested-gzip-as-txt.zip", kind: KindZip, files: []string{"SKILL.md", "references/notes.txt"}},
		{input: "nested-targz.zip", kind: KindZip, files: []string{"SKILL.md", "scripts/components.tar.gz"}},
		{input: "nested-tar-as-md.zip", kind: KindZip, files: []string{"SKILL.md", "references/data.md"}},
		{input: "folder-nested", kind: KindFolder, files: []string{"SKILL.md", "assets/bundle.zip", "scripts/components.tar.gz"}},
	}
}

func TestStageHappy(t *testing.T) {
	for _, tc := range happyCases() {
		t.Run(tc.input, func(t *testing.T) {
			_, parent := workspace(t)
			input := filepath.Join("testdata", "happy", tc.input)
			st := expectStaged(t, input, parent, DefaultLimits())
			if st.Kind != tc.kind || st.Root != tc.root {
				t.Errorf("kind %q root %q, want %q %q", st.Kind, st.Root, tc.kind, tc.root)
			}
			if !slices.Equal(st.Files, tc.files) {
				t.Errorf("Files = %q, want %q", st.Files, tc.files)
			}
			if got := execFiles(t, st.Dir); !slices.Equal(got, tc.exec) {
				t.Errorf("executable files %q, want %q", got, tc.exec)
			}
			if !slices.Equal(st.Ignored, tc.ignored) {
				t.Errorf("Ignored = %q, want %q", st.Ignored, tc.ignored)
			}
			for name, want := range tc.want {
				got, err := os.ReadFile(filepath.Join(st.Dir, name))
				if err != nil || string(got) != want {
					t.Errorf("%s: got %d bytes (%v), want %d", name, len(got), err, len(want))
				}
			}
			if tc.kind == KindFolder {
				for _, f := range st.Files {
					src, _ := os.ReadFile(filepath.Join(input, filepath.FromSlash(tc.root), filepath.FromSlash(f)))
					got, _ := os.ReadFile(filepath.Join(st.Dir, filepath.FromSlash(f)))
					if !bytes.Equal(src, got) {
						t.Errorf("%s differs from its source", f)
					}
				}
			}
		})
	}
}

// expectStaged stages input and checks what every success must satisfy:
// a new 0755 folder in parent holding exactly Files (0644 or 0755 regular
// files, no links) with SKILL.md at the top, and nothing else new in parent.
func expectStaged(t *testing.T, input, parent string, lim Limits) *Staged {
	t.Helper()
	before, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Stage(input, parent, lim)
	if err != nil {
		t.Fatalf("Stage: %v", err)
	}
	if filepath.Dir(st.Dir) != parent {
		t.Errorf("Dir %s is not directly inside %s", st.Dir, parent)
	}
	after, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before)+1 {
		t.Errorf("parent went from %d to %d entries, want one more", len(before), len(after))
	}
	if fi, err := os.Stat(st.Dir); err != nil || (!windows && fi.Mode().Perm() != 0o755) {
		t.Errorf("staging folder: %v %v, want mode 0755", fi.Mode(), err)
	}
	if got := stagedTree(t, st.Dir); !slices.Equal(got, st.Files) {
		t.Errorf("on disk %q, Files says %q", got, st.Files)
	}
	if !slices.Contains(st.Files, "SKILL.md") {
		t.Errorf("no SKILL.md in %q", st.Files)
	}
	if !slices.IsSorted(st.Files) || !slices.IsSorted(st.Ignored) {
		t.Errorf("Files or Ignored not sorted")
	}
	return st
}

// TestStageFolderJunk copies the happy folder, adds junk (including links
// inside node_modules, which are skipped unchecked) and expects it ignored.
func TestStageFolderJunk(t *testing.T) {
	tmp, parent := workspace(t)
	in := filepath.Join(tmp, "pdf-tools")
	if err := os.CopyFS(in, os.DirFS(filepath.Join("testdata", "happy", "folder"))); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, in, map[string]string{
		".DS_Store": "x", "scripts/._fill.py": "x", ".git/HEAD": "ref", "node_modules/pkg/index.js": "x",
		"scripts/__pycache__/fill.pyc": "x",
	})
	if err := os.Symlink("../pkg/index.js", filepath.Join(in, "node_modules", "pkg", "link")); err != nil && !windows {
		t.Fatal(err)
	}
	st := expectStaged(t, in, parent, DefaultLimits())
	if !slices.Equal(st.Files, folderFiles) {
		t.Errorf("Files = %q", st.Files)
	}
	want := []string{".DS_Store", ".git/", "node_modules/", "scripts/._fill.py", "scripts/__pycache__/"}
	if !slices.Equal(st.Ignored, want) {
		t.Errorf("Ignored = %q, want %q", st.Ignored, want)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStageCreatesParent: the staging area need not exist yet.
func TestStageCreatesParent(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "ws", ".staging")
	st, err := Stage(filepath.Join("testdata", "happy", "lone.md"), parent, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(st.Dir) != parent {
		t.Errorf("Dir %s not in %s", st.Dir, parent)
	}
}

func TestStageMissingInput(t *testing.T) {
	tmp, parent := workspace(t)
	before := treeHash(t, tmp)
	_, err := Stage(filepath.Join(tmp, "nope.zip"), parent, DefaultLimits())
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want not-exist", err)
	}
	if treeHash(t, tmp) != before {
		t.Errorf("workspace changed")
	}
}

// TestZeroLimitsMeanDefaults: Limits{} must not mean "no limits".
func TestZeroLimitsMeanDefaults(t *testing.T) {
	if got := (Limits{}).WithDefaults(); got != DefaultLimits() {
		t.Errorf("Limits{} became %+v", got)
	}
	want := Limits{MaxFiles: 5000, MaxTotalBytes: 50 << 20, MaxFileBytes: 10 << 20, MaxRatio: 100, MaxSkillMD: 1 << 20, MaxDepth: 16}
	if DefaultLimits() != want {
		t.Errorf("DefaultLimits() = %+v", DefaultLimits())
	}
	_, parent := workspace(t)
	_, err := Stage(filepath.Join("testdata", "hostile", "zip-bomb.zip"), parent, Limits{MaxFiles: -1})
	if !errors.Is(err, ErrZipBomb) {
		t.Errorf("err = %v, want ErrZipBomb", err)
	}
}

// TestCentralDirectoryBudget: an archive of many tiny entries is refused
// while archive/zip reads its central directory, before loading it whole.
func TestCentralDirectoryBudget(t *testing.T) {
	es := []zent{file("SKILL.md", skillBody)}
	for i := range 4000 {
		es = append(es, dirEnt(fmt.Sprintf("d%04d/", i)))
	}
	in := filepath.Join(t.TempDir(), "many.zip")
	if err := os.WriteFile(in, buildZip(es...), 0o644); err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	lim.MaxFiles = 5
	expectRejected(t, in, lim, ErrTooManyFiles, `too many files: its central directory is larger than`)
}

func BenchmarkStage(b *testing.B) {
	for _, in := range []string{"one-folder.zip", "folder", "compressible.zip"} {
		b.Run(in, func(b *testing.B) {
			parent := b.TempDir()
			input := filepath.Join("testdata", "happy", in)
			for b.Loop() {
				st, err := Stage(input, parent, DefaultLimits())
				if err != nil {
					b.Fatal(err)
				}
				os.RemoveAll(st.Dir)
			}
		})
	}
}
