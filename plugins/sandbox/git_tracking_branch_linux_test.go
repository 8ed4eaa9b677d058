package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Everyday git that writes .git/config as a side effect, in a repository
// the namespace protects: switching to a branch that exists on the remote
// only (git records its upstream in .git/config). The switch works and
// .git/config stays as it was; git prints "could not write config file
// .git/config: Device or resource busy" and still says the branch is "set
// up to track" origin/feature, exits 0, and the branch has no upstream
// (a later plain `git pull` there asks for one). Worth a line in the docs.
func TestMountNamespaceGitThatWritesConfig(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	origin := newRepo(t, filepath.Join(f.granted, "origin"))
	if err := os.WriteFile(filepath.Join(origin, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, origin, "add", "a")
	git(t, origin, "commit", "-qm", "first")
	git(t, origin, "branch", "feature")
	clone := filepath.Join(f.granted, "clone")
	git(t, f.granted, "clone", "-q", origin, clone)
	config := filepath.Join(clone, ".git", "config")
	before, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	p := f.commandPolicy()
	out, ok := runIn(t, p, clone, "export HOME="+f.temp+"; git switch feature; echo rc=$?; git branch --show-current", nil)
	t.Logf("git switch to a remote-only branch: ok=%v\n%s", ok, out)
	if !strings.Contains(out, "feature") {
		t.Errorf("git switch feature did not leave the clone on feature: %s", out)
	}
	if after, err := os.ReadFile(config); err != nil || string(after) != string(before) {
		t.Errorf(".git/config changed in the sandbox: %s (%v)", after, err)
	}
}
