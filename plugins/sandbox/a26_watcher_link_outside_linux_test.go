package sandbox_test

// Attack (a26, items 3 and 4): the launcher hands its watcher the main git
// folders of every repository it planned (plan.gitDirs), whether or not
// their mounts fit in the budget, and checks mayWrite once, when it plans,
// with the links then resolved. The watcher (every 2 seconds while the
// command runs, and once after) renames each folder's commondir by its
// name, following whatever links stand on that name by then. A command
// makes a repository x in its grant with a submodule git folder
// x/.git/modules/other-wt (a HEAD) and 4,096 entries in x/.git/worktrees:
// the next command's plan spends the budget on x's worktree folders
// (extra mounts, left out past the budget, as the docs say) before its
// submodule folder, so neither x/.git/modules/other-wt nor x/.git/modules
// is pinned, yet the folder is on the watcher's list. That command
// renames x/.git/modules away and puts a link there to the .git/worktrees
// of a repository the person keeps outside every grant, where the git
// folder of a linked worktree is named other-wt too. When the command
// ends, the watcher renames that worktree's commondir (git's own) to
// commondir.moved-by-wrasse: a change outside every grant, which breaks
// the person's worktree there.
//
// Should: the launcher and its watcher change nothing outside the writable
// grants, whatever links a command puts on the names of the git folders
// they watch (the a25 fix for a .git link, TestA25DotGitLinkMovesCommondirOutsideGrants,
// holds at planning time only).
// Does: the outside worktree's commondir is moved and the person's git
// there fails ("not a git repository").

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA26WatcherFollowsLinkSwappedOntoWatchedFolder(t *testing.T) {
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
	// Command 1: the command's own repository, with a submodule folder
	// and enough worktree folders to push it past the budget.
	prep := `mkdir -p x/.git/modules/other-wt x/.git/worktrees && echo 'ref: refs/heads/main' > x/.git/HEAD &&
		echo 'ref: refs/heads/main' > x/.git/modules/other-wt/HEAD && cd x/.git/worktrees &&
		awk 'BEGIN { for (i = 0; i < 4096; i++) print "w" i }' | xargs mkdir &&
		awk 'BEGIN { for (i = 0; i < 4096; i++) { a = "w" i "/commondir"; b = "w" i "/config.worktree";
			printf "" > a; close(a); printf "" > b; close(b) } }' && echo made`
	out, ok := runIn(t, p, f.granted, prep, nil)
	if !ok || !strings.Contains(out, "made") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	// Command 2: swap the watched folder's parent for a link outside.
	swap := "mv x/.git/modules x/.git/modules.old && ln -s " + filepath.Join(other, ".git", "worktrees") + " x/.git/modules && echo swapped"
	out, ok = runIn(t, p, f.granted, swap, nil)
	if !ok || !strings.Contains(out, "swapped") {
		t.Fatalf("the command could not swap the folder for a link (the folder is pinned?): %.400s", out)
	}
	if _, err := os.Lstat(commondir); err != nil {
		t.Errorf("the launcher's watcher changed %s, outside every grant (%v); the command's output: %.500s", commondir, err, out)
	}
	if s := gitOK(wt, "status"); strings.Contains(s, "fatal") {
		t.Errorf("the person's worktree outside the grants is broken: %s", s)
	}
}
