//go:build linux

package sandbox_test

import (
	"strings"
	"testing"
)

// a41: DisarmNewRepos skips any new repository whose git folder lies in
// the git folder of a repository there at the start (knownGitDir.holds:
// for a .git folder, anything within it), taking it for the person's,
// "protected by mounts". But only what existed at the start is mounted
// (moduleMounts walks the modules there then): the command makes a new
// git folder inside the person's writable .git (.git/modules/evil, or
// any .git/x), points a new inner/.git file at it, sets core.fsmonitor,
// and adds inner to the person's index. The watcher moves nothing, and
// the person's `git status` runs the command's program unconfined.
func TestA41NewGitDirInsidePersonsGitDir(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct{ name, gitdir string }{
		{"in .git/modules", ".git/modules/evil"},
		{"in another folder of .git", ".git/x/evil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			a40Outer(t, f)
			marker, script := plantScript(t, f)
			out := a40Run(t, f, "mkdir -p "+c.gitdir+" && "+a40g+" init -q --separate-git-dir="+c.gitdir+" inner && cat inner/.git && "+
				a40g+" -C inner commit -q --allow-empty -m x && "+a40g+" -C inner config core.fsmonitor "+script+" && "+a40g+" add inner")
			if strings.Contains(out, "moved") {
				t.Logf("the watcher moved something: %s", out)
			}
			gitOK(f.granted, "status")
			if a40Ran(marker) {
				t.Errorf("%s: the repository the command made with its git folder at %s kept its core.fsmonitor, which the person's git status ran unconfined: %s", c.name, c.gitdir, out)
			}
		})
	}
}
