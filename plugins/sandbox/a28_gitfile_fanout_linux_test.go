package sandbox_test

// Attack (a28, item 4: what the launcher's start does for what a command
// makes cheaply): every repository the walk finds is planned by
// nearestGitMounts, and a .git FILE ("gitdir: PATH", a worktree's or a
// submodule's) sends it to the git folder PATH names, whose worktrees and
// .git/modules (up to 4,096 walk entries: about 1,365 submodule folders,
// each with gitDirMounts: worktreeConfigOn reads its config, rebaseMounts
// resolves four names, gitSettingMounts...) are listed and planned again
// for each .git file that names it: nothing remembers a git folder already
// planned. A command makes one git folder big.git in its grant holding
// 1,365 submodule folders (a HEAD each, hard links of one file) and 2,000
// folders r0..r1999 holding a .git file "gitdir: ../big.git" (4,000 walk
// entries, a tenth of the walk's budget): 2.7 million submodule folders
// planned (100 repositories took 23 s on the test machine, three quarters
// in add resolving each target with its folders, a quarter in
// moduleMounts itself), so every later command in the grant waits minutes
// before its program runs, and its launcher's memory grows by hundreds of
// megabytes, until the person finds the decoys. Distinct from
// TestA28SharedWorktreesFoldersPlannedForMinutes: folding the targets
// before resolving them leaves the repeated listing here (about 5 s a
// hundred .git files).
//
// Should: a git folder reached from many .git files is planned once, and
// the launcher's start stays bounded whatever a command leaves in a grant.
// Does: the next command has not started after 20 seconds (the test then
// kills it).

import (
	"strings"
	"testing"
	"time"
)

func TestA28OneGitFolderPlannedForEveryGitFile(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `set -e; mkdir -p big.git/modules && echo 'ref: refs/heads/main' > big.git/HEAD &&
		(cd big.git/modules && awk 'BEGIN { for (i = 0; i < 1365; i++) print "m" i }' | xargs mkdir &&
			for m in m*; do ln ../HEAD $m/HEAD; done) &&
		awk 'BEGIN { for (i = 0; i < 2000; i++) print "r" i }' | xargs mkdir &&
		for r in r*; do echo 'gitdir: ../big.git' > $r/.git; done &&
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
		t.Errorf("the next command's launcher is still planning after 20 seconds: a command's 2,000 .git files all naming one git folder of 1,365 submodule folders make it walk and plan that folder 2,000 times (output so far: %q)", l.output())
		l.kill()
	}
}
