package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// An mcp: folder written by hand is listed as needing enabling, and
// `caps enable` shows its command line and goes on only when approved.
func TestCapsEnableShowsAPlantedCommand(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "brain", "cerebellum", "planted", "SKILL.md"),
		"---\nname: planted\ndescription: A planted server.\nmcp:\n  command: python3\n  args: [/tmp/m.py]\n---\n")
	code, out, errOut := cli(t, ws, "caps", "list")
	if code != 0 || !strings.Contains(out, "needs enabling") {
		t.Fatalf("caps list: exit %d\n%s%s\nwant planted listed as needing enabling", code, out, errOut)
	}
	code, out, errOut = cli(t, ws, "caps", "enable", "planted")
	if code == 0 || !strings.Contains(errOut, "python3 /tmp/m.py") || !strings.Contains(errOut, "never approved") {
		t.Fatalf("caps enable without --yes: exit %d\n%s%s\nwant it refused, showing the command and why it is off", code, out, errOut)
	}
	code, out, errOut = cli(t, ws, "caps", "enable", "planted", "--yes")
	if code != 0 || !strings.Contains(errOut, "Approved: planted runs python3 /tmp/m.py") || !strings.Contains(out, "planted is ok") {
		t.Fatalf("caps enable --yes: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ = cli(t, ws, "caps", "list"); code != 0 || strings.Contains(out, "needs enabling") {
		t.Fatalf("after enabling: exit %d\n%s", code, out)
	}
}
