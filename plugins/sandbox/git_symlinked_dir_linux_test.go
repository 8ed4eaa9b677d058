package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A checkout whose .git is a link to the repository's folder elsewhere
// (Android's repo tool makes each project's .git a link into
// .repo/projects/NAME.git; people move .git out of a synced folder the same
// way) is a repository to git. The namespace looks for a .git folder or
// file and takes a link for neither, so such a repository's config and
// hooks stay writable: a hook a command adds runs on the person's next
// commit, unconfined.
func TestMountNamespaceKeepsLinkedGitDir(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	work := filepath.Join(f.granted, "project")
	store := filepath.Join(f.granted, ".repo", "projects", "project.git")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, work, "init", "-q")
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(work, ".git"), store); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(store, filepath.Join(work, ".git")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "add", "a")
	git(t, work, "commit", "-qm", "first")

	pwned := filepath.Join(f.outside, "pwned")
	p := f.commandPolicy()
	for _, line := range []string{
		"printf '#!/bin/sh\\ntouch " + pwned + "\\n' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit",
		"printf '[core]\\n\\tfsmonitor = touch " + pwned + "; false\\n' >> .git/config",
	} {
		out, ok := runIn(t, p, work, line, nil)
		if strings.Contains(out, "no mount namespace") {
			t.Fatalf("the sandbox ran without its mount namespace: %s", out)
		}
		if ok {
			t.Errorf("`%s` succeeded in a checkout whose .git is a link", line)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "b"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "add", "b")
	git(t, work, "commit", "-qm", "second") // the person, unconfined
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("the person's git commit ran what a command put in the linked .git")
	}
}

// The .git link itself is pinned: a command that removes it and puts a
// repository of its own (with core.fsmonitor set) in its place would have
// the person's next git in the checkout run that.
func TestMountNamespaceKeepsGitLinkInPlace(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	work := newRepo(t, filepath.Join(f.granted, "project"))
	store := filepath.Join(f.granted, ".repo", "projects", "project.git")
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(work, ".git"), store); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(store, filepath.Join(work, ".git")); err != nil {
		t.Fatal(err)
	}
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	line := "export HOME=" + f.temp + "; cp -a " + store + " own.git && git --git-dir=own.git config core.fsmonitor " + script +
		" && { rm .git || mv .git .git-old; } && ln -s $PWD/own.git .git && echo replaced"
	out, _ := runIn(t, p, work, line, nil)
	if fi, err := os.Lstat(filepath.Join(work, ".git")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the .git link is gone (%v): %s", err, out)
	}
	if got, _ := os.Readlink(filepath.Join(work, ".git")); got != store {
		t.Errorf("a command replaced the .git link (now to %s): %s", got, out)
	}
	gitOK(work, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the person's git status ran the fsmonitor of the repository a command put in place of the .git link: %s", out)
	}
}
