package cerebellum

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

// fill sets every encoded field of v to a non-zero value, different per
// field, so a field the codec drops or mixes up shows in a comparison.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n) * -3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n) + 0.5)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		if skipped(v.Type()) {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), n)
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() && !skipped(f.Type) {
				fill(v.Field(i), n)
			}
		}
	}
}

// TestEntryCodecRoundTrips: every field of a capability (and of its
// manifest, tools, patterns, settings...) comes back exactly, nil and empty
// kept apart, so a field added to those types later is cached too.
func TestEntryCodecRoundTrips(t *testing.T) {
	full := &Capability{}
	n := 0
	fill(reflect.ValueOf(full).Elem(), &n)
	empty := &Capability{Name: "e", Files: []string{}}
	cd := newCodec(reflect.TypeFor[scanRecord]())
	for _, c := range []*Capability{full, empty} {
		e := &scanEntry{At: 12345, Stats: []fileStat{{Path: ".", Dir: true, MTime: 1}, {Path: "SKILL.md", Size: 3, MTime: -2, CTime: 4, Ino: 5}}, cap: c}
		got, err := cd.unmarshalEntry(cd.marshalEntry(e))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, e) {
			t.Fatalf("round trip differs:\n%+v\n%+v", got.cap, e.cap)
		}
	}
	raw := cd.marshalEntry(&scanEntry{At: 1, cap: full})
	for i := range len(raw) - 1 {
		if _, err := cd.unmarshalEntry(raw[:i]); err == nil {
			t.Fatalf("a truncated entry (%d of %d bytes) decoded", i, len(raw))
		}
	}
}

func TestTypeFingerprintChangesWithFields(t *testing.T) {
	type a struct{ X, Y string }
	type b struct{ X, Z string }
	type c struct {
		X  string
		Re *regexp.Regexp
	}
	fa, fb, fc := typeFingerprint(reflect.TypeFor[a]()), typeFingerprint(reflect.TypeFor[b]()), typeFingerprint(reflect.TypeFor[c]())
	if fa == fb || fa == fc || len(fa) != 16 {
		t.Fatalf("fingerprints %s %s %s", fa, fb, fc)
	}
}

// TestCacheLogAppendsAndCompacts: a change appends only itself, a damaged
// tail is ignored and rewritten, and a log of mostly dead records is
// rewritten whole.
func TestCacheLogAppendsAndCompacts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	l := openCacheLog(path, "v1")
	for i := range 100 {
		l.put(string(rune('A'+i%26))+string(rune('a'+i/26)), []byte("value"))
	}
	if err := l.save(); err != nil {
		t.Fatal(err)
	}
	full, _ := os.Stat(path)
	l.put("Aa", []byte("changed"))
	l.put("Ba", nil)
	if err := l.save(); err != nil {
		t.Fatal(err)
	}
	grown, _ := os.Stat(path)
	if d := grown.Size() - full.Size(); d <= 0 || d > 64 {
		t.Fatalf("one change and one delete grew the file by %d bytes; want only those two records", d)
	}
	r := openCacheLog(path, "v1")
	if string(r.get("Aa")) != "changed" || r.get("Ba") != nil || string(r.get("Ca")) != "value" || len(r.keys("")) != 99 {
		t.Fatalf("reopened: Aa=%q Ba=%q keys=%d", r.get("Aa"), r.get("Ba"), len(r.keys("")))
	}
	if openCacheLog(path, "v2").get("Ca") != nil {
		t.Fatal("another version was trusted")
	}
	// A torn last record is dropped and the next save rewrites the file.
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-3], 0o600)
	r = openCacheLog(path, "v1")
	if !r.rewrite || r.get("Ca") == nil {
		t.Fatal("damaged tail not noticed, or the records before it lost")
	}
	r.put("new", []byte("x"))
	if err := r.save(); err != nil {
		t.Fatal(err)
	}
	if got := openCacheLog(path, "v1"); string(got.get("new")) != "x" || got.rewrite {
		t.Fatal("rewrite after a damaged tail lost a record")
	}
	// Churn: the file stays within about twice its live size.
	for i := range 1000 {
		r.put("Aa", []byte{byte(i), byte(i >> 8)})
		if err := r.save(); err != nil {
			t.Fatal(err)
		}
	}
	if r.records > 2*len(r.vals)+64+1 {
		t.Fatalf("%d records for %d live keys: never compacted", r.records, len(r.vals))
	}
}

func FuzzCacheFiles(f *testing.F) {
	n := 0
	full := &Capability{}
	fill(reflect.ValueOf(full).Elem(), &n)
	cd := newCodec(reflect.TypeFor[scanRecord]())
	f.Add(cd.marshalEntry(&scanEntry{At: 1, cap: full}))
	f.Add([]byte("wrasse-cache v1\n\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01ab"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cd.unmarshalEntry(data)
		path := filepath.Join(t.TempDir(), "log")
		os.WriteFile(path, append([]byte("wrasse-cache v1\n"), data...), 0o600)
		openCacheLog(path, "v1")
	})
}
