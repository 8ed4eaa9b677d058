package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Projects share their git settings by a tracked file that each clone's
// .git/config includes (`git config --local include.path ../.gitconfig`).
// The namespace makes .git/config read-only, but the file it includes lies
// in the working tree, writable: a command adds core.fsmonitor there, and
// the person's next `git status` (the first thing they run to see what the
// command changed), unconfined, runs it.
func TestMountNamespaceKeepsIncludedGitSettings(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := f.granted
	git(t, repo, "init", "-q")
	shared := filepath.Join(repo, ".gitconfig")
	if err := os.WriteFile(shared, []byte("[pull]\n\trebase = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "config", "--local", "include.path", "../.gitconfig")
	git(t, repo, "add", ".gitconfig")
	git(t, repo, "commit", "-qm", "shared settings")

	pwned := filepath.Join(f.outside, "pwned")
	p := f.commandPolicy()
	line := "printf '[core]\\n\\tfsmonitor = touch " + pwned + "; false\\n' >> .gitconfig"
	out, ok := runIn(t, p, repo, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	git(t, repo, "status", "--short") // the person, outside any sandbox
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("`%s` (succeeded=%v) wrote core.fsmonitor into %s, which .git/config includes, and the person's git status ran it unconfined", line, ok, shared)
	}
}
