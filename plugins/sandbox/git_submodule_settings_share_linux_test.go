package sandbox_test

// Attack (a29, the submodules' settings budget): a28 gave submodules'
// git folders a settings reader of their own (4 MiB read, 32 MiB gone
// through) so that they cannot use up the repositories' budget, and bounded
// each settings read at 1 MiB. But that reader is one for the whole
// launch: every repository's submodules share it, and the repository the
// grant itself lies in is planned first. A command makes its grant a
// repository (.git with a HEAD) whose .git/modules holds 40 submodule
// folders (a HEAD and a hard-linked config each) whose config includes
// four links to one 256 KiB settings file: each submodule's two settings
// reads (its core.worktree, then its mounts) go through 1 MiB each of
// the cached file, 80 MiB in all, and the 32 MiB bound runs out before
// the person's own repository's submodules are reached. The person's
// submodule app/sub has core.hooksPath .husky/_ (husky, git-ignored)
// in app/.git/modules/sub/config: no longer read, that folder is no
// longer read-only, the command writes its pre-commit, and the person's
// next commit in the submodule runs it unconfined.
//
// Should: a person's repository's submodules' settings are read whatever
// another repository's submodules hold (a share per repository, or the
// repositories' submodules read before a command's own).
// Did, before each repository's submodules got a share of their own
// (moduleMounts): the command wrote app/sub/.husky/_/pre-commit.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA29SubmoduleBudgetUsedUpByGrantsOwnSubmodules(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	git(t, lib, "commit", "-q", "--allow-empty", "-m", "lib")
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub")
	git(t, repo, "commit", "-qm", "sub")
	sub := filepath.Join(repo, "sub")
	git(t, sub, "config", "core.hooksPath", ".husky/_")
	hooks := filepath.Join(sub, ".husky", "_")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hooks, ".gitignore"), []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(hooks, "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntrue\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	plant := "printf '" + script + "\\n' >> " + hook + " && echo wrote"

	if out, _ := runIn(t, p, f.granted, plant, nil); strings.Contains(out, "wrote") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the submodule's hooks folder was writable before any decoy: %.300s", out)
	}
	prep := `set -e; mkdir -p .git/modules inc && echo 'ref: refs/heads/main' > .git/HEAD &&
		awk 'BEGIN { print "[a]"; for (i = 0; i < 65540; i++) print "b=c" }' > inc/big &&
		for i in 1 2 3 4; do ln -s big inc/i$i; printf '[include]\n\tpath = ../../../inc/i%d\n' $i >> inc/cfg; done &&
		for m in $(seq 1 40); do mkdir .git/modules/m$m && ln .git/HEAD .git/modules/m$m/HEAD && ln inc/cfg .git/modules/m$m/config; done &&
		echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	out, ok := runIn(t, p, f.granted, plant, nil)
	if err := os.WriteFile(filepath.Join(sub, "b"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, sub, "add", "b")
	git(t, sub, "commit", "-qm", "second")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a command made its grant a repository with 40 submodule folders each including 1 MiB of one cached file; the launch-wide submodule settings budget ran out before app's submodule, whose core.hooksPath folder was then writable (succeeded=%v: %.300s), and the person's commit in the submodule ran the planted hook unconfined", ok, out)
	}
}
