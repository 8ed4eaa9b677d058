//go:build linux

package sandbox_test

// Found by the a32 attack round on the a31 fixes, and fixed: a worktrees
// listing with more entries than are planned is read-only whole.
//
// Attack (a32, past maxConsidered entries in .git/worktrees): past 4,096
// entries, gitDirMounts plans the 4,096 of .git/worktrees made first
// (oldestFirst, by birth time, which no command can set), but only of the
// first maxConsidered (65,536) entries of os.ReadDir, which sorts by name;
// the rest are dropped, neither planned nor closed (cut stays false, no
// note). A command makes 65,536 empty folders whose names sort before the
// person's worktree's ("wt"): the next plan never considers it, however
// old, and its commondir is writable. That command points the commondir
// at a git folder of its own whose config sets core.fsmonitor; the
// person's git status in the worktree (outside the grants, which
// docs/plugins.md says the listing covers "oldest first where the file
// system says when each entry was made") runs it unconfined. The same
// holds on a file system with birth times whenever one statx of the
// listing fails (an entry a leftover process removes between the ReadDir
// and the statx): oldestFirst falls back to name order.
//
// Should: a listing whose entries are not all planned closes the folder
// (closeFolder, as the extras bound does), or every entry is considered.
// Did: the second command rewrote the worktree's commondir, and the
// person's git status ran the planted core.fsmonitor.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestA32WorktreesPastTheConsideredEntries(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, f.granted, 0, unix.STATX_BTIME, &st); err != nil || st.Mask&unix.STATX_BTIME == 0 {
		t.Skipf("the file system of %s keeps no birth time (%v): the known name-order case", f.granted, err)
	}
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	wt := filepath.Join(f.outside, "wt")
	git(t, repo, "worktree", "add", "-q", wt)
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	// Command 1: 65,536 empty folders sorting before "wt".
	out, ok := runIn(t, p, filepath.Join(repo, ".git", "worktrees"), `seq -f %05g 0 65535 | xargs mkdir && echo decoys`, nil)
	if !ok || !strings.Contains(out, "decoys") {
		t.Fatalf("making the empty folders failed: %.300s", out)
	}
	// Command 2: the worktree's commondir, if writable.
	line := "export HOME=" + f.temp + " S=" + script + `
		mkdir -p ../ev/objects ../ev/refs && echo 'ref: refs/heads/main' > ../ev/HEAD &&
		printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ../ev/config &&
		echo "$(cd ../ev && pwd)" > .git/worktrees/wt/commondir && echo A32-WROTE`
	out, ok = runIn(t, p, repo, line, nil)
	person := gitOK(wt, "status")
	// A token of its own: the note on the git folder ../ev the command
	// made (moved aside when it ends) says "wrote" too.
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "A32-WROTE") {
		t.Errorf("after 65,536 empty folders sorting before it in .git/worktrees, the person's worktree was not considered: a command rewrote its commondir (succeeded=%v: %.300s) and the person's git status there ran the planted core.fsmonitor (ran=%v: %.80s)", ok, out, err == nil, person)
	}
}
