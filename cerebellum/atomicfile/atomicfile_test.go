package atomicfile_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
)

func TestWrite(t *testing.T) {
	cases := []struct {
		name string
		path string // relative to a fresh temp dir
		old  []byte // existing content, nil for none
		data []byte
		perm os.FileMode
	}{
		{name: "new file in a new folder", path: "a/b/c.json", data: []byte(`{"x":1}`), perm: 0o600},
		{name: "replace", path: "c.json", old: []byte("old content that is longer"), data: []byte("new"), perm: 0o644},
		{name: "empty", path: "empty", old: []byte("x"), data: []byte{}, perm: 0o600},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, tc.path)
			if tc.old != nil {
				if err := os.WriteFile(p, tc.old, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := atomicfile.Write(p, tc.data, tc.perm); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(tc.data) {
				t.Errorf("content = %q; want %q", got, tc.data)
			}
			if runtime.GOOS != "windows" {
				info, _ := os.Stat(p)
				if info.Mode().Perm() != tc.perm {
					t.Errorf("perm = %v; want %v", info.Mode().Perm(), tc.perm)
				}
			}
			entries, _ := os.ReadDir(filepath.Dir(p))
			if len(entries) != 1 {
				t.Errorf("folder holds %d entries; want only the file (no temporary left)", len(entries))
			}
		})
	}
}

func TestWriteFailsWithoutLeftovers(t *testing.T) {
	dir := t.TempDir()
	// The target is a non-empty folder: the rename must fail.
	target := filepath.Join(dir, "target")
	if err := os.MkdirAll(filepath.Join(target, "inner"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(target, []byte("x"), 0o600); err == nil {
		t.Fatal("writing over a non-empty folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries after a failed write; want the target only", len(entries))
	}
}

// Concurrent writers of one path each leave a whole file: the content is
// one of theirs, never a mix.
func TestWriteConcurrent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "state.json")
	payloads := map[string]bool{}
	var wg sync.WaitGroup
	for i := range 8 {
		data := make([]byte, 4096)
		for j := range data {
			data[j] = byte('a' + i)
		}
		payloads[string(data)] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := atomicfile.Write(p, data, 0o600); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !payloads[string(got)] {
		t.Errorf("file holds a mix of writes (%d bytes)", len(got))
	}
}

func TestWriteJSON(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.json")
	if err := atomicfile.WriteJSON(p, map[string]int{"b": 2, "a": 1}, 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != `{"a":1,"b":2}` {
		t.Errorf("content = %s", got)
	}
	if err := atomicfile.WriteJSON(p, func() {}, 0o600); err == nil {
		t.Error("a value JSON cannot encode was written")
	}
}

// TestSweepRemovesInterruptedWrites: the temporary file a write leaves
// when it is killed before its rename goes at the next Sweep; nothing
// else does.
func TestSweepRemovesInterruptedWrites(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, ".cache")
	keep := []string{"manifests.json", ".manifests.json", ".tmp-1", "notes.tmp-1", ".x.tmp-", ".x.tmp-12a", ".hidden"}
	gone := []string{".manifests.json.tmp-123456", ".config.json.tmp-9", ".a.b.tmp-0.tmp-77"}
	for _, name := range append(append([]string(nil), keep...), gone...) {
		if err := os.MkdirAll(cache, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cache, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A folder named like a temporary file is not one.
	if err := os.Mkdir(filepath.Join(cache, ".d.tmp-5"), 0o700); err != nil {
		t.Fatal(err)
	}
	removed, err := atomicfile.Sweep(cache, filepath.Join(dir, "missing"))
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != len(gone) {
		t.Fatalf("removed %q, want the %d temporary files %q", removed, len(gone), gone)
	}
	for _, name := range gone {
		if _, err := os.Stat(filepath.Join(cache, name)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", name, err)
		}
	}
	for _, name := range append(keep, ".d.tmp-5") {
		if _, err := os.Stat(filepath.Join(cache, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}

// TestSweepFindsWhatWriteLeaves: the name Write gives its temporary file
// is one Sweep recognises (a kill between create and rename leaves it).
func TestSweepFindsWhatWriteLeaves(t *testing.T) {
	dir := t.TempDir()
	f, err := os.CreateTemp(dir, ".manifests.json.tmp-*")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !atomicfile.IsTemp(filepath.Base(f.Name())) {
		t.Fatalf("%s is not recognised", f.Name())
	}
}
