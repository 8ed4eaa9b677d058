package builtin_test

import (
	"bytes"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// TestParsedBuiltins fails when parsed.jsonl is not what the built-in files
// parse to now (a start would then parse them again, slower but right):
// run go generate ./brain/cerebellum.
func TestParsedBuiltins(t *testing.T) {
	want, err := cerebellum.EncodeBuiltins(hideParsed{builtin.FS()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("parsed.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("parsed.jsonl is stale (built-in capabilities or the parser changed): run go generate ./brain/cerebellum")
	}
	pf, ok := builtin.FS().(cerebellum.ParsedFS)
	if !ok {
		t.Fatal("builtin.FS does not implement cerebellum.ParsedFS")
	}
	if !bytes.Equal(pf.Parsed(), want) {
		t.Fatal("the compiled parsed form differs from parsed.jsonl: rebuild")
	}
}

// hideParsed is the built-in tree without its parsed form.
type hideParsed struct{ fs.FS }

// tampered is the built-in tree whose parsed form says something else.
type tampered struct {
	fs.FS
	data []byte
}

func (t tampered) Parsed() []byte { return t.data }

func listBuiltins(t *testing.T, fsys fs.FS) []*cerebellum.Capability {
	t.Helper()
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fsys, Native: map[string]cerebellum.Runtime{"history": cerebellum.RuntimeFunc(nil)},
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: fakeLoader{}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	return reg.List()
}

// A registry lists the built-ins from the parsed form exactly as from the
// files, and does use the form: a description changed in it (same length,
// so the form stays well-formed) shows.
func TestBuiltinsListedFromTheParsedForm(t *testing.T) {
	fromForm := listBuiltins(t, builtin.FS())
	fromFiles := listBuiltins(t, hideParsed{builtin.FS()})
	if len(fromForm) != len(fromFiles) || len(fromForm) == 0 {
		t.Fatalf("%d capabilities from the parsed form, %d from the files", len(fromForm), len(fromFiles))
	}
	for i := range fromForm {
		a, b := *fromForm[i], *fromFiles[i]
		for _, c := range []*cerebellum.Capability{&a, &b} {
			if c.FS == nil {
				t.Fatalf("%s has no files", c.Name)
			}
			skill, err := fs.ReadFile(c.FS, "SKILL.md")
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if len(skill) == 0 {
				t.Fatalf("%s: empty SKILL.md", c.Name)
			}
			c.FS = nil
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s differs between the parsed form and the files:\nform  %+v\nfiles %+v", a.Name, a, b)
		}
	}
	calc := fromFiles[0]
	for _, c := range fromFiles {
		if c.Name == "calc" {
			calc = c
		}
	}
	data := builtin.FS().(cerebellum.ParsedFS).Parsed()
	if !bytes.Contains(data, []byte(calc.Description())) || len(calc.Description()) < 4 {
		t.Fatalf("the parsed form does not hold %s's description", calc.Name)
	}
	mark := strings.Repeat("Z", len(calc.Description()))
	changed := bytes.Replace(data, []byte(calc.Description()), []byte(mark), 1)
	var saw string
	for _, c := range listBuiltins(t, tampered{builtin.FS(), changed}) {
		if c.Name == calc.Name {
			saw = c.Description()
		}
	}
	if saw != mark {
		t.Fatalf("the scan did not use the parsed form: %s's description is %q", calc.Name, saw)
	}
}
