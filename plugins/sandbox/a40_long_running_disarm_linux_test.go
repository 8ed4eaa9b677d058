//go:build attack && linux

package sandbox_test

import (
	"os"
	"strings"
	"testing"
	"time"
)

// a40: the watcher disarms the repositories a sandboxed process made
// only when that process ends (its looks every 2 s move commondir files
// alone). An MCP server or a plugin's own process runs for the whole
// session: a repository it makes with a core.fsmonitor and adds to the
// person's index runs in every git status of the person's (and every
// shell prompt that shows git's status) for as long as the server runs.
// Here a command stays up a few seconds after planting; the person's
// git status in the meantime runs the fsmonitor.
func TestA40LongRunningProcessRepositoryLiveUntilItEnds(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	marker, script := plantScript(t, f)
	done := make(chan string, 1)
	go func() {
		out, _ := runIn(t, f.commandPolicy(), f.granted, "export HOME="+f.temp+"; "+a40g+" init -q inner && "+a40g+" -C inner commit -q --allow-empty -m x && "+
			a40g+" -C inner config core.fsmonitor "+script+" && "+a40g+" add inner && echo planted && sleep 6", nil)
		done <- out
	}()
	// Past the watcher's first looks (every 2 s).
	time.Sleep(4500 * time.Millisecond)
	gitOK(f.granted, "status")
	ran := a40Ran(marker)
	out := <-done
	if !strings.Contains(out, "planted") {
		t.Fatalf("the command did not plant: %s", out)
	}
	if ran {
		t.Errorf("while the process that made it still ran (an MCP server's session), a repository with a core.fsmonitor it added to the person's index ran in the person's git status: %s", out)
	}
	_ = os.Remove(marker)
}
