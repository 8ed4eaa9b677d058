package sandbox_test

// Attack (a28, item 2: the settings budget): the launcher reads at most
// 16 MiB of git settings a launch, and the repositories the grants and the
// working folder lie in come first. A command makes its grant itself a
// repository (a .git folder in the grant, which no later walk even counts
// as "beneath" it) whose .git/config, and the config of one submodule
// folder in its .git/modules, each include 64 links to one file of
// 256 KiB of valid settings (each file counts by its path): 256 KiB on
// disk, 32 MiB to read, all before any repository beneath the grant.
// Every later launcher in that grant runs out of its budget on it, and
// reads nothing more: not even the person's
// own app/.git/config, so app's core.hooksPath (husky's git-ignored
// .husky/_, the folder git runs hooks from) is no longer read-only. The
// next command adds a line to .husky/_/pre-commit, and the person's next
// `git commit` in app runs it unconfined, with nothing in `git status` to
// show it. The output carries a note ("more than 16 MiB of git
// settings"), but it names no repository and the command that sees it is
// the attacker's.
//
// Should: the person's repositories' own settings (core.hooksPath and
// includes) stay protected whatever a command's own repository includes:
// a budget a command can use up on its own files must not come before
// them (read the person's settings first, or bound each repository's
// share).
// Does: the command writes app/.husky/_/pre-commit, and the person's
// commit runs it outside the sandbox.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA28SettingsBudgetUsedUpByGrantsOwnRepository(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	hooks := filepath.Join(repo, ".husky", "_")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "config", "core.hooksPath", ".husky/_")
	if err := os.WriteFile(filepath.Join(hooks, ".gitignore"), []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(hooks, "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntrue\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "a")
	git(t, repo, "commit", "-qm", "first")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '" + script + "\\n' >> " + hook + " && echo wrote"

	// Before: the hooks folder is read-only to a command.
	if out, _ := runIn(t, p, f.granted, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the husky hooks folder was writable before any decoy: %.300s", out)
	}
	// A command makes its grant a repository whose settings use up the budget.
	prep := `set -e; mkdir -p .git inc && echo 'ref: refs/heads/main' > .git/HEAD &&
		awk 'BEGIN { print "[a]"; for (i = 0; i < 65540; i++) print "b=c" }' > inc/big &&
		mkdir -p .git/modules/m && cp .git/HEAD .git/modules/m/HEAD &&
		for i in $(seq 1 64); do ln -s big inc/i$i; ln -s big inc/j$i; printf '[include]\n\tpath = ../inc/i%d\n' $i >> .git/config;
			printf '[include]\n\tpath = ../../../inc/j%d\n' $i >> .git/modules/m/config; done && echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	out, ok := runIn(t, p, f.granted, plant, nil)
	if err := os.WriteFile(filepath.Join(repo, "b"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "b")
	git(t, repo, "commit", "-qm", "second")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a command made its grant a repository including 128 links to one 256 KiB file; the next launcher's 16 MiB settings budget ran out before app's own config, so app's core.hooksPath folder was writable (succeeded=%v: %.300s), and the person's git commit ran the planted hook unconfined", ok, out)
	}
}
