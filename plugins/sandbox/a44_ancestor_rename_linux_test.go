//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// a44: gitEntriesBornSince takes a folder that may be a git folder (HEAD
// beside a commondir) as the command's only where its own ctime, or the
// birth time of its HEAD, commondir, objects, refs or config, is since
// the start. Renaming a folder changes the ctime of the folder renamed
// and of the folders it leaves and enters, never of the folders beneath
// it. An earlier command makes app/node_modules/stash/lib/src holding
// the person's files plus HEAD and commondir -> .x/common (node_modules
// is not walked, so its end's check never sees it); a later command
// swaps the person's app/lib for stash/lib. app/lib/src is then a git
// folder to git, found by the end's walk, but nothing in it or of it
// changed since the later command started: it is left armed, and the
// person's `git log` in their own app/lib/src runs the command's
// gpg.program unconfined.
func TestA44AncestorRenameKeepsGitFolderOld(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	src := filepath.Join(app, "lib", "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "main.c"), []byte("int main(){}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, app, "add", "-A")
	git(t, app, "commit", "-q", "-m", "setup")
	marker, script := plantScript(t, f)
	first := a40Run(t, f, a43common(script)+` && mkdir -p app/node_modules/stash && cp -a app/lib app/node_modules/stash/lib && cd app/node_modules/stash/lib/src && `+
		`echo 'ref: refs/heads/main' > HEAD && echo ../../../.x/common > commondir`)
	time.Sleep(200 * time.Millisecond) // the second command starts well after the first's files
	out := a40Run(t, f, `cd app && mv lib node_modules/old && mv node_modules/stash/lib lib && cd lib/src && `+a40g+` -c gpg.program=true rev-parse --git-dir`)
	if strings.Contains(first+out, "moved") {
		t.Logf("the watcher moved something: %s\n%s", first, out)
	}
	got := gitOK(src, "log", "--oneline")
	if a40Ran(marker) {
		t.Errorf("app/lib/src, a git folder (HEAD, commondir) an earlier command made out of sight and a later one moved in by renaming the folder above it, was not disarmed: the person's git log in app/lib/src ran the command's gpg.program unconfined: first: %s\nsecond: %s\nperson's git: %s", first, out, got)
	}
}

// a44: a linked worktree's folder keeps its commondir at the end's check
// (ownWorktreeCommondir: MAIN/worktrees/NAME naming MAIN), and only the
// check of the command that made it disarms MAIN's settings. A later
// command writes MAIN's config (core settings for gpg.program and
// log.showSignature): MAIN is no maybe-folder (no HEAD of its own), and
// worktrees/NAME, the folder git takes, has nothing born or changed
// since the later command started. The person's `git log` in
// app/worktrees/feature (a checkout folder by its name) runs the
// command's gpg.program unconfined.
func TestA44WorktreeCommonSettingsWrittenLater(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, app, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	// MAIN is app/wt: objects, refs and worktrees/feature, no HEAD.
	first := a40Run(t, f, `G=$PWD/app/wt; `+a40g+` init -q --bare $G && `+
		signedCommitAtG+` && rm $G/HEAD && mkdir -p $G/worktrees/feature && echo 'ref: refs/heads/main' > $G/worktrees/feature/HEAD && echo ../.. > $G/worktrees/feature/commondir && `+
		`cd $G/worktrees/feature && `+a40g+` rev-parse --git-dir`)
	time.Sleep(200 * time.Millisecond)
	out := a40Run(t, f, `G=$PWD/app/wt; `+a40g+` -C $G/worktrees/feature config log.showSignature true && `+a40g+` -C $G/worktrees/feature config gpg.program `+script)
	if strings.Contains(first+out, "moved") {
		t.Logf("the watcher moved something: %s\n%s", first, out)
	}
	got := gitOK(filepath.Join(app, "wt", "worktrees", "feature"), "log", "--oneline")
	if a40Ran(marker) {
		t.Errorf("app/wt/worktrees/feature, a linked worktree's git folder an earlier command made, had its common folder's settings written by a later command, which the end's check did not look at: the person's git log there ran the command's gpg.program unconfined: first: %s\nsecond: %s\nperson's git: %s", first, out, got)
	}
}
