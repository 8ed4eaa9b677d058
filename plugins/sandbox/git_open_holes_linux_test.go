package sandbox_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Two ways past the git protections that stay open (a24's attack round),
// kept as tests that skip while the hole is there and fail once it is
// closed, so that the note in docs/plugins.md goes with it.

// A repository the command makes itself is the command's: its settings
// are not protected. Added to the outer repository's index as a gitlink,
// it becomes one that the person's `git status` in the outer repository
// enters, running its core.fsmonitor unconfined.
func TestMountNamespaceNestedRepositoryAddedByCommand(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	git(t, f.granted, "init", "-q")
	git(t, f.granted, "commit", "-q", "--allow-empty", "-m", "first")
	marker := filepath.Join(f.outside, "ran-unconfined")
	script := filepath.Join(f.granted, "planted.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	g := "git -c user.name=c -c user.email=c@x"
	line := "export HOME=" + f.temp + "; " + g + " init -q inner && " + g + " -C inner commit -q --allow-empty -m x && " +
		g + " -C inner config core.fsmonitor " + script + " && " + g + " add inner"
	out, ok := runIn(t, p, f.granted, line, nil)
	if !ok {
		t.Fatalf("the command could not make its repository: %s", out)
	}
	gitOK(f.granted, "status")
	_, err := os.Stat(marker)
	openWhile(t, err == nil, "a repository a sandboxed command makes and adds to the outer repository's index runs its core.fsmonitor in the person's `git status`")
}

// The search for repositories beneath a grant reads at most 40,000
// entries: a command that makes that many files in the grant's root keeps
// every later command from finding the repositories beneath, whose
// settings it may then change.
func TestMountNamespaceWalkRunOutByCommand(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	for i := range 40001 {
		if err := os.WriteFile(filepath.Join(f.granted, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	out, _ := runIn(t, p, f.granted, "HOME="+f.temp+" git -C app config core.fsmonitor /bin/true", nil)
	b, err := os.ReadFile(filepath.Join(repo, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "stopped after") {
		t.Errorf("the command's output does not say the search stopped: %s", out)
	}
	openWhile(t, strings.Contains(string(b), "fsmonitor"), "a grant of more than 40,000 entries, which a command can make, keeps later commands from protecting the repositories beneath it")
}
