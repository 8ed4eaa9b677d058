package sandbox_test

// Attack (a28, item 4: what the launcher's start does for what a command
// makes cheaply): the git mounts are bounded at 8,192, but the bound
// counts mounts planned, after a path met twice is folded into one
// (mountPlan's add, by the path its links lead to). Each submodule git
// folder in .git/modules (up to 4,096 walk entries: about 1,300 folders)
// lists up to 4,096 entries of its .git/modules/NAME/worktrees, two
// targets each, and that worktrees may be a link to one shared folder
// (TestMountNamespaceBoundsGitMountsInAll). Every target, although it
// folds into a mount already planned and so never reaches the budget,
// goes through add for itself and for each folder between the grant and it
// (ancestorsInside): about six filepath.EvalSymlinks of ten components
// each, some seventy system calls. A command makes, in a repository x in
// its grant, one folder of 4,096 empty files and 200 submodule folders (a
// HEAD and a worktrees link each): 1.6 million targets, about 100 µs each.
// Every later command in the grant starts a launcher that plans for
// minutes (50 folders already took 50 s on the test machine; the full
// 1,300 would take about twenty minutes) before its program runs, on every
// shell call and MCP server start, until the person finds x. Its memory
// grows with the targets too (about 120 bytes each, before folding).
//
// Should: the launcher's start stays bounded whatever a command leaves in
// a grant (fold, or count toward the budget, before resolving each target;
// list a worktrees folder reached twice once), and `true` runs within
// seconds.
// Does: the next command has not started after 20 seconds (the test then
// kills it).

import (
	"strings"
	"testing"
	"time"
)

func TestA28SharedWorktreesFoldersPlannedForMinutes(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `set -e; mkdir -p x/.git/modules x/.git/shared && echo 'ref: refs/heads/main' > x/.git/HEAD &&
		(cd x/.git/shared && awk 'BEGIN { for (i = 0; i < 4096; i++) { g = "w" i; printf "" > g; close(g) } }') &&
		for i in $(seq 1 200); do mkdir x/.git/modules/m$i && ln x/.git/HEAD x/.git/modules/m$i/HEAD && ln -s ../../shared x/.git/modules/m$i/worktrees; done &&
		echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	l := startLaunch(t, p, f.granted)
	if err, ended := l.wait(20 * time.Second); ended {
		if !strings.Contains(l.output(), "started") {
			t.Errorf("the command did not run (%v): %.300s", err, l.output())
		}
		t.Logf("the command ran after %v", l.took)
	} else {
		t.Errorf("the next command's launcher is still planning after 20 seconds: a command's 200 submodule folders whose worktrees link to one folder of 4,096 files give 1.6 million targets, each resolved with its folders before it folds into a mount already planned (output so far: %q)", l.output())
		l.kill()
	}
}
