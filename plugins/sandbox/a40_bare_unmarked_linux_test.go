//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// a40: a bare repository is one by its HEAD, objects and refs
// (isBareRepo), at the walk, in the memory of earlier walks (holdsRepo)
// and at the start. One command takes a sign away (moves refs aside, or
// HEAD): the next command's start sees no repository there, neither by
// its walk nor by its memory, and writes its hooks; then it puts the sign
// back, and the person's git push to the mirror runs the hook
// unconfined. (.git/modules learned this already: looksLikeGitDir.)
func TestA40BareRepositoryUnmarkedByOneCommand(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct{ name, hide, show string }{
		{"refs moved aside", "mv mirror.git/refs mirror.git/refs.x", "mv mirror.git/refs.x mirror.git/refs"},
		{"HEAD moved aside", "mv mirror.git/HEAD mirror.git/HEAD.x", "mv mirror.git/HEAD.x mirror.git/HEAD"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			bare := filepath.Join(f.granted, "mirror.git")
			git(t, f.granted, "init", "-q", "--bare", bare)
			work := filepath.Join(f.outside, "work")
			git(t, f.outside, "init", "-q", work)
			git(t, work, "commit", "-q", "--allow-empty", "-m", "a")
			git(t, work, "remote", "add", "mirror", bare)
			git(t, work, "push", "-q", "mirror", "main")
			marker, script := plantScript(t, f)
			out1 := a40Run(t, f, c.hide)
			out2, _ := runIn(t, f.commandPolicy(), f.granted, "cp "+script+" mirror.git/hooks/post-receive; "+c.show, nil)
			if _, err := os.Stat(filepath.Join(bare, "refs")); err != nil {
				t.Fatalf("the mirror was not put back (%v): %s", err, out2)
			}
			git(t, work, "commit", "-q", "--allow-empty", "-m", "b")
			got := gitOK(work, "push", "-q", "mirror", "main")
			if a40Ran(marker) {
				t.Errorf("%s: the person's git push to their mirror ran a hook a command wrote after an earlier command unmarked it: first: %s\nsecond: %s\nperson: %s", c.name, out1, out2, got)
			}
			if strings.Contains(out2, "Read-only") {
				t.Logf("second command: %s", out2)
			}
		})
	}
}
