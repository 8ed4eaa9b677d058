//go:build linux

package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// a42: DisarmNewRepos finds a new repository's git folder with gitDirOf,
// which reads its .git otherwise than git does, so the git folder git
// uses is never disarmed:
//
//   - a .git file "gitdir: ../.x/g\n\0": gitFileTarget cuts at the first
//     NUL and then takes the line ends off (../.x/g, which does not
//     exist: nothing is looked at, no note); git's read_gitfile takes
//     the line ends off the end of the whole file first (the NUL is
//     last, so none), then uses the path up to the NUL: ../.x/g<LF>;
//   - a .git that is a link to a .git file: gitDirOf takes the link for
//     a git folder and "disarms" the file it leads to (nothing can be
//     moved inside a file); git reads the file it leads to as a .git file
//     and uses the git folder it names.
//
// The git folder the command made lies in a dot folder of the grant (not
// walked on its own; the .git in inner is what the end's walk finds and
// follows), with core.fsmonitor set; inner is added to the person's index
// as a submodule, and the person's `git status` runs it unconfined.
func TestA42GitFileReadOtherwiseThanGit(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct {
		name, line string
		// add: the command adds inner to the person's index, whose git
		// status then enters it; else the person runs git status in
		// inner itself (a shell prompt showing git's status does too).
		add bool
	}{
		{"NUL after the line end", `d="$(printf '.x/g\nX')"; d="${d%X}"; mv inner/.git "$d" && printf 'gitdir: ../.x/g\n\0' > inner/.git`, true},
		{"link to a .git file", `mv inner/.git .x/g && echo 'gitdir: ../.x/g' > gf && ln -s ../gf inner/.git`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			a40Outer(t, f)
			marker, script := plantScript(t, f)
			out := a40Run(t, f, `mkdir -p .x && `+a40g+` init -q inner && `+a40g+` -C inner commit -q --allow-empty -m x && `+
				a40g+` -C inner config core.fsmonitor `+script+` && `+c.line+` && `+a40g+` -C inner rev-parse --git-dir`+map[bool]string{true: ` && ` + a40g + ` add inner`}[c.add])
			if strings.Contains(out, "moved") {
				t.Logf("the watcher moved something: %s", out)
			}
			gitOK(f.granted, "status")
			gitOK(filepath.Join(f.granted, "inner"), "status")
			if a40Ran(marker) {
				t.Errorf("%s: the repository the command made kept its core.fsmonitor, which the person's git status ran unconfined (notes from the watcher, if any, are in its output): %s", c.name, out)
			}
		})
	}
}
