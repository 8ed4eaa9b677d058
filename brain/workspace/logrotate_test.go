package workspace

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The workspace log is rotated by size: writing past LogMaxMB starts a
// new file and keeps the old one beside it.
func TestOpenLogRotates(t *testing.T) {
	w := Workspace{Root: t.TempDir()}
	log, c, err := w.OpenLog(slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("x", 64<<10)
	for i := 0; i < (LogMaxMB<<20)/len(line)+8; i++ {
		log.Info(line)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(w.Log())
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > LogMaxMB<<20 {
		t.Errorf("log is %d bytes, over %d MB", info.Size(), LogMaxMB)
	}
	entries, _ := os.ReadDir(filepath.Dir(w.Log()))
	if len(entries) < 2 {
		t.Errorf("no rotated file beside the log: %v", entries)
	}
	// Nothing may still be writing in the folder once Close returns
	// (lumberjack's compression ran on after it and broke cleanup).
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".gz") {
			t.Errorf("compressed old log %s: compression outlives Close", e.Name())
		}
	}
}
