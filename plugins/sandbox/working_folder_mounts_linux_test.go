package sandbox_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// The launcher starts in the command's working folder, then mounts. A
// folder mounted over itself at or above that working folder is not
// where the process stands: its working folder is still the folder
// beneath the mount, so names relative to it would reach the files with
// none of the mounts (a credential's mode, .git/config). The command
// must stand in the mounted folder.
func TestMountNamespaceCoversWorkingFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	home, key := credentialHome(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "repo"))
	config := filepath.Join(repo, ".git", "config")
	before, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, line string
		roots           []string
	}{
		{"chmod of a key from its folder", filepath.Dir(key), "chmod 644 " + filepath.Base(key), []string{home}},
		{"append to .git/config from .git", filepath.Join(repo, ".git"), "echo '[core]' >> config", []string{f.granted}},
		{"a hook from .git/hooks", filepath.Join(repo, ".git", "hooks"), "echo 'touch x' > post-commit", []string{f.granted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sandbox.ForCommand(sandbox.CommandOptions{Roots: tc.roots, Protected: f.protected(), Home: home, Temp: f.temp})
			if out, ok := runIn(t, p, tc.dir, tc.line, nil); ok {
				t.Errorf("`%s` in %s succeeded: %s", tc.line, tc.dir, out)
			}
		})
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key's mode is %v (%v), want 0600", fi.Mode(), err)
	}
	if after, err := os.ReadFile(config); err != nil || !bytes.Equal(after, before) {
		t.Errorf(".git/config changed:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "hooks", "post-commit")); err == nil {
		t.Errorf("a hook was added")
	}
}
