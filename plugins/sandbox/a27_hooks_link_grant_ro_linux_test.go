package sandbox_test

// Attack (a27, item 1: a link in the plan): add() refuses a read-only
// mount of a path that holds a writable grant ("a read-only mount would
// take the grant away"), but it checks the name the plan gives, then
// resolves links and mounts what the name leads to. gitDirMounts gives
// .git/hooks and .git/config by name, read-only. A command makes a
// repository x in its grant whose .git/hooks is a link to ../.. (the grant
// itself; or to any folder above it: the home folder, /tmp). Every later
// command's launcher mounts the grant read-only over itself: the command
// can write nothing there (not even remove x to undo it), git, builds and
// editors fail with EROFS in every shell call and MCP server in that
// grant, until the person finds the link. With ../../.. the launcher makes
// a read-only mount outside every grant (the folder holding the grant).
//
// Should: a link in the plan that leads to a folder holding a writable
// grant is not mounted read-only (checked on what it leads to, as for the
// paths the plan resolves before add), and the next command writes in its
// grant.
// Does: the next command's `touch` fails: "Read-only file system".

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestA27HooksLinkMakesTheGrantReadOnly(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	prep := `mkdir -p x/.git && echo 'ref: refs/heads/main' > x/.git/HEAD && ln -s ../.. x/.git/hooks && echo made`
	if out, ok := runIn(t, p, f.granted, prep, nil); !ok || !strings.Contains(out, "made") || strings.Contains(out, "no mount namespace") {
		t.Fatalf("the preparation failed: %.300s", out)
	}
	out, ok := runIn(t, p, f.granted, "touch work.txt && echo wrote", nil)
	if _, err := os.Stat(filepath.Join(f.granted, "work.txt")); err != nil || !ok {
		t.Errorf("after a command linked its repository's .git/hooks to the grant, the next command can no longer write in its grant (succeeded=%v): %.400s", ok, out)
	}
}
