//go:build linux

package sandbox_test

// Found by the a33 attack round on the a32 fixes, and fixed: a git
// folder's own names are skipped only in a folder the walk itself planned,
// never in its root. The same one level down (a HEAD planted in
// modules/x, hiding x/refs/spec) is fixed too: those folders are now
// looked into (TestA34HEADBelowRootSkipsSubmoduleUnderRefs).

// Attack (a33, a git folder's own names skipped by the parent's signs,
// which a command plants): moduleMounts skips a folder named objects,
// refs, logs, info, lfs (hooks, worktrees) when the folder above it
// looksLikeGitDir and it does not. But the folder above it may be any
// folder of .git/modules (or .git/worktrees/NAME/modules), the walk's root
// included, and a command makes it "look like a git folder" with one
// `touch HEAD`: nothing there is mounted. A submodule whose path passes
// through one of those names (refs/spec; data/objects/x, logs/parser)
// keeps its git folder in modules/refs/spec; the in-between folder
// modules/refs holds no HEAD or config of its own, so with modules/HEAD
// planted it is skipped whole and the submodule's git folder beneath it is
// never planned. (hooks is covered by luck: the planted HEAD makes the
// root a git folder whose hooks gitDirMounts makes read-only.)
//
// Main .git/modules: the first command plants .git/modules/HEAD and moves
// the submodule's HEAD aside (so that its work tree's .git file, found by
// the walk beneath the grant, leads to no git folder either: isGitDir);
// the next plan protects nothing of modules/refs/spec; that command puts
// HEAD back and writes core.fsmonitor into its config, and the person's
// git status in the superproject runs it unconfined.
//
// Linked worktree outside the grants: its submodule's git folder
// .git/worktrees/feat/modules/refs/spec is reached by nothing else, so one
// planted .git/worktrees/feat/modules/HEAD is enough.
//
// Should: the skip trusts no sign a command can plant: never at the walk's
// root's children, and elsewhere only inside a folder the walk itself
// planned as a git folder (remember the paths whose gitDirMounts ran),
// or a skipped folder is walked for folders that look like git folders
// (a regular config: a planned one's is a mount point), or closed
// read-only.
// Did: modules/refs is skipped, modules/refs/spec/config is writable,
// and the planted core.fsmonitor runs in the person's git status.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA33RootHEADSkipsSubmoduleUnderRefs(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "refs/spec")
	git(t, repo, "commit", "-qm", "sub")
	modules := filepath.Join(repo, ".git", "modules")
	module := filepath.Join(modules, "refs", "spec")
	if _, err := os.Stat(filepath.Join(module, "config")); err != nil {
		t.Skipf("this git keeps the submodule's git folder elsewhere: %v", err)
	}
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + module + "/config && echo wrote"
	if out, _ := runIn(t, p, repo, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the submodule's config was writable before the attack: %.300s", out)
	}
	prep := "touch " + modules + "/HEAD && mv " + module + "/HEAD " + module + "/HEAD.x && echo prepared"
	if out, ok := runIn(t, p, repo, prep, nil); !ok || !strings.Contains(out, "prepared") {
		t.Fatalf("preparing failed: %.300s", out)
	}
	out, ok := runIn(t, p, repo, "mv "+module+"/HEAD.x "+module+"/HEAD && "+plant, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "wrote") {
		t.Errorf("a command planted .git/modules/HEAD (and moved the submodule's HEAD aside for one start); the next plan skipped .git/modules/refs as a git folder's refs and left the submodule refs/spec's git folder open: the command wrote core.fsmonitor into its config (succeeded=%v: %.400s), and the person's git status ran it unconfined (ran=%v: %.200s)", ok, out, err == nil, person)
	}
}

func TestA33WorktreeModulesHEADSkipsSubmoduleUnderRefs(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "refs/spec")
	git(t, repo, "commit", "-qm", "sub")
	feat := filepath.Join(f.outside, "feat")
	git(t, repo, "worktree", "add", "-q", feat)
	git(t, feat, "-c", "protocol.file.allow=always", "submodule", "update", "--init", "-q")
	modules := filepath.Join(repo, ".git", "worktrees", "feat", "modules")
	module := filepath.Join(modules, "refs", "spec")
	if _, err := os.Stat(filepath.Join(module, "config")); err != nil {
		t.Skipf("this git keeps a linked worktree's submodules elsewhere: %v", err)
	}
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + module + "/config && echo wrote"
	if out, _ := runIn(t, p, repo, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the submodule's config was writable before the attack: %.300s", out)
	}
	if out, ok := runIn(t, p, repo, "touch "+modules+"/HEAD && echo prepared", nil); !ok || !strings.Contains(out, "prepared") {
		t.Fatalf("preparing failed: %.300s", out)
	}
	out, ok := runIn(t, p, repo, plant, nil)
	person := gitOK(feat, "status")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "wrote") {
		t.Errorf("a command planted .git/worktrees/feat/modules/HEAD; the next plan skipped its refs folder as a git folder's and left the linked worktree's submodule refs/spec's git folder open: the command wrote core.fsmonitor into its config (succeeded=%v: %.400s), and the person's git status in the worktree ran it unconfined (ran=%v: %.200s)", ok, out, err == nil, person)
	}
}
