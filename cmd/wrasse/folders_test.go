package main

import (
	"os"
	"strings"
	"testing"
)

// wrasse config says when no folder is granted and how to grant one, and
// warns when the whole home folder is.
func TestConfigShowsTheGrantedFolders(t *testing.T) {
	ws := t.TempDir()
	code, out, errOut := cli(t, ws, "config")
	if code != 0 || strings.Contains(out, `"folders"`) || !strings.Contains(errOut, "note: no folder is granted") ||
		!strings.Contains(errOut, "→ wrasse config set folders ") {
		t.Fatalf("config in a new workspace: %d\n%s\n%s", code, out, errOut)
	}
	dir := t.TempDir()
	if code, out, errOut := cli(t, ws, "config", "set", "folders", dir); code != 0 || !strings.Contains(out, "Saved folders = "+dir) || errOut != "" {
		t.Fatalf("set: %d %s %s", code, out, errOut)
	}
	code, out, errOut = cli(t, ws, "config")
	if code != 0 || !strings.Contains(out, `"folders": [`) || !strings.Contains(out, dir) || strings.Contains(errOut, "no folder is granted") {
		t.Fatalf("config with a folder: %d\n%s\n%s", code, out, errOut)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder:", err)
	}
	if code, _, errOut := cli(t, ws, "config", "set", "folders", home); code != 0 || !strings.Contains(errOut, "warning: your whole home folder") {
		t.Fatalf("granting home: %d %s", code, errOut)
	}
}
