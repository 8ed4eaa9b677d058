package sandbox_test

// Attack (a26, item 2: a needed mount made somewhere else): a person who
// keeps the repository's hooks in a tracked folder links them in
// (`rm -r .git/hooks && ln -s ../githooks .git/hooks`, a common setup
// before core.hooksPath). The plan mounts what the name leads to (add
// resolves links: githooks is read-only), but not the link: .git is pinned
// read-write (git writes its index and objects there), so the command
// removes the link .git/hooks, makes a folder of that name and puts a
// pre-commit hook in it. Nothing in the mount namespace refuses it, and
// the person's next `git commit` runs the hook unconfined.
//
// Should: .git/hooks keeps leading where it led (the entry itself is
// kept: a read-only .git/hooks whatever it is, or the link refused), and
// the person's commit runs nothing of the command's.
// Does: the command replaces the link with its own hooks folder, and the
// person's commit runs its pre-commit hook.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA26HooksLinkReplacedByFolder(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	if err := os.RemoveAll(filepath.Join(repo, ".git", "hooks")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, "githooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../githooks", filepath.Join(repo, ".git", "hooks")); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	marker := filepath.Join(f.outside, "ran-unconfined")
	p := f.commandPolicy()
	line := "cd app && rm .git/hooks && mkdir .git/hooks && printf '#!/bin/sh\\ntouch " + marker + "\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && echo planted"
	out, ok := runIn(t, p, f.granted, line, nil)
	person := gitOK(repo, "commit", "-q", "--allow-empty", "-m", "second")
	if _, err := os.Stat(marker); err == nil || strings.Contains(out, "planted") {
		t.Errorf("the command (succeeded=%v: %.300s) replaced the repository's .git/hooks link with a folder of its own; the person's commit ran its pre-commit hook: %v (%.100s)", ok, out, err == nil, person)
	}
}
