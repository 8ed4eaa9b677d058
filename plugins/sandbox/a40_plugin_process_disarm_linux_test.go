//go:build linux

package sandbox_test

import (
	"os"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a40: a plugin's own process runs through NamespaceCommand
// (--wrasse-mounts-only) with the same mounts, and the same watcher: a
// repository it makes in its grant with a core.fsmonitor, added to the
// person's index, is disarmed when it ends.
func TestA40PluginProcessNewRepositoryDisarmed(t *testing.T) {
	requireLandlock(t)
	requireGit(t)
	f := newFixture(t)
	a40Outer(t, f)
	marker, script := plantScript(t, f)
	out := runNamespaced(t, sandbox.Policy{ReadWrite: []string{f.granted}}, f.granted, "export HOME="+f.temp+"; "+
		a40g+" init -q inner && "+a40g+" -C inner commit -q --allow-empty -m x && "+
		a40g+" -C inner config core.fsmonitor "+script+" && "+a40g+" add inner")
	gitOK(f.granted, "status")
	if _, err := os.Stat(marker); err == nil || !strings.Contains(out, "core.fsmonitor") {
		t.Errorf("a repository a plugin's own process made kept its core.fsmonitor (ran: %v): %s", err == nil, out)
	}
}
