//go:build linux

package sandbox_test

// Found by the a32 attack round on the a31 fixes, and fixed: a folder in
// .git/modules with settings counts as a submodule's git folder, HEAD or
// not.
//
// Attack (a32, a submodule's git folder made to look like none for one
// plan): moduleMounts plans a folder in .git/modules only when
// looksLikeGitDir says it is a git folder (a HEAD of any kind, or a config
// file beside an objects folder), and the submodule's .git file in the
// work tree leads to its git folder only when isGitDir finds a HEAD there
// (worktreeDirs). The submodule's git folder itself is mounted writable
// (only its config, config.worktree and hooks are read-only), so a command
// removes its HEAD and renames objects to objects.x: git would not take it
// now, but nothing of it is lost. The next start's plan finds no sign of a
// git folder there (the walk goes into it as into any folder, and the
// .git file leads nowhere), so nothing of it is mounted: that command puts
// HEAD and objects back and writes core.fsmonitor into its config, and the
// person's git status in the superproject (which looks into each
// submodule) runs it unconfined. The "signs a command could not take away
// without breaking the submodule" are taken away for one start only.
//
// Should: a folder that was a submodule's git folder stays planned (what
// earlier plans found remembered, as RepoMemory does for repositories), or
// any folder in .git/modules with a config file has that config (and its
// hooks folder) read-only whatever else it holds, and a .git file whose
// gitdir lies in .git/modules protects that folder whatever its HEAD.
// Did: the second command wrote the submodule's config, and the person's
// git status ran the planted core.fsmonitor.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA32SubmoduleUnmarkedForOnePlan(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub")
	git(t, repo, "commit", "-qm", "sub")
	module := filepath.Join(repo, ".git", "modules", "sub")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + module + "/config && echo wrote"

	if out, _ := runIn(t, p, repo, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the submodule's config was writable before the attack: %.300s", out)
	}
	hide := "cd " + module + " && mv HEAD HEAD.x && mv objects objects.x && echo hid"
	if out, ok := runIn(t, p, repo, hide, nil); !ok || !strings.Contains(out, "hid") {
		t.Fatalf("hiding the submodule's signs failed: %.300s", out)
	}
	restore := "cd " + module + " && mv HEAD.x HEAD && mv objects.x objects && " + plant
	out, ok := runIn(t, p, repo, restore, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "wrote") {
		t.Errorf("a command removed the submodule git folder's HEAD and renamed its objects; the next plan took .git/modules/sub for no git folder and left its config writable: that command put them back and wrote core.fsmonitor (succeeded=%v: %.400s), and the person's git status in the superproject ran it unconfined (ran=%v: %.200s)", ok, out, err == nil, person)
	}
}
