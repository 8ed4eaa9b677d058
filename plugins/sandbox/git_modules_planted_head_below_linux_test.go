//go:build linux

package sandbox_test

// Found by the a33 attack round on the a32 fixes, one level down from
// TestA33RootHEADSkipsSubmoduleUnderRefs, and fixed (a34): the walk of
// .git/modules looked into a git folder's own folders (objects, refs, …)
// not at all, and a command makes any folder look like a git folder with
// one HEAD. With .git/modules/x/HEAD planted, modules/x was planned as a
// git folder and its refs skipped, and with it the git folder of a
// submodule at x/refs/spec. Now those folders are looked into too, for
// folders only, under a bound of their own (maxOwnEntries), which a
// submodule's thousands of loose objects do not reach
// (TestSubmoduleWithManyLooseObjectsKeepsItsMounts).
//
// Did: modules/x/refs was skipped, modules/x/refs/spec/config was
// writable, and the planted core.fsmonitor ran in the person's git status.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestA34HEADBelowRootSkipsSubmoduleUnderRefs(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "x/refs/spec")
	git(t, repo, "commit", "-qm", "sub")
	modules := filepath.Join(repo, ".git", "modules")
	module := filepath.Join(modules, "x", "refs", "spec")
	if _, err := os.Stat(filepath.Join(module, "config")); err != nil {
		t.Skipf("this git keeps the submodule's git folder elsewhere: %v", err)
	}
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + module + "/config && echo wrote"
	if out, _ := runIn(t, p, repo, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the submodule's config was writable before the attack: %.300s", out)
	}
	// modules/x gets a HEAD (a git folder's sign), and the submodule's
	// HEAD goes aside for one start, so that its work tree's .git file
	// leads to no git folder either.
	prep := "touch " + modules + "/x/HEAD && mv " + module + "/HEAD " + module + "/HEAD.x && echo prepared"
	if out, ok := runIn(t, p, repo, prep, nil); !ok || !strings.Contains(out, "prepared") {
		t.Fatalf("preparing failed: %.300s", out)
	}
	out, ok := runIn(t, p, repo, "mv "+module+"/HEAD.x "+module+"/HEAD && "+plant, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "wrote") {
		t.Errorf("a command planted .git/modules/x/HEAD (and moved the submodule's HEAD aside for one start); the next plan skipped .git/modules/x/refs as a git folder's refs and left the submodule x/refs/spec's git folder open: the command wrote core.fsmonitor into its config (succeeded=%v: %.400s), and the person's git status ran it unconfined (ran=%v: %.200s)", ok, out, err == nil, person)
	}
}

// A submodule's git folder holds its loose objects by the thousand
// (objects/xx/…), which the walk now looks into: they neither cut the
// walk (which would make .git/modules read-only whole, and git in the
// command unable to write there) nor make the start slow.
func TestSubmoduleWithManyLooseObjectsKeepsItsMounts(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib")
	git(t, repo, "commit", "-qm", "sub")
	module := filepath.Join(repo, ".git", "modules", "lib")
	if _, err := os.Stat(filepath.Join(module, "config")); err != nil {
		t.Skipf("this git keeps the submodule's git folder elsewhere: %v", err)
	}
	// 5,000 loose objects in the submodule's git folder, as git writes
	// them (git gc --auto packs them past about 6,700).
	blobs := filepath.Join(f.outside, "blobs")
	if err := os.MkdirAll(blobs, 0o755); err != nil {
		t.Fatal(err)
	}
	var list strings.Builder
	for i := range 5000 {
		name := filepath.Join(blobs, fmt.Sprint(i))
		if err := os.WriteFile(name, []byte(fmt.Sprintf("blob %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&list, name)
	}
	hash := exec.Command("git", "hash-object", "-w", "--stdin-paths")
	hash.Dir = filepath.Join(repo, "lib")
	hash.Stdin = strings.NewReader(list.String())
	if out, err := hash.CombinedOutput(); err != nil {
		t.Fatalf("git hash-object: %v: %.300s", err, out)
	}
	loose, _ := filepath.Glob(filepath.Join(module, "objects", "??", "*"))
	if len(loose) < 5000 {
		t.Fatalf("%d loose objects in the submodule's git folder, want 5,000", len(loose))
	}
	l := startLaunch(t, f.commandPolicy(), repo)
	l.startsWithin(t, 10*time.Second, "a submodule's 5,000 loose objects are looked into for git folders")
	if strings.Contains(l.output(), "read-only whole") {
		t.Errorf("a submodule with 5,000 loose objects made the start close its modules folder: %.400s", l.output())
	}
	p := f.commandPolicy()
	_, script := plantScript(t, f)
	plant := "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> " + module + "/config && echo wrote"
	probe := "touch " + module + "/objects/probe && echo touched"
	out, _ := runIn(t, p, repo, plant+"; "+probe, nil)
	if strings.Contains(out, "wrote") {
		t.Errorf("the submodule's config was writable to the command: %.300s", out)
	}
	if !strings.Contains(out, "touched") || strings.Contains(out, "read-only whole") {
		t.Errorf("the submodule's objects folder was not writable to the command (its modules folder closed?): %.400s", out)
	}
}
