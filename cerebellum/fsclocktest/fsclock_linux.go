package fsclocktest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// WaitChangeTick returns once a file changed now gets a later change time
// than path has: an edit in the same tick as path's last change keeps its
// change time, and an edit that also keeps the size and puts the
// modification time back then looks, by stat, exactly as before.
func WaitChangeTick(tb testing.TB, path string) {
	tb.Helper()
	ref := changeTime(tb, path)
	probe := filepath.Join(tb.TempDir(), "tick")
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			tb.Fatal(err)
		}
		if changeTime(tb, probe) > ref {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the file system's clock did not move past %s's change time", path)
		}
		time.Sleep(time.Millisecond)
	}
}

func changeTime(tb testing.TB, path string) int64 {
	tb.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ctim.Nano()
}
