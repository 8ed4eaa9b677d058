//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// a43: the person's own repository, there at the start. Its .git is
// mounted on itself and its config and hooks are read-only, but
// .git/HEAD stays writable (git checkout writes it). A command writes
// junk into .git/HEAD: git's is_git_directory(".git") then fails
// (validate_headref), and git's discovery takes the repository's folder
// itself as the git folder when it holds HEAD, objects and refs. The
// command makes app a bare repository of its own (git init --bare .:
// HEAD, objects, refs, config with core.bare = false, core.worktree = .,
// core.fsmonitor) beside the person's .git. The end's check skips app
// whole (a repository there at the start: known), and the person's
// everyday `git status` in their own repository runs the command's
// program unconfined.
func TestA43PersonsHeadBrokenFolderTakesOver(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, app, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `cd app && echo junk > .git/HEAD && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree . && `+
		a40g+` config core.fsmonitor `+script+` && `+a40g+` -c core.fsmonitor=false rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(app, "status")
	if a40Ran(marker) {
		t.Errorf("the person's own repository app: the command broke .git/HEAD and made app itself a git folder with its core.fsmonitor; the person's git status in app ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}
