//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// a44: TestA43PersonsHeadBrokenFolderTakesOver split over two commands.
// The end's check disarms the folder of a person's repository whose .git
// git no longer takes only where that folder's entries changed since the
// start (gitEntriesBornSince: its ctime, the birth times of its HEAD,
// commondir, objects, refs, config). An earlier command makes the
// person's app a bare repository of its own beside their intact .git
// (HEAD, objects, refs, config with core.bare = false, core.worktree =
// ., core.fsmonitor): harmless while .git/HEAD is valid, and app is
// known, so that command's end leaves it. A later command only rewrites
// .git/HEAD in place (printf junk > .git/HEAD: same file, no entry of
// app changed). Its end's check finds app's entries all older than its
// start and leaves app armed: the person's `git status` in their own
// repository takes app as the git folder and runs the command's program
// unconfined.
func TestA44PersonsHeadBrokenByLaterCommand(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, app, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	first := a40Run(t, f, `cd app && `+a40g+` init -q --bare . && `+a40g+` config --file config core.bare false && `+a40g+` config --file config core.worktree . && `+
		a40g+` config --file config core.fsmonitor `+script)
	time.Sleep(200 * time.Millisecond)
	out := a40Run(t, f, `printf 'junk\n' > app/.git/HEAD`)
	if strings.Contains(first+out, "moved") {
		t.Logf("the watcher moved something: %s\n%s", first, out)
	}
	got := gitOK(app, "status")
	if a40Ran(marker) {
		t.Errorf("the person's own repository app: an earlier command made app a git folder with core.fsmonitor beside the intact .git, a later one broke .git/HEAD in place; the end's check took app's entries as old and left it: the person's git status in app ran it unconfined: first: %s\nsecond: %s\nperson's git: %s", first, out, got)
	}
}
