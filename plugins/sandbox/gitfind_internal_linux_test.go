package sandbox

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// A HEAD git takes (validate_headref): a regular file, or a link into
// refs/; only such a folder gets a hooks folder made.
func TestIsGitDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(head string) error
		want bool
	}{
		{"file", func(h string) error { return os.WriteFile(h, []byte("ref: refs/heads/main\n"), 0o644) }, true},
		{"link into refs", func(h string) error { return os.Symlink("refs/heads/main", h) }, true},
		{"link elsewhere", func(h string) error { return os.Symlink("/etc/hostname", h) }, false},
		{"folder", func(h string) error { return os.Mkdir(h, 0o755) }, false},
		{"none", func(string) error { return nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tc.make(filepath.Join(dir, "HEAD")); err != nil {
				t.Fatal(err)
			}
			if got := isGitDir(dir); got != tc.want {
				t.Errorf("isGitDir = %v, want %v", got, tc.want)
			}
		})
	}
}

// A hooks folder or included file the repository's settings name that is
// not there yet is made inside the repository's folders, and nowhere a
// link on the way leads.
func TestGitSettingMountsMakesMissingOnlyInside(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	t.Setenv("GIT_CONFIG_SYSTEM", "")
	work := t.TempDir()
	elsewhere := t.TempDir()
	gitDir := filepath.Join(work, ".git")
	if err := os.MkdirAll(gitDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(work, "away")); err != nil {
		t.Fatal(err)
	}
	cfg := "[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../shared.inc\n\tpath = ../away/x.inc\n[includeIf \"gitdir:/nowhere/\"]\n\tpath = ../away/y.inc\n"
	if err := os.WriteFile(filepath.Join(gitDir, "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range gitSettingMounts(gitDir, gitDir, work, &planEnv{mayWrite: func(string) bool { return true }, settings: newSettingsReader()}) {
		if !m.readOnly {
			t.Errorf("%s is not read-only", m.path)
		}
		got = append(got, m.path)
	}
	for _, want := range []string{filepath.Join(work, "shared.inc"), filepath.Join(work, ".husky", "_")} {
		if !slices.Contains(got, want) {
			t.Errorf("mounts %q lack %s", got, want)
		}
		if _, err := os.Lstat(want); err != nil {
			t.Errorf("%s was not made: %v", want, err)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("made %s through a link in the work tree", entries[0].Name())
	}
}

// What the person's git settings name is kept read-only where a writable
// grant reaches it (a missing hooks folder made first), never where none
// does, and never a grant itself or what holds one (hooksPath = ~).
func TestKeepGitSettings(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	t.Setenv("GIT_CONFIG_SYSTEM", "")
	home := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "dotfiles"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[include]\n\tpath = dotfiles/gitconfig\n\tpath = " + filepath.Join(outside, "x.inc") + "\n" +
		"[core]\n\thooksPath = ~/dotfiles/hooks\n\thooksPath = ~\n\thooksPath = .githooks\n"
	for path, data := range map[string]string{
		filepath.Join(home, ".gitconfig"):            cfg,
		filepath.Join(home, "dotfiles", "gitconfig"): "[user]\n\tname = p\n",
		filepath.Join(outside, "x.inc"):              "[user]\n\tname = p\n",
	} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{ReadWrite: []string{home}}
	p.keepGitSettings(Clean(home), cleanAll(p.ReadWrite))
	want := []string{filepath.Join(home, "dotfiles", "gitconfig"), filepath.Join(home, "dotfiles", "hooks")}
	if !reflect.DeepEqual(p.ReadOnly, want) {
		t.Errorf("ReadOnly %q, want %q", p.ReadOnly, want)
	}
	if fi, err := os.Stat(want[1]); err != nil || !fi.IsDir() {
		t.Errorf("the hooks folder was not made: %v", err)
	}
}
