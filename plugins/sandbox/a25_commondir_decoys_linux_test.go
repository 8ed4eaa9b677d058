package sandbox_test

// Attack (a25, item 3): moveAside renames a commondir that a command puts
// into a main git folder to the first free name of
// commondir.moved-by-wrasse, .1, … but tries only maxMoveNames (100)
// names. A command first makes all 100 of them (empty files, 100 inodes),
// then writes .git/commondir naming a folder of its own whose config sets
// core.fsmonitor. Every rename fails with EEXIST, so both the command's
// watcher and the next command's launcher leave the commondir in place
// and only print "could not be moved away" into the command's output
// (which the model reads, not the person).
//
// Should: the commondir is gone from .git (moved, or removed) by the time
// the command ends, and the person's `git status` runs nothing of the
// command's.
// Does: the commondir stays; the person's git status follows it and runs
// the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestA25CommondirKeptByHundredDecoyNames(t *testing.T) {
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
	line := "export HOME=" + f.temp + " R=" + repo + " S=" + script + `
		touch "$R/.git/commondir` + sandbox.MovedSuffix + `"
		i=1; while [ $i -lt 100 ]; do touch "$R/.git/commondir` + sandbox.MovedSuffix + `.$i"; i=$((i+1)); done
		mkdir -p ev/objects ev/refs && printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ev/config
		echo "$PWD/ev" > "$R/.git/commondir"`
	out, ok := runIn(t, p, f.granted, line, nil)
	if strings.Contains(out, "no mount namespace") {
		t.Fatalf("the sandbox ran without its mount namespace: %s", out)
	}
	// The next command's start looks again.
	out2, _ := runIn(t, p, f.granted, "true", nil)
	planted := filepath.Join(repo, ".git", "commondir")
	if _, err := os.Lstat(planted); err == nil {
		t.Errorf("the command's commondir is still in the main git folder after the command and the next one's start (succeeded=%v): %.400s | next: %.300s", ok, out, out2)
	}
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the person's git status ran the command's core.fsmonitor unconfined through the kept commondir (%.200s)", person)
	}
}
