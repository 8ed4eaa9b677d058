package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The mounts over a submodule's git folder and the folders pinned above
// a repository leave git's own work alone: a commit in a submodule, the
// superproject's commit of it, status, and a file moved into the
// repository from beside it (another mount now: mv copies it), a new
// worktree beside an existing one (whose commondir is mounted).
func TestMountNamespaceKeepsSubmoduleWork(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	repo := filepath.Join(f.granted, "repo")
	sub := filepath.Join(f.granted, "subsrc")
	for _, d := range []string{repo, sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		git(t, d, "init", "-q")
		git(t, d, "commit", "-q", "--allow-empty", "-m", "first")
	}
	git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
	git(t, repo, "commit", "-qm", "submodule")
	git(t, repo, "worktree", "add", "-q", filepath.Join(f.granted, "wt"))
	if err := os.WriteFile(filepath.Join(f.granted, "beside.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := f.commandPolicy()
	line := "export HOME=" + f.temp + " GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b; set -e; " +
		"git -C sub commit -q --allow-empty -m inner && git add sub && git commit -qm bump && " +
		"mv ../beside.txt . && git add beside.txt && git commit -qm beside && git status --short && git submodule status && " +
		"git worktree add -q ../wt2 && git -C ../wt2 status --short"
	out, ok := runIn(t, p, repo, line, nil)
	if !ok || strings.Contains(out, "no mount namespace") || strings.Contains(out, "warning") {
		t.Fatalf("`%s`: succeeded=%v: %s", line, ok, out)
	}
	if n := strings.Count(git(t, repo, "log", "--oneline"), "\n"); n != 4 {
		t.Errorf("the repository has %d commits, want 4", n)
	}
}
