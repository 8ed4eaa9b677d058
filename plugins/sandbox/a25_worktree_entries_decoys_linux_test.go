package sandbox_test

// Attack (a25, item 2): besides the 8,192 mounts in all, the plan looks
// at no more than maxModuleEntries (4,096) entries of a repository's
// .git/worktrees (os.ReadDir, in name order: gitDirMounts), and that is
// the only place a linked worktree's commondir is made read-only. The
// folder is writable to a command in the repository. A command makes
// 4,096 empty folders named 0000…4095 there, which sort before the
// person's own linked worktree (.git/worktrees/wt): every later command's
// plan stops before reaching it, so wt's commondir is no longer
// read-only. A second command points it at a folder of its own whose
// config sets core.fsmonitor; the person's git in the worktree then reads
// that config. The empty folders cost nothing to make, add no mount, and
// no note says anything was left out.
//
// (The same decoys in .git/modules do not work: a checked-out
// submodule's .git file is found beneath the grant and protects its git
// folder on its own.)
//
// Should: the person's worktree stays protected whatever empty folders
// the command adds beside it; the person's git status there runs nothing
// of the command's.
// Does: the person's `git status` in the worktree runs the planted
// core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA25DecoyEntriesPushWorktreePastTheWalk(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := filepath.Join(f.granted, "app")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	wt := filepath.Join(f.granted, "wt")
	git(t, repo, "worktree", "add", "-q", wt)
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	// Command 1: the empty folders.
	out, ok := runIn(t, p, filepath.Join(repo, ".git", "worktrees"), `mkdir $(seq -f %04g 0 4095) && echo decoys`, nil)
	if !ok || !strings.Contains(out, "decoys") {
		t.Fatalf("making the empty folders failed: %.300s", out)
	}
	// Command 2: the worktree's commondir, now writable.
	line := "export HOME=" + f.temp + " S=" + script + `
		mkdir -p ../ev/objects ../ev/refs && echo 'ref: refs/heads/main' > ../ev/HEAD &&
		printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ../ev/config &&
		echo "$(cd ../ev && pwd)" > .git/worktrees/wt/commondir && echo wrote`
	out, ok = runIn(t, p, repo, line, nil)
	person := gitOK(wt, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("after 4,096 empty folders in .git/worktrees, a command (succeeded=%v: %.300s) rewrote the worktree's commondir and the person's git status in it ran its core.fsmonitor unconfined (%.80s)",
			ok, out, person)
	}
}
