package scancache

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

type stat struct {
	Path  string
	MTime int64
}

type entry struct {
	At    int64
	Stats []stat
	Name  string
	Meta  map[string]string
	Next  *entry
	Skip  func() // not stored, as gob leaves func fields
}

// TestFileRoundTrips: what was put comes back after a save and an open in
// another process's place; deleted entries and forgotten failures stay gone.
func TestFileRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "cache")
	f := Open[*entry](path, "v1")
	want := map[string]*entry{
		"a": {At: 1, Stats: []stat{{".", 5}, {"SKILL.md", -2}}, Name: "a", Meta: map[string]string{"k": "v"}, Next: &entry{Name: "n"}},
		"b": {At: 2, Name: "b"},
	}
	for k, v := range want {
		f.Put(k, v)
	}
	f.Put("gone", &entry{Name: "gone"})
	f.Delete("gone")
	f.SetFail("x", "broken")
	f.SetFail("y", "broken too")
	f.SetFail("y", "")
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	g := Open[*entry](path, "v1")
	got := map[string]*entry{}
	for _, k := range g.Keys() {
		got[k], _ = g.Get(k)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("entries after reopening: %+v, want %+v", got, want)
	}
	if fails := g.Fails(); !reflect.DeepEqual(fails, map[string]string{"x": "broken"}) {
		t.Fatalf("failures after reopening: %v", fails)
	}
}

// TestFileIgnoresOtherVersionsAndDamage: a file of another version, cut
// short or not a cache at all opens empty, and the next save replaces it.
func TestFileIgnoresOtherVersionsAndDamage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	f := Open[*entry](good, "v1")
	f.Put("a", &entry{Name: "a"})
	f.SetFail("a", "x")
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		data    []byte
		version string
	}{
		{"other version", data, "v2"},
		{"cut short", data[:len(data)-3], "v1"},
		{"not a cache", []byte("wrasse-cache scan-3\n\x00\x01"), "v1"},
		{"empty", nil, "v1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cache")
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			g := Open[*entry](path, tc.version)
			if len(g.Keys()) != 0 || len(g.Fails()) != 0 {
				t.Fatalf("opened %d entries, %d failures", len(g.Keys()), len(g.Fails()))
			}
			if err := g.Save(); err != nil {
				t.Fatal(err)
			}
			if h := Open[*entry](path, tc.version); len(h.Keys()) != 0 {
				t.Fatal("the damaged file was not replaced")
			}
		})
	}
}

// TestSaveWritesOnlyChanges: a save with nothing changed leaves the file
// alone (a start that read every folder from the cache writes nothing).
func TestSaveWritesOnlyChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	f := Open[*entry](path, "v1")
	f.Put("a", &entry{Name: "a"})
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	g := Open[*entry](path, "v1")
	g.Delete("missing")
	g.SetFail("missing", "")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := g.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a save with no change wrote the file (%v)", err)
	}
}

func TestFingerprintChangesWithFields(t *testing.T) {
	type a struct{ X, Y string }
	type b struct{ X, Z string }
	type c struct {
		X  string
		Re *regexp.Regexp
	}
	type d struct {
		X string
		Y int
	}
	fa, fb, fc, fd := Fingerprint(reflect.TypeFor[a]()), Fingerprint(reflect.TypeFor[b]()), Fingerprint(reflect.TypeFor[c]()), Fingerprint(reflect.TypeFor[d]())
	if fa == fb || fa == fc || fa == fd || len(fa) != 16 {
		t.Fatalf("fingerprints %s %s %s %s", fa, fb, fc, fd)
	}
}

// FuzzOpen: no file content makes Open panic; what it opens saves.
func FuzzOpen(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed")
	s := Open[*entry](path, "v1")
	s.Put("a", &entry{At: 1, Stats: []stat{{"x", 2}}, Meta: map[string]string{"k": "v"}})
	s.SetFail("a", "x")
	if err := s.Save(); err != nil {
		f.Fatal(err)
	}
	seed, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "cache")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		g := Open[*entry](path, "v1")
		for _, k := range g.Keys() {
			g.Get(k)
		}
		if err := g.Save(); err != nil {
			t.Fatal(err)
		}
	})
}
