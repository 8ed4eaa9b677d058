package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The memory keeps what was remembered that is still a repository, in its
// order, then what was found that is new, and is not written again when
// nothing changed; lines that are not absolute clean paths are ignored.
func TestRepoMemory(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, repo bool) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if repo {
			if err := os.Mkdir(filepath.Join(p, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	a, b, gone := mk("a", true), mk("b", true), mk("gone", false)
	mem := filepath.Join(dir, "cache", "sandbox-repos")
	if err := os.MkdirAll(filepath.Dir(mem), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mem, []byte(b+"\nrelative\n"+a+"/../a\n"+gone+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	remembered := readRepoMemory(mem)
	if want := []string{b, gone}; !slices.Equal(remembered, want) {
		t.Fatalf("read %q, want %q", remembered, want)
	}
	rememberRepos(mem, []string{a, b}, remembered, []string{dir}, holdsRepo)
	if got := readRepoMemory(mem); !slices.Equal(got, []string{b, a}) {
		t.Fatalf("after a walk that found %s and %s: %q, want %q (the remembered one first)", a, b, got, []string{b, a})
	}
	old := time.Unix(1, 0)
	if err := os.Chtimes(mem, old, old); err != nil {
		t.Fatal(err)
	}
	rememberRepos(mem, []string{a, b}, readRepoMemory(mem), []string{dir}, holdsRepo)
	if fi, err := os.Stat(mem); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("the memory was written again though nothing changed (%v)", err)
	}
	if readRepoMemory("") != nil || readRepoMemory(filepath.Join(dir, "none")) != nil {
		t.Error("no memory file should read as nothing")
	}
}

func FuzzReadRepoMemory(f *testing.F) {
	f.Add("/a\n/b/c\n")
	f.Add("relative\n/../x\n\x00\n")
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(t.TempDir(), "m")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, p := range readRepoMemory(path) {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Fatalf("kept %q", p)
			}
		}
	})
}
