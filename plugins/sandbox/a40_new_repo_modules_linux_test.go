//go:build linux

package sandbox_test

import (
	"testing"
)

// a40: DisarmNewRepos looks at a new repository's config,
// config.worktree and hooks, not at its .git/modules: the git folders of
// its submodules, with settings and hooks of their own. A submodule
// whose work tree lies where the end's walk does not go (node_modules, a
// dot folder) is not disarmed by its own .git file either. The person's
// git status in the outer repository enters inner (a gitlink), and
// inner's status enters its submodule, running the core.fsmonitor in
// inner/.git/modules/NAME/config.
func TestA40NewRepositorySubmoduleSettingsNotDisarmed(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, a40g+" init -q lib && "+a40g+" -C lib commit -q --allow-empty -m x && "+
		a40g+" init -q inner && "+a40g+" -c protocol.file.allow=always -C inner submodule add -q ../lib node_modules/dep && "+
		a40g+" -C inner commit -q -m sub && "+a40g+" -C inner/node_modules/dep config core.fsmonitor "+script+" && "+
		"test -f inner/.git/modules/node_modules/dep/config && rm -rf lib && "+a40g+" add inner")
	gitOK(f.granted, "status")
	if a40Ran(marker) {
		t.Errorf("the git folder of a submodule of a repository the command made kept its core.fsmonitor, which the person's git status ran unconfined: %s", out)
	}
}
