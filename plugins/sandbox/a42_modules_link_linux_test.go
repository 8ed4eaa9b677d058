//go:build linux

package sandbox_test

import (
	"strings"
	"testing"
)

// a42: disarmNested disarms the git folders in a new repository's
// .git/modules with filepath.WalkDir, which does not follow links: a
// submodule's git folder that is a link (.git/modules/sub ->
// ../../../.x/subgit, a folder in a dot folder of the grant) is never
// looked at. git follows the link. The submodule's work tree lies in a
// dot folder (.deps/sub), so the end's walk does not find it as a
// repository of its own either; only disarmNested could have, as it
// does for a real folder there. The command adds inner to the person's
// index; the person's `git status` recurses into inner and then into
// .deps/sub, and runs its core.fsmonitor unconfined.
func TestA42NewRepoModulesLinkNotDisarmed(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, a40g+` init -q inner && cd inner && `+a40g+` commit -q --allow-empty -m i && `+
		a40g+` init -q .deps/sub && `+a40g+` -C .deps/sub commit -q --allow-empty -m s && `+a40g+` -C .deps/sub config core.fsmonitor `+script+` && `+
		`mkdir -p ../.x .git/modules && mv .deps/sub/.git ../.x/subgit && ln -s ../../../.x/subgit .git/modules/sub && `+
		`echo 'gitdir: ../../.git/modules/sub' > .deps/sub/.git && `+a40g+` add .deps/sub && `+a40g+` commit -q -m add && cd .. && `+a40g+` add inner`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(f.granted, "status")
	if a40Ran(marker) {
		t.Errorf("the submodule git folder the command linked into inner/.git/modules kept its core.fsmonitor, which the person's git status ran unconfined: command: %s\nperson's git: %s", out, got)
	}
}
