package archive

import (
	"os"
	"path/filepath"
	"testing"
)

// Every entry is checked before anything is written, "nothing was
// written" when refused. Entries that clash with each other (a folder and
// a file of one name, in either order, or a file and a folder inside it)
// pass the plan, which looks only at the destination on disk and at
// repeated file names, and fail half-way: the entries before the clash
// are left in the destination.
func TestExtractClashingEntriesWritesNothing(t *testing.T) {
	tests := []struct {
		name string
		ents []zent
	}{
		{"folder then file", []zent{{name: "first.txt", body: "1"}, {name: "d/"}, {name: "d", body: "file"}}},
		{"file then folder", []zent{{name: "first.txt", body: "1"}, {name: "d", body: "file"}, {name: "d/"}}},
		{"file then file inside it", []zent{{name: "first.txt", body: "1"}, {name: "d", body: "file"}, {name: "d/x", body: "x"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, dir := newArch(t)
			makeZip(t, filepath.Join(dir, "a.zip"), tc.ents)
			dest := filepath.Join(dir, "out")
			if err := os.Mkdir(dest, 0o755); err != nil {
				t.Fatal(err)
			}
			_, err := call(t, p, "archive_extract", map[string]any{"path": filepath.Join(dir, "a.zip"), "dest": dest})
			if err == nil {
				t.Fatal("an archive whose entries clash was extracted")
			}
			if got := readTree(t, dest); len(got) != 0 {
				t.Errorf("refused (%v), but left %v in the destination", err, got)
			}
		})
	}
}
