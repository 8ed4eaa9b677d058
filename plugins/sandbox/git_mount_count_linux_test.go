package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The namespace bounds the git folders it mounts per repository
// (maxModuleEntries: 4,096 entries of .git/modules, 4,096 worktrees of a
// git folder), but not their product: each submodule's git folder gets two
// mounts per entry of its own worktrees folder, and that folder may be a
// link to one shared folder. A command makes 200 submodule folders whose
// worktrees link to one folder of 300 entries: every later command in the
// repository starts with 120,000 mounts planned, past the kernel's
// mount-max (100,000 per namespace), so it runs with a warning of
// thousands of failed mounts; at the bounds' full size (about 1,300
// folders times 4,096 entries, ten million mounts, from one folder of
// 4,096 entries) its start takes minutes and its warning gigabytes. The
// mounts a namespace makes for one repository should stay bounded as a
// whole, whatever the repository holds.
func TestMountNamespaceBoundsGitMountsInAll(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := f.granted
	git(t, repo, "init", "-q")
	modules := filepath.Join(repo, ".git", "modules")
	shared := filepath.Join(repo, ".git", "shared-worktrees")
	for i := range 300 {
		d := filepath.Join(shared, fmt.Sprintf("w%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"commondir", "config.worktree"} {
			if err := os.WriteFile(filepath.Join(d, name), []byte("../..\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 200 {
		m := filepath.Join(modules, fmt.Sprintf("m%d", i))
		if err := os.MkdirAll(filepath.Join(m, "hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(m, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(shared, filepath.Join(m, "worktrees")); err != nil {
			t.Fatal(err)
		}
	}
	p := f.commandPolicy()
	out, ok := runIn(t, p, repo, "echo ran", nil)
	if !ok || strings.Contains(out, "some mounts failed") {
		t.Errorf("a command's start in a repository with 200 submodule folders sharing one worktrees folder of 300 entries: succeeded=%v, %d bytes of output, %d failed mounts: %.300s", ok, len(out), strings.Count(out, "; "), out)
	}
}
