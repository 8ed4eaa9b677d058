//go:build linux

package sandbox_test

// Found by the a30 attack round on the a29 fixes, and fixed: an include's
// path or core.hooksPath of PATH_MAX or more is left out when the settings
// are read (gitCanOpen): the kernel refuses it, so it names nothing.
//
// Attack (a30, a long name costs its length once per component): a29
// resolves the plan's paths with a resolver instead of EvalSymlinks per
// folder above them, but two per-ancestor loops are left on a name a
// command writes: makeInside's Clean (an EvalSymlinks, filepath.Dir and a
// Join of the growing rest for every level, from the bottom up) and the
// resolver's own resolve/clean, which recurse through every parent of the
// name, each level a map lookup hashing the whole prefix and a
// filepath.Dir scanning it. Neither stops at PATH_MAX, where the kernel
// does (ENAMETOOLONG): both are O(components x length). A command makes,
// in its grant, a repository x (.git with a HEAD) whose config sets
// core.hooksPath to "a/a/.../a/h", 120,000 components (240 KiB, under the
// 256 KiB settings file bound). gitSettingMounts finds it missing and
// calls makeInside, and every later command's launcher plans for about 60
// seconds (30,000 components: 5.2 s, of which Clean 72 %, the resolver
// 24 %). Four such files fit one repository's 1 MiB, and each other
// repository the command makes adds its own: minutes to hours at every
// start. (6c18537, before the resolver: 50 s.)
//
// Should: the launcher's start stays bounded whatever a command writes in
// a repository's settings (a name longer than PATH_MAX, or deeper than the
// kernel resolves, names nothing: drop it before Clean and the resolver;
// makeInside through the plan's resolver, walking down, not up).
// Did: the next command had not started after 20 seconds (now: 0.04 s).

import (
	"strings"
	"testing"
	"time"
)

func TestA30LongHooksPathPlansForMinutes(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := f.commandPolicy()
	prep := `set -e; mkdir -p x/.git x/a && cd x && echo 'ref: refs/heads/main' > .git/HEAD &&
		{ printf '[core]\n\thooksPath = '; awk 'BEGIN { for (i = 0; i < 120000; i++) printf "a/"; print "h" }'; } > .git/config && echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	startLaunch(t, p, f.granted).startsWithin(t, 20*time.Second, "a 240 KiB core.hooksPath in a repository the command made is cleaned and resolved once per component")
}
