package sandbox_test

// Attack (a25, item 3): a repository made with `git init/clone
// --separate-git-dir` has a .git *file* naming its main git folder
// (here both in the grant: ~/code/app/.git -> ~/code/gitdirs/app.git).
// The command leaves a process behind that, after the watcher's last
// look, writes gitdirs/app.git/commondir naming a folder of the command's
// whose config sets core.fsmonitor. The docs promise such a commondir
// "stays until the next sandboxed command starts and moves it". But the
// next launcher's plan reads the .git file, finds the commondir in the
// folder it names and takes that folder for a linked worktree's
// (worktreeDirs: gitDir != common), so the folder is no longer counted
// among the main git folders (gitDirs) and MoveCommondirs never looks
// there: neither that command's start nor its watcher moves it, ever.
//
// Should: the next command's start moves the commondir away, and the
// person's `git status` in app runs nothing of the command's.
// Does: the commondir stays through any number of later commands; the
// person's git status runs the planted core.fsmonitor unconfined.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestA25CommondirInSeparateGitDirNeverMoved(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := filepath.Join(f.granted, "app")
	gitdir := filepath.Join(f.granted, "gitdirs", "app.git")
	if err := os.MkdirAll(filepath.Dir(gitdir), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, f.granted, "init", "-q", "--separate-git-dir="+gitdir, repo)
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	// The command ends at once; what it leaves behind writes the
	// commondir a second later, after the watcher's last look.
	line := "export HOME=" + f.temp + " G=" + gitdir + " S=" + script + `
		mkdir -p ev/objects ev/refs && echo 'ref: refs/heads/main' > ev/HEAD &&
		printf '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = %s\n' "$S" > ev/config &&
		( sleep 1; echo "$PWD/ev" > "$G/commondir" ) </dev/null >/dev/null 2>&1 &
		echo started`
	out, ok := runIn(t, p, f.granted, line, nil)
	if !ok || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the command failed or ran without its mount namespace: %s", out)
	}
	planted := filepath.Join(gitdir, "commondir")
	for i := 0; i < 50; i++ {
		if _, err := os.Lstat(planted); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Lstat(planted); err != nil {
		t.Fatalf("the leftover process did not write the commondir: %v (%s)", err, out)
	}
	// The next commands start: each should move it away. The first then
	// writes the separate git folder's own settings, which its plan
	// (made while the commondir was there) must keep read-only too.
	next, _ := runIn(t, p, f.granted, "HOME="+f.temp+" git --git-dir="+gitdir+" config core.fsmonitor "+script, nil)
	if b, _ := os.ReadFile(filepath.Join(gitdir, "config")); strings.Contains(string(b), "fsmonitor") {
		t.Errorf("the command that started with the commondir there wrote the separate git folder's settings: %s", next)
	}
	next, _ = runIn(t, p, f.granted, "true", nil)
	if _, err := os.Lstat(planted); err == nil {
		t.Errorf("the commondir in the separate git folder %s is still there after two more commands started (their output: %q)", gitdir, next)
	}
	person := gitOK(repo, "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the person's git status in app ran the command's core.fsmonitor unconfined (%.200s)", person)
	}
}
