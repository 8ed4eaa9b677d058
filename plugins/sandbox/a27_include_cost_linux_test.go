package sandbox_test

// Attack (a27, items 4 and 5; a denial of service the command sets up
// once): readGitSettings bounds ONE settings read at 64 included files of
// 256 KiB each, but the launcher makes that read again for every git
// folder it plans, twice for each submodule git folder (moduleMounts reads
// its core.worktree, gitSettingMounts its includes), with no bound on
// what all of them cost together. A command makes a repository x in its
// grant whose .git/modules holds 300 submodule git folders (a HEAD and a
// config each, hard links of one file), every config including the same
// 64 files of 256 KiB of valid settings (absolute paths: read again for
// each folder). Every later command in that grant starts a launcher that
// reads and parses 300 x 2 x 64 x 256 KiB (about 9.6 GiB) before its
// program runs: one such read took 850 ms on the test machine, so about
// 8 minutes for `true` (10 folders already take over 20 seconds), on
// every shell call and MCP server start in the grant, until the person
// finds and removes x. The launcher plans before Landlock, holding its
// capabilities, and the command's leftover processes may change the
// files meanwhile.
//
// Should: the launcher's start stays bounded whatever a command leaves in
// a grant (a budget of bytes read, or each included file read once per
// launcher), and `true` runs within seconds.
// Does: the next command has not started after 20 seconds (the test
// then kills it).

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestA27IncludedFilesReadAgainForEverySubmodule(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	inc := filepath.Join(f.granted, "inc")
	prep := `set -e; mkdir -p inc x/.git/modules && echo 'ref: refs/heads/main' > x/.git/HEAD &&
		awk 'BEGIN { print "[a]"; for (i = 0; i < 32760; i++) print "b=c" }' > inc/big &&
		for i in $(seq 1 64); do ln inc/big inc/i$i; printf '[include]\n\tpath = ` + inc + `/i%d\n' $i >> mcfg; done &&
		echo 'ref: refs/heads/main' > mhead &&
		for i in $(seq 1 300); do mkdir x/.git/modules/m$i && ln mhead x/.git/modules/m$i/HEAD && ln mcfg x/.git/modules/m$i/config; done &&
		echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	l := startLaunch(t, p, f.granted)
	if err, ended := l.wait(20 * time.Second); ended {
		if !strings.Contains(l.output(), "started") {
			t.Errorf("the command did not run (%v): %.300s", err, l.output())
		}
		t.Logf("the command ran after %v", l.took)
	} else {
		t.Errorf("the next command's launcher is still planning after 20 seconds, reading the 64 files of 256 KiB that each of a command's 300 submodule git folders includes (output so far: %q)", l.output())
		l.kill()
	}
}
