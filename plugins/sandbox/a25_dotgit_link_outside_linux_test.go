package sandbox_test

// Attack (a25, item 3 / item 2): the plan follows a .git that is a link
// (nearestGitMounts, "Android's repo links .git"), wherever it leads,
// and takes the folder it leads to for a main git folder (gitDirs). The
// launcher then runs MoveCommondirs on it before anything is confined,
// with its capabilities in the namespace. A command writes one link in
// its grant's root: .git -> the git folder of a linked worktree of a
// repository the person keeps OUTSIDE every grant
// (~/other/.git/worktrees/wt, whose commondir git made and needs). Every
// later command's launcher renames that commondir to
// commondir.moved-by-wrasse: a change to a file outside every grant,
// which breaks the person's worktree (`git status` there: "fatal: not a
// git repository").
//
// Should: nothing outside the grants changes: a .git link's target
// outside the grants is not treated as the command's repository (at
// least not renamed in), and the person's worktree keeps working.
// Does: the worktree's commondir, outside the grant, is moved away and
// the person's git in the worktree fails.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA25DotGitLinkMovesCommondirOutsideGrants(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	other := filepath.Join(f.outside, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, other, "init", "-q")
	git(t, other, "commit", "-q", "--allow-empty", "-m", "first")
	wt := filepath.Join(f.outside, "other-wt")
	git(t, other, "worktree", "add", "-q", wt)
	wtGit := filepath.Join(other, ".git", "worktrees", "other-wt")
	commondir := filepath.Join(wtGit, "commondir")
	if _, err := os.Stat(commondir); err != nil {
		t.Fatalf("git made no commondir for the worktree: %v", err)
	}
	p := f.commandPolicy()
	// Command 1: a link in its own grant.
	out, ok := runIn(t, p, f.granted, "ln -s "+wtGit+" .git && echo linked", nil)
	if !ok || !strings.Contains(out, "linked") {
		t.Fatalf("the command could not make the link: %s", out)
	}
	// Command 2: anything, in the grant.
	out, _ = runIn(t, p, f.granted, "true", nil)
	if _, err := os.Lstat(commondir); err != nil {
		t.Errorf("a later command's launcher changed %s, outside every grant (%v); its output: %.300s", commondir, err, out)
	}
	if s := gitOK(wt, "status"); strings.Contains(s, "fatal") {
		t.Errorf("the person's worktree outside the grants is broken: %s", s)
	}
}
