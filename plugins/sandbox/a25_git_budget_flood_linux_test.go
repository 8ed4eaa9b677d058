package sandbox_test

// Attack (a25, item 2): the git mounts of a command's plan are capped at
// 8,192 in all (maxMounts less the policy's own), and the plan adds the
// repositories in a fixed order: first the one at or above each writable
// grant (gitMounts of the grant), then those found beneath it. A command
// run in a projects grant (~/code, holding the person's ~/code/app) makes
// the grant itself a "repository" (a .git folder with a HEAD) whose
// .git/worktrees holds 4,096 folders with a commondir and a
// config.worktree each: 12,000 small files, made in well under a second.
// Every later command's plan spends the whole budget on those 8,192
// files before it reaches ~/code/app, so app's .git/config and hooks are
// no longer mounted read-only, and a later command writes core.fsmonitor
// into app/.git/config. Only a note in the command's output (read by the
// model) says repositories were left out.
//
// Should: the person's repository beneath the grant stays protected
// whatever the command adds beside it (a command's own folders must not
// be able to use up the budget ahead of the person's repositories), and
// the person's `git status` in app runs nothing of the command's.
// Does: the second command writes app/.git/config, and the person's git
// status runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestA25GitBudgetUsedUpByCommandsOwnWorktrees(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := filepath.Join(f.granted, "app")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()

	// Command 1: the flood, in the grant's root.
	flood := `mkdir -p .git/worktrees && echo 'ref: refs/heads/main' > .git/HEAD && cd .git/worktrees &&
		i=0; while [ $i -lt 4096 ]; do mkdir w$i && : > w$i/commondir && : > w$i/config.worktree; i=$((i+1)); done; echo flooded`
	out, ok := runIn(t, p, f.granted, flood, nil)
	if !ok || !strings.Contains(out, "flooded") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the flood failed: %.300s", out)
	}
	// Command 2: the person's repository beneath the grant.
	line := "export HOME=" + f.temp + " R=" + repo + " S=" + script +
		`; printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config" && echo wrote`
	out, ok = runIn(t, p, f.granted, line, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("after a command filled the grant's own .git/worktrees, the next command (succeeded=%v: %.400s) wrote app/.git/config and the person's git status ran its core.fsmonitor unconfined (%.100s)",
			ok, out, person)
	}
}
