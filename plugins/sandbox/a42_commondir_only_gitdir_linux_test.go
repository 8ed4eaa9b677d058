//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// a42: git takes a folder for a git folder when it holds a HEAD and a
// commondir whose folder has objects and refs (is_git_directory looks
// for objects and refs in the common folder), and reads the settings of
// that common folder. The end's walk knows a repository only by a .git,
// or by HEAD, objects and refs (isBareRepo), or config and hooks
// (gitFolderLeft) in the folder itself: app/src holding just HEAD and
// commondir is none, and the common folder, in a dot folder of the grant,
// is not walked. So nothing is disarmed. The person's `git log` in
// app/src (a subfolder of their own repository: git stops at src before
// app/.git) reads .x/common/config: log.showSignature with a gpg.program
// of the command's, run for the commit the command made with a gpgsig
// header, unconfined (no work tree, tty or pager needed).
func TestA42CommondirOnlyGitFolderUnseen(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := appWithSrc(t, f)
	marker, script := plantScript(t, f)
	g := "G=$PWD/.x/common; "
	out := a40Run(t, f, g+`mkdir -p .x && `+a40g+` init -q --bare $G && `+a40g+` -C $G config log.showSignature true && `+a40g+` -C $G config gpg.program `+script+` && `+
		signedCommitAtG+` && echo 'ref: refs/heads/main' > app/src/HEAD && echo ../../.x/common > app/src/commondir && cd app/src && `+a40g+` -c gpg.program=true rev-parse --git-dir`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(app, "src"), "log", "--oneline")
	if a40Ran(marker) {
		t.Errorf("a git folder made of HEAD and commondir in app/src, with its settings in .x/common, was not disarmed: the person's git log in app/src ran the command's gpg.program unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// a42: the same walk gap by links: isBareRepo wants objects and refs to
// be folders themselves (Lstat), git only that it can enter them
// (access(X_OK), links followed); gitFolderLeft wants a hooks folder.
// app/src holding HEAD, config (core.worktree = .., core.fsmonitor) and
// objects and refs as links into a dot folder is no repository to the
// end's walk, and the person's `git status` in app/src runs the
// command's program unconfined.
func TestA42LinkedObjectsGitFolderUnseen(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := appWithSrc(t, f)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, `cd app/src && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree .. && `+
		a40g+` config core.fsmonitor `+script+` && mkdir -p ../../.x && mv objects ../../.x/objects && mv refs ../../.x/refs && rm -rf hooks && `+
		`ln -s ../../.x/objects objects && ln -s ../../.x/refs refs && `+a40g+` rev-parse --git-dir --show-toplevel`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(app, "src"), "status")
	if a40Ran(marker) {
		t.Errorf("a git folder in app/src whose objects and refs are links was not disarmed: the person's git status in app/src ran the command's core.fsmonitor unconfined: command: %s\nperson's git: %s", out, got)
	}
}

// The same HEAD and commondir, made by an earlier command in a folder of
// app/src (as harmless files there) and renamed into place by a later
// one: the files keep their birth times, but app/src's entries changed
// during the later command, which no command can hide.
func TestA42OldFilesRenamedIntoGitFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := appWithSrc(t, f)
	marker, script := plantScript(t, f)
	g := "G=$PWD/.x/common; "
	first := a40Run(t, f, g+`mkdir -p .x app/src/stash && `+a40g+` init -q --bare $G && `+a40g+` -C $G config log.showSignature true && `+a40g+` -C $G config gpg.program `+script+` && `+
		signedCommitAtG+` && echo 'ref: refs/heads/main' > app/src/stash/h && echo ../../.x/common > app/src/stash/c`)
	time.Sleep(100 * time.Millisecond) // the second command starts later than the files were born
	out := a40Run(t, f, `mv app/src/stash/h app/src/HEAD && mv app/src/stash/c app/src/commondir`)
	got := gitOK(filepath.Join(app, "src"), "log", "--oneline")
	if a40Ran(marker) {
		t.Errorf("HEAD and commondir an earlier command made, renamed into app/src by a later one, were not disarmed: the person's git log in app/src ran the command's gpg.program unconfined: first: %s\nsecond: %s\nperson's git: %s", first, out, got)
	}
}
