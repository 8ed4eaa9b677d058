package sandbox_test

// Attack (a26, items 1 and 2): the plan covers the repositories earlier
// walks found (the repository memory) before those new to this walk, so
// that a command's new decoys come after the person's repositories. But
// the memory keeps no age: it is a sorted list, and it is read back in
// name order. A command makes 3,000 small repositories (a .git folder
// with a HEAD and a config) in its grant, in a folder whose name sorts
// before the person's app (granted/0/d…). The next command's launcher
// finds them, plans them after app (new) and remembers them: the memory
// is now [granted/0/d0, …, granted/0/d2999, granted/app]. From the
// command after that on, the "remembered" repositories are planned in
// name order, the decoys first: 3,000 × (the pinned .git, its config, its
// hooks, the folder holding it) use up the 8,192 mounts before app, whose
// .git/config is left writable, and that command writes core.fsmonitor
// there.
//
// Should: a repository the person had before the command's decoys stays
// ahead of them in the plan (what was remembered first is covered first),
// and its settings stay read-only.
// Does: the third command writes app/.git/config, and the person's git
// status in app runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA26RememberedDecoysSortBeforeThePersonsRepository(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	// Command 0: anything; its walk finds app and remembers it.
	if out, ok := runIn(t, p, f.granted, "true", nil); !ok {
		t.Fatalf("the first command failed: %s", out)
	}
	// Command 1: 3,000 small repositories, named to sort before app.
	decoys := `mkdir 0 && cd 0 &&
		awk 'BEGIN { for (i = 0; i < 3000; i++) print "d" i "/.git" }' | xargs mkdir -p &&
		awk 'BEGIN { for (i = 0; i < 3000; i++) { h = "d" i "/.git/HEAD"; c = "d" i "/.git/config";
			print "ref: refs/heads/main" > h; close(h); print "[core]" > c; close(c) } }' && echo made`
	out, ok := runIn(t, p, f.granted, decoys, nil)
	if !ok || !strings.Contains(out, "made") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the decoys were not made: %.300s", out)
	}
	// Command 2: anything; its launcher finds the decoys and remembers
	// them beside app.
	if out, ok := runIn(t, p, f.granted, "true", nil); !ok {
		t.Fatalf("the second command failed: %.300s", out)
	}
	// Command 3: the person's repository.
	line := "R=" + repo + " S=" + script +
		`; printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config" && echo wrote`
	out, ok = runIn(t, p, f.granted, line, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("once the repository memory held a command's 3,000 decoys sorting before app, a later command (succeeded=%v: %.400s) wrote app/.git/config and the person's git status ran its core.fsmonitor unconfined (%.100s)",
			ok, out, person)
	}
}
