package hostsyms_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/wrasse-app/wrasse/plugins/hostsyms"
	"github.com/wrasse-app/wrasse/plugins/hostsyms/std"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Every key must be importable by an interpreter (a key without its
// package name registers silently under the wrong path: pitfall 5).
func TestEveryPackageImports(t *testing.T) {
	exports := hostsyms.Exports()
	if len(exports) == 0 {
		t.Fatal("no host packages")
	}
	for key, syms := range exports {
		pkgPath, name := path.Dir(key), path.Base(key)
		it := interp.New(interp.Options{})
		if err := it.Use(std.Symbols()); err != nil {
			t.Fatal(err)
		}
		if err := it.Use(exports); err != nil {
			t.Fatal(err)
		}
		if _, err := it.Eval(`import h "` + pkgPath + `"`); err != nil {
			t.Fatalf("import %s: %v", pkgPath, err)
		}
		for sym := range syms {
			if strings.HasPrefix(sym, "_") {
				continue
			}
			src := "h." + sym
			if v := syms[sym]; v.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr() {
				src = "(*h." + sym + ")(nil)" // a type
			}
			if _, err := it.Eval(src); err != nil {
				t.Errorf("%s.%s: %v", name, sym, err)
			}
		}
	}
}

// The generated map covers every exported identifier of plugins/sdk.
func TestSDKComplete(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir("../sdk")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join("../sdk", e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		{
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.IsExported() {
						want = append(want, d.Name.Name)
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								want = append(want, s.Name.Name)
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									want = append(want, n.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(want)
	syms := hostsyms.Exports()[hostsyms.SDKKey]
	for _, n := range want {
		if _, ok := syms[n]; !ok {
			t.Errorf("sdk.%s is not exported to plugins; run go generate ./plugins/hostsyms", n)
		}
	}
	if len(want) < 10 {
		t.Fatalf("found only %v in plugins/sdk", want)
	}
}

// Package variables reach plugins as values they cannot reassign for the
// whole process.
func TestVariablesAreNotShared(t *testing.T) {
	it := interp.New(interp.Options{Stdout: io.Discard, Stderr: io.Discard})
	if err := it.Use(std.Symbols()); err != nil {
		t.Fatal(err)
	}
	if err := it.Use(hostsyms.Exports()); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Eval(`import "github.com/wrasse-app/wrasse/plugins/sdk"`); err != nil {
		t.Fatal(err)
	}
	v, err := it.Eval(`sdk.ErrOutsideRoots.Error()`)
	if err != nil || !strings.Contains(v.String(), "outside the folders") {
		t.Fatalf("read: %v %v", v, err)
	}
	func() {
		defer func() { _ = recover() }()
		_, _ = it.Eval(`sdk.ErrOutsideRoots = nil`)
	}()
	if sdk.ErrOutsideRoots == nil {
		t.Fatal("a plugin reassigned sdk.ErrOutsideRoots for the whole process")
	}
}
