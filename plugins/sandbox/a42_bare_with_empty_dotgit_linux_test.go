//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// a42: a folder holding a .git that is no git folder (an empty one) and
// is itself a git folder (HEAD, objects, refs, config): git's discovery
// tries .git, finds no repository there, and takes the folder itself
// (setup_git_directory_gently: is_git_directory(".") after ".git");
// core.bare = false with core.worktree makes it a work tree, so `git
// status` there runs its core.fsmonitor. DisarmNewRepos looks only at
// what gitDirOf names, the .git (empty: nothing to move), never at the
// folder's own config, which holds core.worktree and core.fsmonitor.
//
// Made as a folder of its own (inner), the person must change into it.
// Made in a subfolder of the person's own repository (app/src, with
// core.worktree = .. naming app), the person's everyday `git status` in
// app/src runs it: git stops at src before it reaches app/.git.
func TestA42BareFolderBehindEmptyDotGit(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct{ name, dir, worktree string }{
		{"a new folder of its own", "inner", "."},
		{"a subfolder of the person's repository", "app/src", ".."},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			appWithSrc(t, f)
			marker, script := plantScript(t, f)
			out := a40Run(t, f, `mkdir -p `+c.dir+` && cd `+c.dir+` && `+a40g+` init -q --bare . && `+a40g+` config core.bare false && `+a40g+` config core.worktree `+c.worktree+` && `+
				a40g+` config core.fsmonitor `+script+` && mkdir .git && `+a40g+` rev-parse --git-dir --show-toplevel`)
			if strings.Contains(out, "moved") {
				t.Logf("the watcher moved something: %s", out)
			}
			got := gitOK(filepath.Join(f.granted, c.dir), "status")
			if a40Ran(marker) {
				t.Errorf("%s: the git folder the command made at %s (an empty .git beside its own HEAD, objects, refs and config) kept its core.worktree and core.fsmonitor, which the person's git status there ran unconfined: command: %s\nperson's git: %s", c.name, c.dir, out, got)
			}
		})
	}
}
