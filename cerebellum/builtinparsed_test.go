package cerebellum

import (
	"bytes"
	"io/fs"
	"os"
	"reflect"
	"testing"
	"testing/fstest"
)

// parsedTree is a built-in tree with a parsed form.
type parsedTree struct {
	fstest.MapFS
	data []byte
}

func (p parsedTree) Parsed() []byte { return p.data }

// builtinFixture is the shipped built-in capabilities (patterns, plugins,
// settings) and one that fails to parse, as a tree that can be changed.
func builtinFixture(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	src := os.DirFS("../brain/cerebellum")
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		m[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	m["broken/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: [unclosed\n---\nbody\n")}
	// Maps of several keys, which must encode in one order.
	m["meta/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: meta\ndescription: A guide with metadata for the test.\nmetadata:\n  a: one\n  b: two\n  c: three\n  d: four\n  e: five\n  f: six\n---\nbody\n")}
	return m
}

func withoutFS(caps []*Capability) []Capability {
	out := make([]Capability, len(caps))
	for i, c := range caps {
		out[i] = *c
		out[i].FS = nil
	}
	return out
}

// The parsed form decodes to exactly what parsing the files gives, and is
// refused (the files parsed instead) when it is not of these files and this
// parser, or damaged.
func TestParsedBuiltinsDecodeOrFallBack(t *testing.T) {
	tests := []struct {
		name string
		// spoil changes the tree or the form after encoding; nil keeps both.
		spoil func(m fstest.MapFS, data []byte) []byte
		used  bool
	}{
		{name: "current", used: true},
		{name: "file changed", spoil: func(m fstest.MapFS, data []byte) []byte {
			m["calc/SKILL.md"].Data = append(bytes.Clone(m["calc/SKILL.md"].Data), ' ')
			return data
		}},
		{name: "file added", spoil: func(m fstest.MapFS, data []byte) []byte {
			m["calc/notes.txt"] = &fstest.MapFile{Data: []byte("x")}
			return data
		}},
		{name: "capability added", spoil: func(m fstest.MapFS, data []byte) []byte {
			m["extra/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: extra\ndescription: An extra guide for the test.\n---\nbody\n")}
			return data
		}},
		{name: "root file changed (not a capability)", used: true, spoil: func(m fstest.MapFS, data []byte) []byte {
			m["parsed.jsonl"] = &fstest.MapFile{Data: []byte("another parsed form")}
			return data
		}},
		{name: "other parser version", spoil: func(_ fstest.MapFS, data []byte) []byte {
			return bytes.Replace(data, []byte(manifestCacheVersion), []byte("scan-0"), 1)
		}},
		{name: "truncated", spoil: func(_ fstest.MapFS, data []byte) []byte { return data[:len(data)-7] }},
		{name: "record length too long", spoil: func(_ fstest.MapFS, data []byte) []byte {
			d := bytes.Clone(data)
			nl := bytes.IndexByte(d, '\n')
			d[nl+1], d[nl+2] = 0xff, 0x7f
			return d
		}},
		{name: "empty", spoil: func(fstest.MapFS, []byte) []byte { return nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := builtinFixture(t)
			data, err := EncodeBuiltins(m)
			if err != nil {
				t.Fatal(err)
			}
			if tt.spoil != nil {
				data = tt.spoil(m, data)
			}
			want, err := readTree(m, "", SourceBuiltin, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, used := decodeBuiltins(parsedTree{m, data})
			if used != tt.used {
				t.Fatalf("parsed form used: %v, want %v", used, tt.used)
			}
			if !used {
				got, err = scanTree(parsedTree{m, data}, "", SourceBuiltin, nil)
				if err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(withoutFS(got), withoutFS(want)) {
				t.Fatal("the scan differs from parsing the files")
			}
			failed, patterns := 0, 0
			for _, c := range got {
				if c.State == StateFailed {
					failed++
				}
				if c.Manifest != nil {
					for _, p := range append(c.Manifest.DangerPatterns, c.Manifest.ConfirmPatterns...) {
						if p.Re == nil || p.DotAll == nil {
							t.Fatalf("%s: pattern %q not compiled", c.Name, p.Pattern)
						}
						patterns++
					}
				}
				if skill, err := fs.ReadFile(c.FS, "SKILL.md"); err != nil || !bytes.Equal(skill, m[c.Folder+"/SKILL.md"].Data) {
					t.Fatalf("%s: its files are not the tree's: %v", c.Name, err)
				}
			}
			if failed != 1 || patterns == 0 {
				t.Fatalf("%d failed capabilities (want the broken one), %d patterns", failed, patterns)
			}
		})
	}
}

// EncodeBuiltins gives the same bytes every time (maps in key order), so
// the generated file only changes when the capabilities do.
func TestEncodeBuiltinsIsDeterministic(t *testing.T) {
	m := builtinFixture(t)
	first, err := EncodeBuiltins(m)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := EncodeBuiltins(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, first) {
			t.Fatal("two encodings of one tree differ")
		}
	}
}
