//go:build linux

package sandbox_test

// Found by the a32 attack round on the a31 fixes, and fixed: the
// .git/modules walk skips a git folder's own names (hooks, objects, …)
// only inside a git folder.
//
// Attack (a32, a submodule whose name holds a git folder's own names):
// the .git/modules walk skips every folder named objects, refs, logs,
// hooks, info, lfs or worktrees, at any depth, as the insides of a
// submodule's git folder; but a submodule's name is its path by default
// and may hold any of them: `git submodule add URL vendor/hooks` (a shared
// hooks repository, vendored) keeps its git folder in
// .git/modules/vendor/hooks, which the walk skips without planning it and
// without closing anything. The submodule's work tree lies in vendor,
// which the grant walk skips, so nothing else plans its git folder: a
// command writes core.fsmonitor into .git/modules/vendor/hooks/config,
// and the person's git status in the submodule runs it unconfined (as in
// TestA31ModulesWalkErrorFailsOpen, with no error needed).
//
// Should: skip those names only inside a folder taken for a git folder
// (the walk's parent looksLikeGitDir), or look at a skipped folder with
// looksLikeGitDir first and plan it when it is one.
// Did: the command wrote the submodule's config, and the person's git ran
// the planted core.fsmonitor.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA32SubmoduleNamedHooksNotPlanned(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "hooks"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "hooks")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/hooks")
	git(t, repo, "commit", "-qm", "sub")
	sub := filepath.Join(repo, "vendor", "hooks")
	subConfig := filepath.Join(repo, ".git", "modules", "vendor", "hooks", "config")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + subConfig + " && echo wrote"
	out, ok := runIn(t, p, f.granted, plant, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	person := gitOK(sub, "status")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "wrote") {
		t.Errorf("the person's submodule vendor/hooks has its git folder in .git/modules/vendor/hooks, which the walk skips as a git folder's hooks: the command wrote its config (succeeded=%v: %.400s), and the person's git status there ran the planted core.fsmonitor (ran=%v: %.100s)", ok, out, err == nil, person)
	}
}
