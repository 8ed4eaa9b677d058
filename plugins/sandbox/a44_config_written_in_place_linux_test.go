//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// a44: the end's check of a folder that may be a git folder (walk.maybe)
// asks only whether it was made or changed since the start: its ctime,
// and the birth times of HEAD, commondir, objects, refs and config.
// Writing into a file that is already there (>>) changes neither: the
// file's inode, and so its birth time, stays, and the folder's entries do
// not change. An earlier command makes app/src a git folder of HEAD, a
// config that a clone could hold (core.bare = true), and objects and
// refs as links into .x/common, a bare repository with a commit carrying
// a gpgsig header (a42): its end's check finds nothing to move. A later
// command appends log.showSignature and gpg.program to that config; its
// end's check skips app/src as old, and the person's `git log` in their
// own app/src runs the command's gpg.program unconfined.
func TestA44MaybeGitFolderConfigAppendedLater(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := appWithSrc(t, f)
	marker, script := plantScript(t, f)
	// .x/common: a bare repository holding a commit with a gpgsig
	// header, and harmless settings.
	g := "G=$PWD/.x/common; "
	first := a40Run(t, f, g+`mkdir -p .x && `+a40g+` init -q --bare $G && `+
		signedCommitAtG+` && cd app/src && echo 'ref: refs/heads/main' > HEAD && printf '[core]\n\trepositoryformatversion = 0\n\tbare = true\n' > config && `+
		`ln -s ../../.x/common/objects objects && ln -s ../../.x/common/refs refs && `+a40g+` -c gpg.program=true rev-parse --git-dir`)
	time.Sleep(200 * time.Millisecond)
	out := a40Run(t, f, `printf '[log]\n\tshowSignature = true\n[gpg]\n\tprogram = %s\n' `+script+` >> app/src/config`)
	if strings.Contains(first+out, "moved") {
		t.Logf("the watcher moved something: %s\n%s", first, out)
	}
	got := gitOK(filepath.Join(app, "src"), "log", "--oneline")
	if a40Ran(marker) {
		t.Errorf("app/src, a git folder an earlier command made with harmless settings, had log.showSignature and gpg.program appended to its config by a later command (same file, same birth time, no new entry), which the end's check skipped as old: the person's git log in app/src ran it unconfined: first: %s\nsecond: %s\nperson's git: %s", first, out, got)
	}
}
