//go:build linux

package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// a39: a cherry-pick (or revert) of several commits that stopped at a
// conflict keeps what is left to do in .git/sequencer: todo (only pick or
// revert lines are taken, unlike a rebase's), and opts, a file in git's
// config format whose options.strategy names the merge strategy the rest
// of the picks use. git runs a strategy other than ort/recursive as the
// program git-merge-STRATEGY, looked up on PATH, or, when the name holds a
// slash, as a path from the work tree's top folder. The namespace keeps a
// stopped rebase's rebase-merge and rebase-apply read-only
// (TestMountNamespaceKeepsRebaseTodo), not .git/sequencer: a command asked
// to fix the conflict writes `strategy = x/evil` there and a script
// git-merge-x/evil in the work tree, and the person's own
// `git cherry-pick --continue` runs that script unconfined.
func TestA39SequencerOptsStrategyRunsUnconfined(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := f.granted
	pickConflictHistory(t, repo)
	// The person cherry-picks two commits; the first conflicts.
	cmd := exec.Command("git", "-c", "user.name=p", "-c", "user.email=p@x", "cherry-pick", "side~1", "side")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("the cherry-pick did not stop: %s", out)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "sequencer", "todo")); err != nil {
		t.Fatalf("no cherry-pick stopped: %v", err)
	}
	pwned := filepath.Join(f.outside, "pwned")
	// The sandboxed command "resolves the conflict".
	line := "printf '[options]\\n\\tstrategy = x/evil\\n' > .git/sequencer/opts && mkdir -p git-merge-x && " +
		"printf '#!/bin/sh\\ntouch " + pwned + "\\nexit 1\\n' > git-merge-x/evil && chmod +x git-merge-x/evil && echo b > f"
	out, ok := runIn(t, f.commandPolicy(), repo, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	// The person, unconfined, marks the conflict resolved and goes on.
	git(t, repo, "add", "f")
	cont := exec.Command("git", "-c", "user.name=p", "-c", "user.email=p@x", "cherry-pick", "--continue")
	cont.Dir = repo
	cont.Env = append(os.Environ(), "GIT_EDITOR=true")
	cout, _ := cont.CombinedOutput()
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("`%s` (succeeded=%v, output %q) wrote the stopped cherry-pick's .git/sequencer/opts, and the person's git cherry-pick --continue ran the command's git-merge-x/evil unconfined (it made %s outside every grant)\n%s", line, ok, out, pwned, cout)
	}
}
