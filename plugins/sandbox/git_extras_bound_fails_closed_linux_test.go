//go:build linux

package sandbox_test

// Found by the a30 attack round on the a29 fixes, and fixed: past the
// extras bound the plan now fails closed (closeFolder: the rest of
// .git/modules or .git/worktrees read-only whole, planned with the
// repositories' own mounts).
//
// Attack (a30, the extras bound fails open, launch-wide and command-first):
// a29's third fix counts every worktrees entry (two targets) and every
// submodule git folder against one launch-wide bound, maxPlanTargets
// (32,768), taken while the sets are built, and the repository the grant
// itself lies in is built first. The count is taken per listing entry
// whatever the entry is: a dangling link costs two targets and no mount
// (its commondir and config.worktree resolve to nothing, so the 8,192-mount
// budget never trips). A command makes its grant a repository (.git with a
// HEAD) whose .git/worktrees and four .git/modules/mN/worktrees each hold
// 4,096 dangling links (20,480 links, one second). Every later plan uses
// up the bound on them before the person's repository app, found beneath
// the grant: moduleMounts(app/.git) finds takeExtras false for app's
// submodule and skips it (SkipAll). Worse, it called gitDirMounts for that
// folder first, which marked it planned (pe.once) and was then thrown
// away, so when the walk reaches app/sub itself (a repository of its own,
// whose .git file names app/.git/modules/sub) its git folder is "planned
// already" and gets no mount either. app/.git/modules/sub/config is
// writable; the command writes core.fsmonitor there and the person's
// `git status` in app/sub runs it unconfined. Before the bound (6c18537)
// the same links cost nothing and the config stayed read-only.
//
// Should: past the bound the plan fails closed, so the person's
// submodule's git folder stays read-only (the command's own listings can
// still use up the bound: git in the command then cannot write in the
// person's .git/modules, and its output says why).
// Did: the second command wrote app/.git/modules/sub/config, and the
// person's git status in the submodule ran the planted core.fsmonitor.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA30ExtrasBoundUsedUpByGrantsOwnListings(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub")
	git(t, repo, "commit", "-qm", "sub")
	sub := filepath.Join(repo, "sub")
	subConfig := filepath.Join(repo, ".git", "modules", "sub", "config")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + subConfig + " && echo wrote"

	if out, _ := runIn(t, p, f.granted, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the submodule's config was writable before any listing: %.300s", out)
	}
	prep := `set -e; mkdir -p .git/w && echo 'ref: refs/heads/main' > .git/HEAD && cd .git &&
		i=0; while [ $i -lt 4096 ]; do ln -s nowhere w/e$i; i=$((i+1)); done &&
		cp -a w worktrees && for m in 1 2 3 4; do mkdir -p modules/m$m && ln HEAD modules/m$m/HEAD && cp -a w modules/m$m/worktrees; done &&
		echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	out, ok := runIn(t, p, f.granted, plant, nil)
	person := gitOK(sub, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a command filled the grant's own worktrees listings with 20,480 dangling links; the launch-wide target bound ran out before app's submodule, whose config the next command then wrote (succeeded=%v: %.400s), and the person's git status in app/sub ran the planted core.fsmonitor unconfined (%.100s)", ok, out, person)
	}
}
