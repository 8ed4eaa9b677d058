package cerebellum

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A cached stat vouches for a file only once its modification and change
// times are both older than the scan by more than their windows: an edit
// that puts the modification time back (cp -p, rsync -t) shows only in the
// change time, and within one coarse clock tick of the scan not even there.
func TestRacyChangeTimeIsReadAgain(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "cap", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(file)
	if err != nil {
		t.Fatal(err)
	}
	s := statOf("SKILL.md", fi)
	if s.CTime == 0 {
		t.Skip("no change times on this system")
	}
	d := openStatDir(root)
	defer d.close()
	for _, tc := range []struct {
		name  string
		at    int64
		fresh bool
	}{
		{"scanned within the tick of the change", s.CTime + int64(racyChangeWindow)/2, false},
		{"scanned after it", s.CTime + 2*int64(racyChangeWindow), true},
	} {
		e := &scanEntry{At: tc.at, Stats: []fileStat{s}}
		if got := e.fresh(d, "cap"); got != tc.fresh {
			t.Errorf("%s: fresh = %v; want %v", tc.name, got, tc.fresh)
		}
	}
}
