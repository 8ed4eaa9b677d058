package cerebellum

import (
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
)

// fill sets every stored field of v to a non-zero value, different per
// field, so a field the cache drops or mixes up shows in a comparison.
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
		if v.Type() == reflect.TypeFor[*regexp.Regexp]() {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), n)
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				fill(v.Field(i), n)
			}
		}
	}
}

// TestManifestCacheRoundTrips: every field of a capability (and of its
// manifest, tools, patterns, settings...) comes back from the cache file
// in another process, patterns compiled, so a field added to those types
// later is cached too.
func TestManifestCacheRoundTrips(t *testing.T) {
	full := &Capability{}
	n := 0
	fill(reflect.ValueOf(full).Elem(), &n)
	full.FS = nil
	if !compilePatterns(full.Manifest) {
		t.Fatal("patterns do not compile")
	}
	e := &scanEntry{At: 12345, Stats: []fileStat{{Path: ".", Dir: true, MTime: 1}, {Path: "SKILL.md", Size: 3, MTime: -2, CTime: 4, Ino: 5}}, cap: full}
	path := filepath.Join(t.TempDir(), "manifests")
	c := openManifestCache(path)
	c.store("folder", e)
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	got := openManifestCache(path).entry("folder")
	if got == nil {
		t.Fatal("the entry did not survive reopening")
	}
	if got.At != e.At || !reflect.DeepEqual(got.Stats, e.Stats) || !reflect.DeepEqual(got.cap, e.cap) {
		t.Fatalf("round trip differs:\n%+v\n%+v", got.cap, e.cap)
	}
}
