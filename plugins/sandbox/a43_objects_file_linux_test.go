//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// a43: git's is_git_directory asks only that it may "enter" objects and
// refs (access(X_OK)), which an executable regular file passes as well
// as a folder. The end's walk counts a folder as a git folder only where
// objects and refs are folders (bare) or links (walk.maybe), or by a
// commondir, or a config beside a hooks folder (gitFolderLeft). app/src
// holding HEAD, config (core.worktree = .., core.fsmonitor), refs, and
// `objects` an executable file, and no hooks folder, is none of those:
// nothing is disarmed, and the person's `git status` in app/src (git
// stops at src before app/.git) runs the command's program unconfined.
func TestA43ObjectsExecutableFileGitFolderUnseen(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := appWithSrc(t, f)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `cd app/src && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree .. && `+
		a40g+` config core.fsmonitor `+script+` && rm -rf hooks objects && printf '#!/bin/sh\n' > objects && chmod 755 objects && `+
		a40g+` -c core.fsmonitor=false rev-parse --git-dir --show-toplevel`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(app, "src"), "status")
	if a40Ran(marker) {
		t.Errorf("a git folder in app/src whose objects is an executable file was not disarmed: the person's git status in app/src ran the command's core.fsmonitor unconfined: command: %s\nperson's git: %s", out, got)
	}
}
