package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Ways past the git protections found in a24's attack round: the one
// still open is kept as a test that skips while the hole is there and
// fails once it is closed, so that the note in docs/plugins.md goes with
// it.

// A repository the command makes itself is the command's: its settings
// are not mounted read-only. Added to the outer repository's index as a
// gitlink, it became one that the person's `git status` in the outer
// repository entered, running its core.fsmonitor unconfined. The watcher
// now moves such settings aside once the command ends (DisarmNewRepos).
func TestMountNamespaceNestedRepositoryAddedByCommand(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	git(t, f.granted, "init", "-q")
	git(t, f.granted, "commit", "-q", "--allow-empty", "-m", "first")
	marker, script := plantScript(t, f)
	p := f.commandPolicy()
	g := "git -c user.name=c -c user.email=c@x"
	line := "export HOME=" + f.temp + "; " + g + " init -q inner && " + g + " -C inner commit -q --allow-empty -m x && " +
		g + " -C inner config core.fsmonitor " + script + " && " + g + " add inner"
	out, ok := runIn(t, p, f.granted, line, nil)
	if !ok {
		t.Fatalf("the command could not make its repository: %s", out)
	}
	if !strings.Contains(out, "in a repository the command made") || !strings.Contains(out, "core.fsmonitor") {
		t.Errorf("the command's output does not say what was moved from the repository it made: %s", out)
	}
	gitOK(f.granted, "status")
	gitOK(filepath.Join(f.granted, "inner"), "status")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a repository a sandboxed command made and added to the outer repository's index ran its core.fsmonitor in the person's git status: %s", out)
	}
}

// The search for repositories beneath a grant reads at most 40,000
// entries: a command that makes that many files in the grant's root would
// keep every later command from finding the repositories beneath, whose
// settings it could then change. What earlier commands' searches found is
// remembered (Protected.RepoMemory) and protected too. A repository made
// after the flood, which no search reached, stays open.
func TestMountNamespaceWalkRunOutByCommand(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := newRepo(t, filepath.Join(f.granted, "app"))
	p := f.commandPolicy()
	if out, ok := runIn(t, p, f.granted, "true", nil); !ok {
		t.Fatalf("the first command failed: %s", out)
	}
	// What that command could have done (made here, faster).
	for i := range 40001 {
		if err := os.WriteFile(filepath.Join(f.granted, "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	late := newRepo(t, filepath.Join(f.granted, "late"))
	setting := "HOME=" + f.temp + " git -C %s config core.fsmonitor /bin/true"
	out, _ := runIn(t, p, f.granted, fmt.Sprintf(setting, "app")+"; "+fmt.Sprintf(setting, "late"), nil)
	if !strings.Contains(out, "stopped after") {
		t.Errorf("the command's output does not say the search stopped: %s", out)
	}
	if b, err := os.ReadFile(filepath.Join(repo, ".git", "config")); err != nil || strings.Contains(string(b), "fsmonitor") {
		t.Errorf("a command wrote the settings of a repository an earlier command's search had found, past a search it made run out (%v): %s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(late, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	openWhile(t, strings.Contains(string(b), "fsmonitor"), "a repository made in a grant after a command filled it past the search's 40,000 entries is not protected")
}
