package sandbox_test

// Attack (a26, items 3 and 4): the mounts that pin a repository's folders
// hold in the command's own mount namespace only: rename(2) refuses a
// name that is a mount point in the caller's namespace (EBUSY), not one in
// another's. A command makes a repository x in its grant with a submodule
// git folder x/.git/modules/other-wt (a HEAD) and leaves a process behind,
// in its own namespace, where nothing made after its start is pinned. The
// next command's launcher plans x (within the budget: x/.git/modules and
// x/.git/modules/other-wt are pinned in ITS namespace) and hands
// x/.git/modules/other-wt to its watcher. The leftover process then
// renames x/.git/modules away and puts a link there to the .git/worktrees
// of a repository the person keeps outside every grant, which holds the
// git folder of a linked worktree named other-wt. The watcher looks the
// name up again (every 2 seconds and once when the command ends),
// follows the link and renames that worktree's commondir, git's own, to
// commondir.moved-by-wrasse: a change outside every grant, which breaks
// the person's worktree there. No budget is used up (compare
// TestA26WatcherFollowsLinkSwappedOntoWatchedFolder).
//
// Should: the launcher and its watcher change nothing outside the writable
// grants, whatever another process does to the names they watch.
// Does: the outside worktree's commondir is moved and the person's git
// there fails ("not a git repository").

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestA26LeftoverSwapsFolderPinnedInNextNamespace(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	other := newRepo(t, filepath.Join(f.outside, "other"))
	git(t, other, "commit", "-q", "--allow-empty", "-m", "first")
	wt := filepath.Join(f.outside, "other-wt")
	git(t, other, "worktree", "add", "-q", wt)
	commondir := filepath.Join(other, ".git", "worktrees", "other-wt", "commondir")
	if _, err := os.Stat(commondir); err != nil {
		t.Fatalf("git made no commondir for the worktree: %v", err)
	}
	p := f.commandPolicy()
	done := filepath.Join(f.granted, "swapped")
	// Command 1: the repository, and a process left behind that swaps
	// x/.git/modules for a link once the next command has started.
	prep := `mkdir -p x/.git/modules/other-wt && echo 'ref: refs/heads/main' > x/.git/HEAD &&
		echo 'ref: refs/heads/main' > x/.git/modules/other-wt/HEAD &&
		( sleep 2; mv x/.git/modules x/.git/modules.old && ln -s ` + filepath.Join(other, ".git", "worktrees") + ` x/.git/modules && touch swapped ) </dev/null >/dev/null 2>&1 &
		echo made`
	out, ok := runIn(t, p, f.granted, prep, nil)
	if !ok || !strings.Contains(out, "made") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	// Command 2: anything that runs a little while.
	out, ok = runIn(t, p, f.granted, "sleep 4; echo ran", nil)
	if _, err := os.Lstat(done); err != nil {
		t.Fatalf("the leftover process did not swap the folder (%v); the command (%v): %.300s", err, ok, out)
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Lstat(commondir); err != nil {
		t.Errorf("the launcher's watcher changed %s, outside every grant (%v); the command's output: %.500s", commondir, err, out)
	}
	if s := gitOK(wt, "status"); strings.Contains(s, "fatal") {
		t.Errorf("the person's worktree outside the grants is broken: %s", s)
	}
}
