package sandbox_test

// Attack (a27, item 3): the repository memory (one file for the whole
// workspace, whatever a command's grants) now keeps the 4,096 repositories
// found FIRST and adds nothing once it holds that many; a remembered path
// goes only when it no longer holds a .git. A command granted some other
// folder (a scratch folder, an MCP server's data folder) makes 4,100 tiny
// repositories there (a folder holding a .git file each, which stay); the
// next launcher with that grant fills the memory with them. From then on
// no repository found anywhere is remembered again. The person then makes
// or clones ~/code/app; the walks of commands in ~/code find it (and
// protect it) but cannot remember it. A command in ~/code fills it with
// 40,001 files (the attack the memory is there for:
// TestMountNamespaceWalkRunOutByCommand, whose open part is a repository
// made AFTER the flood; app was there before it and found by earlier
// walks): the next command's walk stops before app, the memory does not
// hold it, and that command writes core.fsmonitor into app/.git/config.
//
// Should: a repository earlier walks found stays remembered and protected
// after a flood, whatever another grant's command made first ("What
// earlier commands' walks found is remembered").
// Does: the last command writes app/.git/config, and the person's git
// status runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestA27RepoMemoryFullRemembersNoLaterRepository(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	scratch := filepath.Join(filepath.Dir(f.granted), "scratch")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(f.outside, "ran-unconfined")
	script := filepath.Join(f.granted, "planted.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	pCode := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	pScratch := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{scratch}, Protected: f.protected(), Temp: f.temp})
	// A command granted only the scratch folder: 4,100 tiny repositories.
	decoys := `awk 'BEGIN { for (i = 0; i < 4100; i++) print "d" i }' | xargs mkdir &&
		awk 'BEGIN { for (i = 0; i < 4100; i++) { g = "d" i "/.git"; print "x" > g; close(g) } }' && echo made`
	out, ok := runIn(t, pScratch, scratch, decoys, nil)
	if !ok || !strings.Contains(out, "made") {
		t.Fatalf("the decoys were not made: %.300s", out)
	}
	// The next command there: its launcher fills the memory.
	if out, ok := runIn(t, pScratch, scratch, "true", nil); !ok {
		t.Fatalf("the command in scratch failed: %.300s", out)
	}
	// The person makes a repository in their projects; commands there find it.
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	if out, ok := runIn(t, pCode, f.granted, "true", nil); !ok {
		t.Fatalf("the first command in the projects failed: %s", out)
	}
	// A command in the projects fills them past the walk's 40,000 entries.
	flood := `awk 'BEGIN { for (i = 0; i < 40001; i++) { g = "f" i; printf "" > g; close(g) } }' && echo flooded`
	if out, ok := runIn(t, pCode, f.granted, flood, nil); !ok || !strings.Contains(out, "flooded") {
		t.Fatalf("the flood failed: %.300s", out)
	}
	// The next one plants core.fsmonitor in app.
	line := "R=" + repo + " S=" + script +
		`; printf '[core]\n\tfsmonitor = %s\n' "$S" >> "$R/.git/config" && echo wrote`
	out, ok = runIn(t, pCode, f.granted, line, nil)
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		b, _ := os.ReadFile(f.protected().RepoMemory)
		t.Errorf("once a command granted another folder filled the repository memory with 4,100 repositories, app, found by earlier walks, was never remembered (memory holds it: %v); after a flood a command in the projects (succeeded=%v: %.300s) wrote app/.git/config and the person's git status ran its core.fsmonitor unconfined (%.100s)",
			strings.Contains(string(b), repo+"\n"), ok, out, person)
	}
}
