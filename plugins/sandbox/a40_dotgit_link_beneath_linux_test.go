//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
)

// a40: the walk beneath a grant (reposBeneath) takes a .git only when it
// is a folder or a regular file; a person's repository whose .git is a
// link (Android's repo tool: project/.git -> .repo/projects/project.git,
// the layout TestMountNamespaceKeepsGitLinkInPlace protects where the
// command starts in the project) is no repository to it when the command
// starts elsewhere in the grant, and the git folder behind the link is
// in a dot folder the walk skips. The command writes its settings.
func TestA40PersonsDotGitLinkBeneathGrantUnprotected(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	work := newRepo(t, filepath.Join(f.granted, "project"))
	git(t, work, "commit", "-q", "--allow-empty", "-m", "x")
	store := filepath.Join(f.granted, ".repo", "projects", "project.git")
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(work, ".git"), store); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.repo/projects/project.git", filepath.Join(work, ".git")); err != nil {
		t.Fatal(err)
	}
	marker, script := plantScript(t, f)
	out, _ := runIn(t, f.commandPolicy(), f.granted, "export HOME="+f.temp+"; git -C project config core.fsmonitor "+script+"; echo x >> project/.git/hooks/pre-commit", nil)
	gitOK(work, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a command started in the grant wrote the settings of the person's repository whose .git is a link, and the person's git status ran its core.fsmonitor: %s", out)
	}
}
