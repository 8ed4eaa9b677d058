package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitFileTarget reads a .git file as git's read_gitfile does: prefix
// first, line ends off the whole content, then the path ends at a NUL.
func TestGitFileTarget(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"gitdir: ../g\n", "../g", true},
		{"gitdir: ../g\r\n", "../g", true},
		{"gitdir: ../g  \n", "../g  ", true},     // spaces are the path's (a40)
		{"gitdir: ../g\n\x00", "../g\n", true},   // the line end before a NUL is the path's (a42)
		{"gitdir: ../g\x00tail\n", "../g", true}, // a NUL ends the path
		{"gitdir:../g\n", "", false},             // git wants the space
		{" gitdir: ../g\n", "", false},           // and the prefix first
		{"gitdir: \n", "", false},                // no path
		{"gitdir: \x00../g\n", "", false},        // an empty path before the NUL
		{"", "", false},
	} {
		got, ok := gitFileTarget([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("gitFileTarget(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func FuzzGitFileTarget(f *testing.F) {
	for _, s := range []string{"gitdir: ../g\n", "gitdir: ../g\n\x00", "gitdir: \r\n", "x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := gitFileTarget(b)
		if ok && (got == "" || slices.Contains([]byte(got), 0)) {
			t.Fatalf("gitFileTarget(%q) = %q: an empty path or one holding a NUL", b, got)
		}
	})
}

func TestHeadSurelyValid(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		content string
		want    bool
	}{
		{"ref: refs/heads/main\n", true},
		{"ref:  refs/heads/main\n", true},
		{"0123456789abcdef0123456789abcdef01234567\n", true},
		{"ref: HEAD\n", false},
		{"ref:\n\trefs/heads/main\n", true},
		{"ref:\frefs/heads/main\n", false},                               // git skips isspace
		{"ref:" + strings.Repeat(" ", 251) + "refs/heads/main\n", false}, // past the 255 bytes git reads
		{"garbage\n", false},
		{"0123456789ABCDEF0123456789abcdef01234567\n", false},
		{"", false},
	} {
		p := filepath.Join(dir, "HEAD")
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := headSurelyValid(p); got != c.want {
			t.Errorf("headSurelyValid(%q) = %v, want %v", c.content, got, c.want)
		}
	}
	link := filepath.Join(dir, "L")
	if err := os.Symlink("refs/heads/main", link); err != nil {
		t.Fatal(err)
	}
	if !headSurelyValid(link) {
		t.Error("a HEAD link into refs/ is valid to git")
	}
}

// gitDirCandidates: every folder git may take as the repository's git
// folder, so that each is disarmed.
func TestGitDirCandidates(t *testing.T) {
	mk := func(t *testing.T, root string, files map[string]string, dirs ...string) {
		t.Helper()
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for name, content := range files {
			p := filepath.Join(root, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	valid := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for _, c := range []struct {
		name  string
		files map[string]string
		dirs  []string
		want  []string
	}{
		{"a .git folder git takes", valid, []string{".git/objects", ".git/refs"}, []string{".git"}},
		{"an empty .git beside a HEAD: git takes the folder itself", map[string]string{"HEAD": "ref: refs/heads/main\n"}, []string{".git", "objects", "refs"}, []string{".git", "."}},
		{"a .git whose HEAD git refuses, beside a commondir", map[string]string{".git/HEAD": "x\n", "commondir": "../c\n"}, []string{".git/objects", ".git/refs"}, []string{".git", "."}},
		{"a .git file: only what it names", map[string]string{".git": "gitdir: ../g\n", "HEAD": "ref: refs/heads/main\n"}, nil, []string{"../g"}},
		{"a .git file git cannot read: none", map[string]string{".git": "nope\n"}, nil, nil},
		{"no .git, a HEAD and a commondir", map[string]string{"HEAD": "ref: refs/heads/main\n", "commondir": "../c\n"}, nil, []string{"."}},
		{"nothing of git's", map[string]string{"main.c": ""}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "r")
			mk(t, root, c.files, append([]string{"."}, c.dirs...)...)
			var want []string
			for _, w := range c.want {
				if strings.HasPrefix(w, "..") {
					// What a .git file names is joined uncleaned, as git
					// joins it (lnk/../x leaves the folder lnk leads to).
					want = append(want, root+"/"+w)
					continue
				}
				want = append(want, filepath.Join(root, w))
			}
			if got := gitDirCandidates(root); !slices.Equal(got, want) {
				t.Errorf("gitDirCandidates = %q, want %q", got, want)
			}
		})
	}
}

// The walk keeps folders git may take as git folders that are no
// repositories to it: a HEAD beside a commondir, or beside objects and
// refs that are links (a42); not a HEAD alone.
func TestWalkKeepsMaybeGitFolders(t *testing.T) {
	grant := t.TempDir()
	for _, d := range []string{"common/objects", "common/refs", "a", "b", "c"} {
		if err := os.MkdirAll(filepath.Join(grant, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/HEAD", "a/commondir", "b/HEAD", "c/HEAD"} {
		if err := os.WriteFile(filepath.Join(grant, f), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"objects", "refs"} {
		if err := os.Symlink(filepath.Join(grant, "common", l), filepath.Join(grant, "b", l)); err != nil {
			t.Fatal(err)
		}
	}
	w := walkRepos(grant)
	slices.Sort(w.maybe) // folder entries come in the file system's order
	if want := []string{filepath.Join(grant, "a"), filepath.Join(grant, "b")}; !slices.Equal(w.maybe, want) || len(w.repos) != 0 {
		t.Errorf("walk: maybe %q, repos %q; want maybe %q and no repositories", w.maybe, w.repos, want)
	}
}

// throughProc: a path that is, or passes a link into, /proc or /dev.
func TestThroughProc(t *testing.T) {
	dir := t.TempDir()
	for name, target := range map[string]string{"self": "/proc/self/cwd", "fd": "/dev/fd/3", "plain": ".", "up": "../x"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{"/proc/self/cwd/.x/evil", true},
		{"/dev/fd/3", true},
		{dir + "/self/.x/evil", true},
		{dir + "/fd", true},
		{dir + "/plain/sub", false},
		{dir + "/sub/../sub", false},
		{dir + "/sub", false},
		{dir + "/missing/x", false},
	} {
		if got := throughProc(c.path); got != c.want {
			t.Errorf("throughProc(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}
