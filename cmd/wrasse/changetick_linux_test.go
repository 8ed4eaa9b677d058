package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// waitChangeTick returns once a file changed now gets a later change time
// than path has. Before Linux 6.13 file times come from a coarse clock (one
// tick, 1 to 10 ms): an edit in the same tick as path's last change keeps
// its change time, and an edit that also keeps the size and puts the
// modification time back then looks, by stat, exactly as before.
func waitChangeTick(t *testing.T, path string) {
	t.Helper()
	ref := changeTime(t, path)
	probe := filepath.Join(t.TempDir(), "tick")
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if changeTime(t, probe) > ref {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the file system's clock did not move past %s's change time", path)
		}
		time.Sleep(time.Millisecond)
	}
}

func changeTime(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ctim.Nano()
}
