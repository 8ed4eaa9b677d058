//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a40: DisarmNewRepos takes a folder with a new .git file for a new
// repository, and disarms the git folder the file names, whoever's it
// is: a command writes inner/.git = "gitdir: ../.git" (the person's own
// repository, there long before), and when it ends the watcher moves the
// person's settings (any alias, credential helper, git-lfs filter or
// core.hooksPath qualifies) and hooks (a pre-commit secret scanner)
// aside. Held: there they are mount points in the watcher's namespace
// (EBUSY). But the watcher then says, in the command's output, that the
// person's own .git/config and hooks hold what "the command wrote" and
// must be removed "before running git there": the model (or the person)
// is told to delete the person's settings and switch off their hooks.
func TestA40DisarmMovesPersonsSettingsThroughGitFile(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	git(t, f.granted, "config", "alias.st", "status -sb")
	git(t, f.granted, "remote", "add", "origin", "https://example.com/x.git")
	hook := filepath.Join(f.granted, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n# scan for secrets\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := a40Run(t, f, "mkdir inner && echo 'gitdir: ../.git' > inner/.git")
	if strings.Contains(out, filepath.Join(f.granted, ".git", "config")) || strings.Contains(out, filepath.Join(f.granted, ".git", "hooks")) {
		t.Errorf("the watcher's output tells the person to remove their own repository's settings and hooks, which the command never wrote: %s", out)
	}
	if _, err := os.Stat(filepath.Join(f.granted, ".git", "config")); err != nil {
		t.Errorf("the person's own .git/config was moved aside by the watcher (%v): %s", err, out)
	}
	if _, err := os.Stat(hook); err != nil {
		t.Errorf("the person's own pre-commit hook was moved aside by the watcher (%v): %s", err, out)
	}
}
