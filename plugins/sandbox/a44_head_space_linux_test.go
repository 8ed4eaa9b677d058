//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// a44: headSurelyValid skips " \t\n\v\f\r" after "ref:", git's
// validate_headref only what git's own isspace takes: space, \t, \n and
// \r (git's sane_ctype leaves \v and \f out). "ref:\frefs/heads/main"
// is valid to the check and refused by git. The person's own
// repository app, there at the start: the command writes that into
// .git/HEAD (writable, for checkouts) and makes app itself a bare
// repository with core.worktree = . and core.fsmonitor.
// gitSurelyTakes(app/.git) says git still takes it, so the end's check
// leaves app alone (TestA43PersonsHeadBrokenFolderTakesOver again); git
// refuses app/.git and takes app, and the person's `git status` in their
// own repository runs the command's program unconfined.
func TestA44PersonsHeadFormFeedFolderTakesOver(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, app, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `cd app && printf 'ref:\frefs/heads/main\n' > .git/HEAD && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree . && `+
		a40g+` config core.fsmonitor `+script+` && `+a40g+` -c core.fsmonitor=false rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(app, "status")
	if a40Ran(marker) {
		t.Errorf("the person's own repository app: the command wrote 'ref:\\frefs/heads/main' into .git/HEAD, which the check takes as valid and git does not, and made app itself a git folder with its core.fsmonitor; the person's git status in app ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a44: the same HEAD in a repository the command makes: inner/.git
// (objects, refs, HEAD "ref:\vrefs/heads/main") is the only candidate
// gitDirCandidates names, and inner, a bare repository with
// core.worktree = . and core.fsmonitor, is never looked at
// (TestA43HeadPastGitsReadLimit again).
func TestA44NewRepoHeadVerticalTabUncoversFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `mkdir -p inner && cd inner && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree . && `+
		a40g+` config core.fsmonitor `+script+` && mkdir -p .git/objects .git/refs && printf 'ref:\vrefs/heads/main\n' > .git/HEAD && `+
		a40g+` -c core.fsmonitor=false rev-parse --git-dir --show-toplevel`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "inner"), "status")
	if a40Ran(marker) {
		t.Errorf("inner/.git with HEAD 'ref:\\vrefs/heads/main' (valid to the check, refused by git) left inner itself, a git folder with core.fsmonitor, unlooked at: the person's git status in inner ran it unconfined: command: %s\nperson's git: %s", out, got)
	}
}
