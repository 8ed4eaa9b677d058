//go:build linux

package sandbox_test

import (
	"path/filepath"
	"testing"
)

// a40: the walk for repositories beneath a grant (reposBeneath) stops
// at a folder that looks like a bare repository (HEAD, objects, refs)
// and does not look into what lies beneath it. A command makes the
// grant's own root look like one (three names among a project's files:
// `mkdir objects refs; echo ref: refs/heads/main > HEAD`), and the
// watcher's end walk finds nothing beneath the grant at all: a
// repository the command made there, with a core.fsmonitor of its own
// and added to the person's index as a gitlink, is not disarmed, and
// the person's `git status` runs it unconfined. No note says the walk
// was cut.
func TestA40BareLookingGrantRootHidesNewRepository(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, a40g+" init -q inner && "+a40g+" -C inner commit -q --allow-empty -m x && "+
		a40g+" -C inner config core.fsmonitor "+script+" && "+a40g+" add inner && "+
		"mkdir objects refs && echo 'ref: refs/heads/main' > HEAD")
	gitOK(f.granted, "status")
	if a40Ran(marker) {
		t.Errorf("a repository the command made beneath a grant whose root it made look like a bare repository kept its core.fsmonitor, which the person's git status ran unconfined: %s", out)
	}
}

// The same decoy one level down: a folder pkg that looks bare hides
// pkg/inner from the end's walk (pkg itself is "disarmed", holding
// nothing).
func TestA40BareLookingFolderHidesNewRepositoryBeneath(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, "mkdir -p pkg/objects pkg/refs && echo 'ref: refs/heads/main' > pkg/HEAD && "+
		a40g+" init -q pkg/inner && "+a40g+" -C pkg/inner commit -q --allow-empty -m x && "+
		a40g+" -C pkg/inner config core.fsmonitor "+script+" && "+a40g+" add pkg/inner")
	gitOK(f.granted, "status")
	if a40Ran(marker) {
		t.Errorf("a repository the command made beneath a folder it made look bare kept its core.fsmonitor, which the person's git status ran unconfined: %s", out)
	}
}

// And the decoy stays: every later command's start walk stops at the
// grant's root too, so a repository the person makes in the grant
// afterwards (a clone into ~/code) is found by no walk, and the next
// command writes its settings. Unlike the 40,000-entry flood
// (TestMountNamespaceWalkRunOutByCommand), nothing says so.
func TestA40BareLookingGrantRootHidesPersonsLaterRepository(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	marker, script := plantScript(t, f)
	a40Run(t, f, "mkdir objects refs && echo 'ref: refs/heads/main' > HEAD")
	later := newRepo(t, filepath.Join(f.granted, "later"))
	git(t, later, "commit", "-q", "--allow-empty", "-m", "x")
	out := a40Run(t, f, "git -C later config core.fsmonitor "+script+" || true")
	gitOK(later, "status")
	if a40Ran(marker) {
		t.Errorf("a repository the person made in the grant after a command made its root look bare was not protected: the next command set its core.fsmonitor, which the person's git status ran: %s", out)
	}
}
