package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A linked worktree outside the grants whose git folder lies in a granted
// repository's .git/worktrees is not found by any walk: only the listing
// of .git/worktrees, bounded at 4,096 entries, covers its commondir, and
// a command's empty folders sorting first by name pushed it out. The
// listing keeps the entries made first, by their birth time, which no
// command can set. (A worktree inside a grant is found by the walk and
// covered whatever .git/worktrees holds:
// TestA25DecoyEntriesPushWorktreePastTheWalk.)
func TestMountNamespaceDecoysPushOutsideWorktreePastTheWalk(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, f.granted, 0, unix.STATX_BTIME, &st); err != nil || st.Mask&unix.STATX_BTIME == 0 {
		t.Skipf("the file system of %s keeps no birth time (%v): the launcher lists .git/worktrees in name order there", f.granted, err)
	}
	repo := filepath.Join(f.granted, "app")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	wt := filepath.Join(f.outside, "wt")
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
		t.Errorf("after 4,096 empty folders in .git/worktrees, a command (succeeded=%v: %.300s) rewrote the commondir of a worktree outside the grants and the person's git status in it ran its core.fsmonitor unconfined (%.80s)",
			ok, out, person)
	}
}
