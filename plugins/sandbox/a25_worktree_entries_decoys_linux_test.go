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
//
// A worktree outside the grants (its git folder in a granted repository)
// is found by no walk: only the listing of .git/worktrees covers its
// commondir, oldest first by birth time, which no command can set.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestA25DecoyEntriesPushWorktreePastTheWalk(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, tc := range []struct {
		name string
		// where is the worktree's parent folder.
		where func(f fixture) string
		// birth: the launcher needs the file system's birth times here
		// (past 4,096 entries it covers .git/worktrees oldest first);
		// a worktree in a grant is found by the walk instead.
		birth bool
	}{
		{"a worktree in the grant", func(f fixture) string { return f.granted }, false},
		{"a worktree outside the grants", func(f fixture) string { return f.outside }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.birth {
				var st unix.Statx_t
				if err := unix.Statx(unix.AT_FDCWD, f.granted, 0, unix.STATX_BTIME, &st); err != nil || st.Mask&unix.STATX_BTIME == 0 {
					t.Skipf("the file system of %s keeps no birth time (%v): the launcher lists .git/worktrees in name order there", f.granted, err)
				}
			}
			repo := newRepo(t, filepath.Join(f.granted, "app"))
			git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
			wt := filepath.Join(tc.where(f), "wt")
			git(t, repo, "worktree", "add", "-q", wt)
			marker, script := plantScript(t, f)
			p := f.commandPolicy()
			// Command 1: the empty folders.
			out, ok := runIn(t, p, filepath.Join(repo, ".git", "worktrees"), `mkdir $(seq -f %04g 0 4095) && echo decoys`, nil)
			if !ok || !strings.Contains(out, "decoys") {
				t.Fatalf("making the empty folders failed: %.300s", out)
			}
			// Command 2: the worktree's commondir, if writable.
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
		})
	}
}
