package sandbox_test

// Attack (a29, plan-once keyed by the listing's real folder): a28 lists a
// worktrees folder once however many names lead to it, so that 1,300
// submodule folders whose worktrees are links to one folder no longer
// make the plan go through 5 million targets. But each listing's entries
// still become two targets each (NAME/commondir, NAME/config.worktree),
// and mountPlan's add resolves every target and each folder between the
// grant and it before folding it into a mount already planned; only a new
// mount counts toward the 8,192 budget. A command makes, in a repository
// x of its grant, 600 submodule folders whose worktrees are each a folder
// of their own (cp -al of one: hard links, no data) holding 4,096
// symbolic links to one folder D (with a commondir and config.worktree):
// 600 listings, none reached twice, 4.9 million targets that all fold
// into D's two mounts, so the budget never ends the loop. Every later
// command's launcher plans for 15 s or more before its program runs
// (200 folders: 5.7 s on the test machine; linear in what the command
// makes once, paid again at every later start).
//
// Should: the launcher's start stays bounded whatever a command leaves
// (count every target toward a bound, folded or not, or fold by name
// before resolving).
// Did, before every target was counted (maxPlanTargets): the next command
// had not started after 10 seconds. The preparation alone takes about a
// minute (2.4 million hard links).

import (
	"strings"
	"testing"
	"time"
)

func TestA29DistinctWorktreesFoldersOfLinksToOneFolder(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `set -e; mkdir -p x/.git/modules x/D x/w && cd x && echo 'ref: refs/heads/main' > .git/HEAD &&
		echo ../.. > D/commondir && : > D/config.worktree &&
		/usr/bin/perl -e 'for (1..4096) { symlink("$ARGV[0]/D", "w/e$_") or die }' "$PWD" &&
		for m in $(seq 1 600); do mkdir .git/modules/m$m && ln .git/HEAD .git/modules/m$m/HEAD && cp -al w .git/modules/m$m/worktrees; done &&
		echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	startLaunch(t, p, f.granted).startsWithin(t, 10*time.Second, "600 distinct worktrees folders of 4,096 links to one folder make 4.9 million targets that fold into two mounts and never reach the budget")
}
