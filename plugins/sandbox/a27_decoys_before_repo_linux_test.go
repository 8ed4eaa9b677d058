package sandbox_test

// Attack (a27, items 3 and 5): the plan covers the repositories earlier
// walks found (the repository memory, oldest first) before those new to
// this walk, and stops at the mount budget (8,192). That keeps a command's
// decoys behind the repositories the person had BEFORE them
// (TestA26RememberedDecoysSortBeforeThePersonsRepository), and puts them
// ahead of every repository the person adds AFTER them. A command makes
// 3,000 small repositories in its grant (a .git folder with a HEAD and a
// config each; well under a second); the next command's launcher finds and
// remembers them, oldest first, for as long as they hold a .git. The person
// then clones or makes a repository in the same grant (~/code/app). Every
// later command's plan spends the budget on the 3,000 remembered decoys
// (the folder, .git, config and hooks of each) before it reaches app, new
// to its walk: app's .git/config is left writable, and the command writes
// core.fsmonitor there. No flood of 40,000 files is needed, and the decoys
// keep working for every repository the person adds there from then on.
//
// Should: the person's repository keeps its settings read-only whatever a
// command left beside it earlier (a command's own repositories should not
// be able to use up the budget ahead of any other repository).
// Does: the command writes app/.git/config, and the person's git status
// in app runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestA27DecoysMadeFirstPushLaterRepositoryPastTheBudget(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker := filepath.Join(f.outside, "ran-unconfined")
	script := filepath.Join(f.granted, "planted.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	// Command 1: 3,000 small repositories.
	decoys := `mkdir z && cd z &&
		awk 'BEGIN { for (i = 0; i < 3000; i++) print "d" i "/.git" }' | xargs mkdir -p &&
		awk 'BEGIN { for (i = 0; i < 3000; i++) { h = "d" i "/.git/HEAD"; c = "d" i "/.git/config";
			print "ref: refs/heads/main" > h; close(h); print "[core]" > c; close(c) } }' && echo made`
	out, ok := runIn(t, p, f.granted, decoys, nil)
	if !ok || !strings.Contains(out, "made") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the decoys were not made: %.300s", out)
	}
	// Command 2: anything; its launcher finds the decoys and remembers them.
	if out, ok := runIn(t, p, f.granted, "true", nil); !ok {
		t.Fatalf("the second command failed: %.300s", out)
	}
	// The person makes (clones) a repository in the grant.
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	// Command 3: the person's new repository.
	line := "R=" + repo + " S=" + script +
		`; printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config" && echo wrote`
	out, ok = runIn(t, p, f.granted, line, nil)
	_, _ = out, ok
	gitOK(repo, "status")
	_, err := os.Stat(marker)
	openWhile(t, err == nil, "a repository made in a grant after a command made thousands there (remembered first) is past the mount budget")
}
