//go:build linux

package sandbox_test

// Found by the a31 attack round on the a30 fixes, and fixed (a34): the
// names settings give are resolved from the top down, stopping at the
// first folder that is not there, on a start's budget of folder steps
// (maxSettingNameWork), and one not there is made only up to
// maxMadeFolders below what exists; deeper, that folder is read-only for
// the command instead, so the name stays missing. Past the budget the
// command does not start, saying which repository's settings to look at.
//
// Attack (a31, many core.hooksPath values just under gitCanOpen's bound):
// a30's third fix drops an include path or core.hooksPath of 4,352 bytes
// or more, but one just under it still has about 2,160 components
// ("dR_J/a/a/.../a/h", 4,330 bytes), and the plan still paid per component
// for each (makeInside's Clean, the resolver's recursion over every
// prefix, an lstat of each ever-deeper prefix): about 60 ms a value. A
// command makes 15 repositories in its grant (.git with a HEAD), each
// config holding 58 such values under distinct first folders (251 KiB,
// under the 256 KiB file bound; 58 of the 64 hooksPaths kept; 3.8 MiB in
// all, under the 4 MiB settings budget). Every later start planned 870
// deep names.
//
// Did: 55 seconds measured, each start (40 s for the plan alone); now
// about 0.2 s (2.6 s with -race), the 15 repositories' work trees
// read-only for the command.

import (
	"strings"
	"testing"
	"time"
)

func TestA31ManyHooksPathsJustUnderTheBound(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `set -e; r=0; while [ $r -lt 15 ]; do mkdir -p x$r/.git && echo 'ref: refs/heads/main' > x$r/.git/HEAD &&
		awk -v r=$r 'BEGIN { print "[core]"; for (j = 0; j < 58; j++) { printf "\thooksPath = d%d_%d/", r, j; for (i = 0; i < 2160; i++) printf "a/"; print "h" } }' > x$r/.git/config; r=$((r+1)); done; echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	startLaunch(t, p, f.granted).startsWithin(t, 20*time.Second, "870 core.hooksPath values of 4,330 bytes (under gitCanOpen's 4,352) in 15 repositories the command made are each resolved per component")
}
