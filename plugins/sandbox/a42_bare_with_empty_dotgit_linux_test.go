//go:build attack && linux

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
// core.bare = false with core.worktree = . makes it a work tree, so
// `git status` there runs its core.fsmonitor. DisarmNewRepos looks only
// at what gitDirOf names, the .git (empty: nothing to move), never at
// the folder's own config, which holds core.worktree and core.fsmonitor.
// The person changes into the folder and runs git status (or a prompt
// showing it does): the command's program runs unconfined.
func TestA42BareFolderBehindEmptyDotGit(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	marker, script := plantScript(t, f)
	out := a40Run(t, f, a40g+` init -q --bare inner && `+a40g+` -C inner config core.bare false && `+a40g+` -C inner config core.worktree . && `+
		a40g+` -C inner config core.fsmonitor `+script+` && mkdir inner/.git && cd inner && `+a40g+` rev-parse --git-dir --show-toplevel`)
	if strings.Contains(out, "moved") {
		t.Logf("the watcher moved something: %s", out)
	}
	got := gitOK(filepath.Join(f.granted, "inner"), "status")
	if a40Ran(marker) {
		t.Errorf("the folder the command made (an empty .git beside its own HEAD, objects, refs and config) kept its core.worktree and core.fsmonitor, which the person's git status there ran unconfined: command: %s\nperson's git: %s", out, got)
	}
}
