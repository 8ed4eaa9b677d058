//go:build linux

package sandbox_test

import (
	"path/filepath"
	"testing"
)

// a40: repoMounts protects a repository the walk (or the memory of
// earlier walks) found either as a bare one, when the folder itself has
// HEAD, objects and refs, or by its .git, not both. A command makes the
// person's project folder look bare (three work-tree names: HEAD,
// objects/, refs/); every later command's start then mounts app/config
// and app/hooks, which protect nothing, and leaves app/.git/config open.
// The next command sets core.fsmonitor there; the person's git status
// runs it.
func TestA40BareLookingWorkTreeShadowsItsGit(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	app := newRepo(t, filepath.Join(f.granted, "app"))
	git(t, app, "commit", "-q", "--allow-empty", "-m", "x")
	marker, script := plantScript(t, f)
	out1 := a40Run(t, f, "mkdir app/objects app/refs && echo 'ref: refs/heads/main' > app/HEAD")
	out2, _ := runIn(t, f.commandPolicy(), f.granted, "export HOME="+f.temp+"; git -C app config core.fsmonitor "+script, nil)
	gitOK(app, "status")
	if a40Ran(marker) {
		t.Errorf("a command wrote the settings of the person's repository after an earlier one made its work tree look like a bare repository: %s\n%s", out1, out2)
	}
}
