package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An interactive rebase that stopped (an `edit`, a conflict) keeps what is
// left to do in .git/rebase-merge/git-rebase-todo, and an `exec` line there
// is a shell command git runs. The namespace protects .git's config and
// hooks, not this file: a command asked to fix the stopped commit adds an
// exec line, and the person's `git rebase --continue` runs it unconfined.
func TestMountNamespaceKeepsRebaseTodo(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := f.granted
	git(t, repo, "init", "-q")
	for _, n := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(repo, n), []byte(n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, repo, "add", n)
		git(t, repo, "commit", "-qm", n)
	}
	// The person starts an interactive rebase that stops at the second commit.
	cmd := exec.Command("git", "-c", "user.name=p", "-c", "user.email=p@x", "rebase", "-i", "HEAD~2")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GIT_SEQUENCE_EDITOR=sed -i 1s/^pick/edit/")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git rebase -i: %v: %s", err, out)
	}
	todo := filepath.Join(repo, ".git", "rebase-merge", "git-rebase-todo")
	if _, err := os.Stat(todo); err != nil {
		t.Fatalf("no rebase stopped: %v", err)
	}
	pwned := filepath.Join(f.outside, "pwned")
	p := f.commandPolicy()
	line := "echo 'exec touch " + pwned + "' >> .git/rebase-merge/git-rebase-todo"
	out, ok := runIn(t, p, repo, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	git(t, repo, "rebase", "--continue") // the person, unconfined
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("`%s` (succeeded=%v) added an exec line to the stopped rebase, and the person's git rebase --continue ran it unconfined", line, ok)
	}
}
