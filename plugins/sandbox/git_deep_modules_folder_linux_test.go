package sandbox_test

// Attack (a29, the cost of one planned target): every git mount the plan
// keeps goes through mountPlan's add for itself and for each folder
// between the grant and it (ancestorsInside), and add resolves each with
// filepath.EvalSymlinks, which lstats the path one more component at a
// time, each lstat walking the whole path again: cubic in the depth. The
// budgets count mounts, walk entries and settings bytes, never depth. A
// submodule's git folder in .git/modules may lie at any depth (NAME holds
// slashes) and the modules walk counts one entry per folder, so a command
// makes, in a repository x of its grant, one submodule folder 1,800
// folders deep (.git/modules/a/a/.../a/m with a HEAD: 1,802 walk entries
// of the 4,096, a path under PATH_MAX, made by one mkdir -p). Its four
// targets (the folder, config, hooks, config.worktree) each resolve 1,800
// ancestors of up to 1,800 components: billions of path-component
// lookups, and every later command's launcher plans for minutes before
// its program runs.
//
// Should: the launcher's start stays bounded whatever a command leaves
// (bound the depth of what is planned, or resolve each folder once and
// reuse it for the ones beneath).
// Did, before the plan's resolver (each folder resolved once) and the
// modules walk's depth bound (a folder past it read-only whole): the next
// command had not started after 20 seconds.

import (
	"strings"
	"testing"
	"time"
)

func TestA29DeepSubmoduleFolderPlansForMinutes(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `set -e; mkdir -p x/.git && cd x && echo 'ref: refs/heads/main' > .git/HEAD &&
		d=.git/modules/$(printf 'a/%.0s' $(seq 1 1800))m && mkdir -p "$d" && cp .git/HEAD "$d/HEAD" && echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	startLaunch(t, p, f.granted).startsWithin(t, 20*time.Second, "one submodule folder 1,800 folders deep in a repository's .git/modules makes it resolve each of its ancestors component by component")
}
