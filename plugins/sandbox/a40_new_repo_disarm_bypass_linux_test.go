//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// a40: ways a repository a command makes escapes the watcher's end
// check (DisarmNewRepos) while the person's git still enters it. Each
// command makes inner/ with a core.fsmonitor that runs plantScript's
// script and adds it to the person's index as a gitlink, as
// TestMountNamespaceNestedRepositoryAddedByCommand does; then the
// person's `git status` in the outer repository runs it unconfined.
func TestA40NewRepositoryEscapesDisarm(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	for _, c := range []struct {
		name string
		// make makes inner's repository (its .git) in the grant.
		make string
		// before runs as the person before the command (what the
		// grant held already).
		before func(t *testing.T, f fixture)
		// appendSetting: the setting goes at the end of inner/.git/config
		// (after what make wrote), not into its [core] at the top.
		appendSetting bool
	}{{
		// The walk takes a .git only when it is a folder or a regular
		// file (DT_DIR, DT_REG): a .git that is a link to a git folder
		// in a dot folder (skipped by the walk) is no repository to it;
		// git follows the link.
		name: "a .git link",
		make: "mkdir .x && " + a40g + " init -q inner && mv inner/.git .x/gd && ln -s ../.x/gd inner/.git",
	}, {
		// git takes "gitdir: " and the rest of the .git file up to
		// its trailing CR/LF, spaces kept; disarmRepo trims spaces, so it
		// looks at a folder that does not exist and gives up silently.
		name: "a .git file whose path ends in a space",
		make: a40g + " init -q inner && mkdir inner/.x && mv inner/.git 'inner/.x/gd ' && printf 'gitdir: .x/gd \\n' > inner/.git",
	}, {
		// git reads the .git file as a C string: a NUL ends the path.
		// disarmRepo keeps what follows and cannot open it.
		name: "a .git file with a NUL after the path",
		make: a40g + " init -q inner && mkdir inner/.x && mv inner/.git inner/.x/gd && printf 'gitdir: .x/gd\\000junk\\n' > inner/.git",
	}, {
		// A .git file whose path goes through a link: disarmRepo's
		// openNoLinks refuses it and leaves a note (in the command's
		// output, which the model reads), moving nothing; git follows
		// the link.
		name: "a .git file whose path goes through a link",
		make: "mkdir .x && " + a40g + " init -q inner && mv inner/.git .x/gd && ln -s ../.x inner/.l && printf 'gitdir: .l/gd\\n' > inner/.git",
	}, {
		// madeSince trusts the .git folder's birth time; rename keeps
		// it. A folder the person had in the grant before the command
		// started (assets/), filled with a git folder's files and moved
		// to inner/.git, is "the person's".
		name: "a .git folder born before the command (renamed into place)",
		before: func(t *testing.T, f fixture) {
			if err := os.MkdirAll(filepath.Join(f.granted, "assets"), 0o755); err != nil {
				t.Fatal(err)
			}
			// Made a while before (a project's folders are days old).
			time.Sleep(300 * time.Millisecond)
		},
		make: a40g + " init -q tmp && cp -a tmp/.git/. assets/ && rm -rf tmp && mkdir inner && mv assets inner/.git",
	}, {
		// riskySettings reads the first 256 KiB of config (readRegular's
		// limit, no error past it); git reads it all. A long comment
		// pushes core.fsmonitor past what the watcher reads.
		name:          "core.fsmonitor past 256 KiB of config",
		make:          a40g + " init -q inner && { printf '#'; head -c 300000 /dev/zero | tr '\\000' x; printf '\\n'; } >> inner/.git/config",
		appendSetting: true,
	}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			a40Outer(t, f)
			if c.before != nil {
				c.before(t, f)
			}
			marker, script := plantScript(t, f)
			set := a40g + " -C inner config core.fsmonitor " + script
			if c.appendSetting {
				set = "printf '[core]\\n\\tfsmonitor = " + script + "\\n' >> inner/.git/config"
			}
			out := a40Run(t, f, c.make+" && "+a40g+" -C inner commit -q --allow-empty -m x && "+set+" && "+
				a40g+" -C inner config --get core.fsmonitor && "+a40g+" add inner")
			if strings.Contains(out, "moved") {
				t.Logf("the watcher moved something: %s", out)
			}
			gitOK(f.granted, "status")
			if a40Ran(marker) {
				t.Errorf("%s: the repository the command made kept its core.fsmonitor, which the person's git status in the outer repository ran unconfined: %s", c.name, out)
			}
		})
	}
}
