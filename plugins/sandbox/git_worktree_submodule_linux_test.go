//go:build linux

package sandbox_test

// Found by the a32 attack round on the a31 fixes, and fixed: each linked
// worktree's own modules folder is walked as .git/modules is.
//
// Attack (a32, a linked worktree's submodules): git keeps the git folder
// of a submodule checked out in a linked worktree in that worktree's own
// git folder, .git/worktrees/NAME/modules/SUB ("modules" is per worktree,
// not shared: git 2.39 here), but the plan walks only the shared one,
// common/modules (moduleMounts(common) in nearestGitMounts and nothing in
// gitDirMounts' worktrees listing, which mounts each NAME's commondir and
// config.worktree alone). The person's linked worktree lies outside the
// grants (docs/plugins.md: ".git/worktrees' listing covers it"), with a
// submodule initialised there: its git folder is in the granted
// repository's .git, writable and planned by no one. A single command
// writes core.fsmonitor into .git/worktrees/feat/modules/sub/config, and
// the person's git status in their worktree (which looks into each
// submodule) runs it unconfined.
//
// Should: the worktrees listing walks each NAME/modules as moduleMounts
// does common/modules (with the same bounds, closing on a cut), or closes
// .git/worktrees/*/modules.
// Did: the command wrote the submodule's config, and the person's git
// status ran the planted core.fsmonitor.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA32LinkedWorktreeSubmoduleNotPlanned(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub")
	git(t, repo, "commit", "-qm", "sub")
	feat := filepath.Join(f.outside, "feat")
	git(t, repo, "worktree", "add", "-q", feat)
	git(t, feat, "-c", "protocol.file.allow=always", "submodule", "update", "--init", "-q")
	module := filepath.Join(repo, ".git", "worktrees", "feat", "modules", "sub")
	if _, err := os.Stat(filepath.Join(module, "config")); err != nil {
		t.Skipf("this git keeps a linked worktree's submodules elsewhere: %v", err)
	}
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + module + "/config && echo wrote"
	out, ok := runIn(t, p, repo, plant, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	person := gitOK(feat, "status")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "wrote") {
		t.Errorf("the person's linked worktree (outside the grants) has a submodule whose git folder is %s; the plan never looks in .git/worktrees/*/modules: the command wrote its config (succeeded=%v: %.400s), and the person's git status in the worktree ran the planted core.fsmonitor (ran=%v: %.200s)", module, ok, out, err == nil, person)
	}
}
