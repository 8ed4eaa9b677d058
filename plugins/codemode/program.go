package codemode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// autoImports are the packages a program may use without importing them
// (models often forget the import); the name is the package's.
var autoImports = map[string]string{
	"fmt": "fmt", "strings": "strings", "strconv": "strconv", "json": "encoding/json", "sort": "sort",
	"math": "math", "time": "time", "errors": "errors", "regexp": "regexp", "bytes": "bytes",
}

// assembled is a program ready to check and to run.
type assembled struct {
	// checked is the program as the model wrote it, with a package clause
	// and forgotten imports added on its first line.
	checked string
	// run is checked with the import of the bridge on its package line
	// and the generated declarations after it.
	run string
}

// assemble prepares src for the tools. Line numbers of src hold in both
// texts: everything added on top goes onto the first line.
func assemble(src string, tools []Tool) assembled {
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, ProgramFile, src, parser.PackageClauseOnly); err != nil {
		// No package clause (or a broken one): a bare file is package main.
		if !strings.HasPrefix(strings.TrimSpace(src), "package") {
			src = "package main; " + src
		}
	}
	var extra []string
	if f, err := parser.ParseFile(fset, ProgramFile, src, 0); err == nil {
		extra = missingImports(f)
	}
	head, rest := splitPackage(src)
	add := ""
	for _, p := range extra {
		add += "; import " + strconv.Quote(p)
	}
	checked := head + add + rest
	run := head + "; import " + bridgeAlias + " " + strconv.Quote(bridgePath) + add + rest + "\n" + Generate(tools)
	return assembled{checked: checked, run: run}
}

// splitPackage cuts src after its package clause's name.
func splitPackage(src string) (string, string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, ProgramFile, src, parser.PackageClauseOnly)
	if err != nil {
		return src, ""
	}
	off := fset.Position(f.Name.End()).Offset
	return src[:off], src[off:]
}

// missingImports lists the autoImports a file uses as pkg.Name without
// importing them (an unresolved identifier: not declared in the file).
func missingImports(f *ast.File) []string {
	have := map[string]bool{}
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		have[name] = true
	}
	need := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil && !have[id.Name] {
			if p, ok := autoImports[id.Name]; ok {
				need[p] = true
			}
		}
		return true
	})
	out := make([]string, 0, len(need))
	for p := range need {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
