//go:build linux

package sandbox_test

// Found by the a31 attack round on the a30 fixes, and fixed: a folder the
// .git/modules walk cannot read closes the rest of it (read-only whole),
// as a bound does; an unreadable worktrees listing closes itself.
//
// Attack (a31, the .git/modules walk stops on an error and fails open):
// a30's first fix made moduleMounts close .git/modules (read-only whole)
// when a bound cuts its walk short, but the walk callback's error case
// still returns filepath.SkipAll without setting cut: any folder the walk
// cannot read ends it, and every submodule git folder after it (in name
// order) is neither planned nor closed. A command leaves in the person's
// .git/modules a folder ".0" (sorting before any submodule's name) that
// the next plan cannot read: here a chain of 17 folders of 255-byte names
// (fewer than maxModuleDepth levels), whose deepest path is longer than
// PATH_MAX, so ReadDir fails with ENAMETOOLONG even for root; for a person
// who is not root `mkdir .git/modules/.0 && chmod 0 .git/modules/.0` does
// the same. The person's submodule vendor/lib lies in a folder the grant
// walk skips (vendor), so nothing else plans its git folder: the next
// command writes core.fsmonitor into .git/modules/vendor/lib/config, and
// the person's git status in the submodule runs it unconfined.
//
// Should: a walk error fails closed like a bound (cut = true, or the
// unreadable folder itself read-only and the walk going on).
// Did: the second command wrote the submodule's config, and the person's
// git ran the planted core.fsmonitor.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA31ModulesWalkErrorFailsOpen(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib")
	git(t, repo, "commit", "-qm", "sub")
	sub := filepath.Join(repo, "vendor", "lib")
	subConfig := filepath.Join(repo, ".git", "modules", "vendor", "lib", "config")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + subConfig + " && echo wrote"

	if out, _ := runIn(t, p, f.granted, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the submodule's config was writable before the attack: %.300s", out)
	}
	name := strings.Repeat("x", 255)
	prep := `set -e; mkdir app/.git/modules/.0 && cd app/.git/modules/.0 &&
		i=0; while [ $i -lt 17 ]; do mkdir ` + name + ` && cd ` + name + `; i=$((i+1)); done && echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	out, ok := runIn(t, p, f.granted, plant, nil)
	person := gitOK(sub, "status")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "wrote") {
		t.Errorf("a command left an unreadable folder (a path past PATH_MAX) first in .git/modules; the next plan's walk stopped there without closing the folder, the command wrote the person's submodule's config (succeeded=%v: %.400s), and the person's git status in vendor/lib ran the planted core.fsmonitor (ran=%v: %.100s)", ok, out, err == nil, person)
	}
}
