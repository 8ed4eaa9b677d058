package sandbox_test

// Attack (a26, item 2): the plan puts every repository's "own" mounts
// before the "extra" ones (worktree folders, submodule git folders), and
// the repositories at or above the grants and the working folder first of
// all. But a repository's own mounts are not bounded: gitSettingMounts
// makes one read-only mount for every core.hooksPath value its settings
// hold (readGitSettings bounds the included files at 64, the hooksPath
// values not at all; one 256 KiB config holds thousands), and makes the
// folder first when it is missing in the work tree. A command makes its
// grant's root a repository (.git/HEAD) whose .git/config holds 8,300
// core.hooksPath values, each a different folder. The next command's
// launcher plans the grant's own repository first (a start) and spends the
// whole 8,192 budget on its hooksPath folders before it reaches the
// person's app beneath the grant, which earlier walks found and remember:
// app's .git/config is left writable, and the command writes
// core.fsmonitor there.
//
// Should: the person's repository, found and remembered by earlier walks,
// keeps its settings read-only whatever the command's own repository's
// settings name (one repository's mounts should not be able to use up the
// budget of every other).
// Does: the second command writes app/.git/config, and the person's git
// status in app runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA26HooksPathValuesUseUpTheBudget(t *testing.T) {
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
	// Command 1: the grant's root becomes a repository whose settings name
	// 8,300 hooks folders.
	flood := `mkdir -p .git h && echo 'ref: refs/heads/main' > .git/HEAD &&
		awk 'BEGIN { print "[core]"; for (i = 0; i < 8300; i++) printf "\thookspath = h/%d\n", i }' > .git/config &&
		(cd h && awk 'BEGIN { for (i = 0; i < 8300; i++) print i }' | xargs mkdir) && echo flooded`
	out, ok := runIn(t, p, f.granted, flood, nil)
	if !ok || !strings.Contains(out, "flooded") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the flood failed: %.300s", out)
	}
	// Command 2: the person's repository beneath the grant.
	line := "R=" + repo + " S=" + script +
		`; printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config" && echo wrote`
	out, ok = runIn(t, p, f.granted, line, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("after a command's own repository named 8,300 core.hooksPath folders, the next command (succeeded=%v: %.400s) wrote app/.git/config and the person's git status ran its core.fsmonitor unconfined (%.100s)",
			ok, out, person)
	}
}
