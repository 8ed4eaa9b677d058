package std_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/wrasse-app/wrasse/plugins/hostsyms/std"
)

func newInterp(t *testing.T) *interp.Interpreter {
	t.Helper()
	it := interp.New(interp.Options{})
	if err := it.Use(std.Symbols()); err != nil {
		t.Fatal(err)
	}
	return it
}

// Every copied package imports under its own path (a key registered
// under the wrong path would import silently as nothing).
func TestEveryPackageImports(t *testing.T) {
	for key := range std.Symbols() {
		if key == "." {
			continue
		}
		pkg := path.Dir(key)
		if _, err := newInterp(t).Eval(`import _ "` + pkg + `"`); err != nil {
			t.Errorf("import %s: %v", pkg, err)
		}
	}
}

// MapTypes reaches the interpreter: fmt sees an interpreted String method
// and json an interpreted MarshalJSON, as with yaegi's own library.
func TestMapTypesReachTheInterpreter(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{name: "fmt.Stringer", want: "<named>", src: `
import "fmt"
type T struct{}
func (T) String() string { return "<named>" }
func f() string { return fmt.Sprint(T{}) }`},
		{name: "json.Marshaler", want: `"custom"`, src: `
import "encoding/json"
type T struct{}
func (T) MarshalJSON() ([]byte, error) { return []byte("\"custom\""), nil }
func f() string { b, _ := json.Marshal(T{}); return string(b) }`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t)
			if _, err := it.Eval(tc.src); err != nil {
				t.Fatal(err)
			}
			v, err := it.Eval("f()")
			if err != nil {
				t.Fatal(err)
			}
			if got := v.String(); got != tc.want {
				t.Errorf("f() = %q, want %q", got, tc.want)
			}
		})
	}
}

// os.Exit and log.Fatal panic instead of ending the process (yaegi's
// restricted versions came along).
func TestRestrictedExits(t *testing.T) {
	for _, call := range []string{`os.Exit(3)`, `log.Fatal("x")`} {
		it := newInterp(t)
		if _, err := it.Eval(`import ("log"; "os")`); err != nil {
			t.Fatal(err)
		}
		_, err := it.Eval(`func f() { _ = os.Args; _ = log.Prefix; ` + call + ` }`)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := it.Eval("f()"); err == nil {
			t.Errorf("%s returned without a panic", call)
		}
	}
}

// Unlinked names packages of yaegi's library only, none of them linked.
func TestUnlinkedIsDisjoint(t *testing.T) {
	un := std.Unlinked()
	if len(un) == 0 {
		t.Fatal("no unlinked packages: was yaegi's whole library copied?")
	}
	for key := range std.Symbols() {
		if slices.Contains(un, path.Dir(key)) {
			t.Errorf("%s is both linked and unlinked", path.Dir(key))
		}
	}
}

// Every copied file's loader runs (load.go calls each load_ function of
// the package, and no file keeps an init that fills the maps at start),
// and every linked package's symbols are in the built maps.
func TestEveryLoaderRuns(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go") && fi.Name() != "gen.go"
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defined, called := map[string]bool{}, map[string]bool{}
	for _, f := range pkgs["std"].Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			if fd.Name.Name == "init" {
				t.Errorf("%s has an init: the maps would be filled in every process", fset.Position(fd.Pos()).Filename)
			}
			if strings.HasPrefix(fd.Name.Name, "load_") {
				defined[fd.Name.Name] = true
			}
			if fd.Name.Name == "load" {
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok {
						if id, ok := c.Fun.(*ast.Ident); ok {
							called[id.Name] = true
						}
					}
					return true
				})
			}
		}
	}
	if len(defined) < 90 {
		t.Fatalf("%d loaders; want one per copied file", len(defined))
	}
	for fn := range defined {
		if !called[fn] {
			t.Errorf("%s is never called by load; run go generate ./plugins/hostsyms/std", fn)
		}
	}
	syms := std.Symbols()
	if len(syms) < len(defined)-2 || syms["fmt/fmt"]["Sprint"].Kind() != reflect.Func {
		t.Fatalf("%d packages built for %d loaders, fmt.Sprint %v", len(syms), len(defined), syms["fmt/fmt"]["Sprint"])
	}
	if reflect.ValueOf(std.Symbols()).Pointer() != reflect.ValueOf(syms).Pointer() {
		t.Error("a second call built the maps again")
	}
}
