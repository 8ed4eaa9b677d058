//go:build linux

package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// a40: .git/sequencer is read-only when it is there at the start
// (TestA39SequencerOptsStrategyRunsUnconfined). A cherry-pick of ONE
// commit that stops at a conflict makes none: only CHERRY_PICK_HEAD. The
// command asked to fix the conflict makes .git/sequencer itself (todo:
// the stopped pick and one more; opts: strategy = x/evil), and the
// person's `git cherry-pick --continue` commits the resolution and goes
// on with the command's todo, running its git-merge-x/evil unconfined.
func TestA40SequencerMadeForSinglePick(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := f.granted
	pickConflictHistory(t, repo)
	b1 := strings.TrimSpace(git(t, repo, "rev-parse", "side~1"))
	c2 := strings.TrimSpace(git(t, repo, "rev-parse", "side"))
	head := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
	cmd := exec.Command("git", "-c", "user.name=p", "-c", "user.email=p@x", "cherry-pick", "side~1")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("the cherry-pick did not stop: %s", out)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "sequencer")); err == nil {
		t.Fatal("a single pick made .git/sequencer: this tests nothing")
	}
	pwned := filepath.Join(f.outside, "pwned")
	line := "mkdir .git/sequencer && printf 'pick " + b1 + " b1\\npick " + c2 + " c2\\n' > .git/sequencer/todo && " +
		"echo " + head + " > .git/sequencer/head && echo " + head + " > .git/sequencer/abort-safety && " +
		"printf '[options]\\n\\tstrategy = x/evil\\n' > .git/sequencer/opts && mkdir -p git-merge-x && " +
		"printf '#!/bin/sh\\ntouch " + pwned + "\\nexit 1\\n' > git-merge-x/evil && chmod +x git-merge-x/evil && echo b > f"
	out, _ := runIn(t, f.commandPolicy(), repo, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	git(t, repo, "add", "f")
	cont := exec.Command("git", "-c", "user.name=p", "-c", "user.email=p@x", "cherry-pick", "--continue")
	cont.Dir = repo
	cont.Env = append(os.Environ(), "GIT_EDITOR=true")
	cout, _ := cont.CombinedOutput()
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("a command made .git/sequencer for the person's stopped single-commit cherry-pick, and the person's git cherry-pick --continue ran its git-merge-x/evil unconfined: %s\n%s", out, cout)
	}
}
