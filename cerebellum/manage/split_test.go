package manage_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runTime are the exported methods of *cerebellum.Registry: what a
// conversation needs while it runs (snapshot, session, index, search,
// call, lifecycle, MCP catalogs, tuning) and the Hook for this package.
// A method that changes the workspace's capabilities belongs in manage;
// add one here only if a running conversation needs it.
var runTime = []string{
	"Activate", "ActivateFor", "Call", "Catalog", "Close", "Closest",
	"DeferrableTools", "Get", "Hook", "Index", "Learn", "List", "LoadedNames",
	"LoadedToolTokens", "Loader", "NewSession", "Prepare", "ReadSource", "ReloadRuntimes",
	"Run", "RuntimeStatus", "Search",
	"Settings", "Snapshot", "StableIndex", "Start", "Subscribe",
	"Tools", "TrackLoaded", "Tuning", "UnknownPinned", "UseRuntime", "Workspace",
}

// parseDir parses the non-test Go files of one package folder.
func parseDir(t *testing.T, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// The registry keeps its run-time job: its exported methods are the
// run-time set, and nothing that changes the workspace is added to it.
func TestRegistryExportsOnlyTheRunTimeSet(t *testing.T) {
	var got []string
	for _, f := range parseDir(t, "..") {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() || len(fn.Recv.List) != 1 {
				continue
			}
			if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && id.Name == "Registry" {
					got = append(got, fn.Name.Name)
				}
			}
		}
	}
	slices.Sort(got)
	for _, m := range got {
		if !slices.Contains(runTime, m) {
			t.Errorf("*cerebellum.Registry has %s, which is not in the run-time set: a method that changes the workspace's capabilities belongs in cerebellum/manage", m)
		}
	}
	for _, m := range runTime {
		if !slices.Contains(got, m) {
			t.Errorf("the run-time set names %s, which *cerebellum.Registry no longer has: take it off the list", m)
		}
	}
}

// The engine does not reach up into its manager.
func TestCerebellumDoesNotImportManage(t *testing.T) {
	for _, f := range parseDir(t, "..") {
		for _, imp := range f.Imports {
			if strings.Contains(imp.Path.Value, "/cerebellum/manage") {
				t.Errorf("%s imports %s: cerebellum must not depend on its manager", f.Name.Name, imp.Path.Value)
			}
		}
	}
}

// Only this package opens the registry's management door: everything else
// changes capabilities through a Manager, so each rule lives in one place.
func TestOnlyManageUsesTheHook(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir == "cerebellum/manage" || dir == "cerebellum" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil // not ours to judge
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 0 {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Hook" {
					t.Errorf("%s calls .Hook(): change capabilities through cerebellum/manage's Manager", rel)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
