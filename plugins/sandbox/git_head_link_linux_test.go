package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The namespace takes a .git folder for a repository only when its HEAD
// is a regular file (isGitDir); git also takes a HEAD that is a link into
// refs/ (core.preferSymlinkRefs, older gits). HEAD is no mount, so one
// command replaces it with such a link: git keeps working, and the next
// command's namespace sees no repository there, mounts nothing, and that
// command writes a hook the person's next commit runs unconfined.
func TestMountNamespaceKeepsRepositoryWithLinkedHead(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := f.granted
	git(t, repo, "init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "a")
	git(t, repo, "commit", "-qm", "first")
	pwned := filepath.Join(f.outside, "pwned")
	p := f.commandPolicy()
	steps := []string{
		"ln -s refs/heads/main .git/HEAD.new && mv .git/HEAD.new .git/HEAD",
		"printf '#!/bin/sh\\ntouch " + pwned + "\\n' > .git/hooks/post-commit && chmod +x .git/hooks/post-commit",
	}
	var outs []string
	for _, line := range steps {
		out, ok := runIn(t, p, repo, line, nil)
		if strings.Contains(out, "no mount namespace") {
			t.Fatalf("the sandbox ran without its mount namespace: %s", out)
		}
		outs = append(outs, line+": "+map[bool]string{true: "succeeded", false: "failed"}[ok]+" "+out)
	}
	if err := os.WriteFile(filepath.Join(repo, "b"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "b")
	git(t, repo, "commit", "-qm", "second") // the person, unconfined
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("after a command made .git/HEAD a link, a later command's hook ran on the person's commit:\n%s", strings.Join(outs, "\n"))
	}
}

// The same for a submodule's git folder (.git/modules/NAME, whose HEAD is
// no mount either): with its HEAD a link, the next command's namespace
// leaves the submodule's config writable, and core.fsmonitor written there
// runs on the person's next git status in the superproject, which looks
// into each submodule.
func TestMountNamespaceKeepsSubmoduleWithLinkedHead(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	lib := newRepo(t, filepath.Join(f.outside, "lib"))
	if err := os.WriteFile(filepath.Join(lib, "l"), []byte("l\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, lib, "add", "l")
	git(t, lib, "commit", "-qm", "lib")
	repo := f.granted
	git(t, repo, "init", "-q")
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub")
	git(t, repo, "commit", "-qm", "with sub")
	pwned := filepath.Join(f.outside, "pwned")
	p := f.commandPolicy()
	module := ".git/modules/sub"
	steps := []string{
		"ln -s \"$(sed 's/^ref: //' " + module + "/HEAD)\" " + module + "/HEAD.new && mv " + module + "/HEAD.new " + module + "/HEAD",
		"printf '[core]\\n\\tfsmonitor = touch " + pwned + "; false\\n' >> " + module + "/config",
	}
	var outs []string
	for _, line := range steps {
		out, ok := runIn(t, p, repo, line, nil)
		if strings.Contains(out, "no mount namespace") {
			t.Fatalf("the sandbox ran without its mount namespace: %s", out)
		}
		outs = append(outs, line+": "+map[bool]string{true: "succeeded", false: "failed"}[ok]+" "+out)
	}
	git(t, repo, "status", "--short") // the person, unconfined
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("after a command made %s/HEAD a link, what a later command wrote in its config ran on the person's git status:\n%s", module, strings.Join(outs, "\n"))
	}
}
