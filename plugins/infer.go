package plugins

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
)

// The interpreter crashes without a position on range over an integer or
// a function, so the checker finds those itself. Without a type checker it
// infers just enough: literals, local declarations, and the reflect types
// of library and SDK symbols (so n := req.Int("n", 3) is known to be int).

type exprKind int

const (
	kindUnknown exprKind = iota
	kindInt
	kindFunc
	kindOther // a value of another known type
)

// guess is what the checker knows of an expression's type.
type guess struct {
	kind exprKind
	rt   reflect.Type // set when the type is a known library type
}

var (
	unknown = guess{}
	intG    = guess{kind: kindInt}
	funcG   = guess{kind: kindFunc}
	otherG  = guess{kind: kindOther}
)

var intTypes = setOf("int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune")

const maxInferDepth = 8

func fromReflect(rt reflect.Type) guess {
	if rt == nil {
		return unknown
	}
	switch rt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return guess{kind: kindInt, rt: rt}
	case reflect.Func:
		return guess{kind: kindFunc, rt: rt}
	}
	return guess{kind: kindOther, rt: rt}
}

// builtin reports whether an identifier is a predeclared name (not shadowed
// by a local or package-level declaration).
func (c *checker) builtin(id *ast.Ident) bool { return id.Obj == nil && c.pkgDecls[id.Name] == nil }

// exprType guesses the type of a value expression.
func (c *checker) exprType(e ast.Expr, depth int) guess {
	if depth > maxInferDepth {
		return unknown
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.exprType(e.X, depth+1)
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.CHAR {
			return intG
		}
		return otherG
	case *ast.CompositeLit:
		return otherG
	case *ast.FuncLit:
		return funcG
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD, token.XOR:
			return c.exprType(e.X, depth+1)
		case token.AND:
			if g := c.exprType(e.X, depth+1); g.rt != nil {
				return fromReflect(reflect.PointerTo(g.rt))
			}
			return otherG
		}
		return otherG
	case *ast.StarExpr:
		if g := c.exprType(e.X, depth+1); g.rt != nil && g.rt.Kind() == reflect.Pointer {
			return fromReflect(g.rt.Elem())
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.SHL, token.SHR, token.AND, token.OR, token.XOR, token.AND_NOT:
			x, y := c.exprType(e.X, depth+1), c.exprType(e.Y, depth+1)
			if x.kind == kindInt || y.kind == kindInt {
				return intG
			}
			if x.kind == kindOther || y.kind == kindOther {
				return otherG
			}
		default:
			return otherG // comparisons and logic give bool
		}
	case *ast.CallExpr:
		if r := c.results(e, depth+1); len(r) > 0 {
			return r[0]
		}
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok && id.Obj == nil {
			if p, ok := c.imports[id.Name]; ok {
				v, ok := c.lib.symbol(p, e.Sel.Name)
				switch {
				case !ok:
					return unknown
				case v.CanAddr():
					return fromReflect(v.Type())
				case v.Kind() == reflect.Func:
					return fromReflect(v.Type())
				}
				return unknown // a type or constant
			}
		}
		base := c.exprType(e.X, depth+1).rt
		if base == nil {
			return unknown
		}
		if _, ok := methodType(base, e.Sel.Name); ok {
			return funcG
		}
		for base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		if base.Kind() == reflect.Struct {
			if f, ok := base.FieldByName(e.Sel.Name); ok {
				return fromReflect(f.Type)
			}
		}
	case *ast.Ident:
		return c.identType(e, depth+1)
	}
	return unknown
}

func (c *checker) identType(id *ast.Ident, depth int) guess {
	switch d := c.decl(id).(type) {
	case *ast.FuncDecl:
		return funcG
	case *ast.ValueSpec:
		if d.Type != nil {
			return c.typeExpr(d.Type, depth+1)
		}
		for i, n := range d.Names {
			if n.Name != id.Name {
				continue
			}
			if len(d.Values) == len(d.Names) {
				return c.exprType(d.Values[i], depth+1)
			}
			if len(d.Values) == 1 {
				if call, ok := d.Values[0].(*ast.CallExpr); ok {
					if r := c.results(call, depth+1); i < len(r) {
						return r[i]
					}
				}
			}
		}
	case *ast.AssignStmt:
		for i, l := range d.Lhs {
			lid, ok := l.(*ast.Ident)
			if !ok || lid.Name != id.Name {
				continue
			}
			if len(d.Lhs) == len(d.Rhs) {
				return c.exprType(d.Rhs[i], depth+1)
			}
			if len(d.Rhs) == 1 {
				if call, ok := d.Rhs[0].(*ast.CallExpr); ok {
					if r := c.results(call, depth+1); i < len(r) {
						return r[i]
					}
				}
			}
		}
	case *ast.Field:
		return c.typeExpr(d.Type, depth+1)
	}
	return unknown
}

// results guesses the result types of a call (or a conversion).
func (c *checker) results(call *ast.CallExpr, depth int) []guess {
	if depth > maxInferDepth {
		return nil
	}
	switch f := call.Fun.(type) {
	case *ast.ParenExpr:
		return c.results(&ast.CallExpr{Fun: f.X, Args: call.Args}, depth+1)
	case *ast.Ident:
		if c.builtin(f) {
			switch {
			case f.Name == "len" || f.Name == "cap" || f.Name == "copy" || intTypes[f.Name]:
				return []guess{intG}
			case f.Name == "string" || f.Name == "float64" || f.Name == "float32" || f.Name == "bool":
				return []guess{otherG}
			}
			return nil
		}
		switch d := c.decl(f).(type) {
		case *ast.FuncDecl:
			return c.fieldTypes(d.Type.Results, depth+1)
		case *ast.TypeSpec:
			return []guess{c.typeExpr(d.Type, depth+1)} // conversion
		}
		if g := c.identType(f, depth+1); g.rt != nil && g.rt.Kind() == reflect.Func {
			return outs(g.rt)
		}
	case *ast.FuncLit:
		return c.fieldTypes(f.Type.Results, depth+1)
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok && id.Obj == nil {
			if p, ok := c.imports[id.Name]; ok {
				v, ok := c.lib.symbol(p, f.Sel.Name)
				switch {
				case !ok:
					return nil
				case v.Kind() == reflect.Func && !v.CanAddr():
					return outs(v.Type())
				case v.Kind() == reflect.Pointer && v.IsNil():
					return []guess{fromReflect(v.Type().Elem())} // conversion to a library type
				}
				return nil
			}
		}
		if base := c.exprType(f.X, depth+1).rt; base != nil {
			if mt, ok := methodType(base, f.Sel.Name); ok {
				return outs(mt)
			}
		}
	}
	return nil
}

// methodType is the type of a method value (receiver bound).
func methodType(rt reflect.Type, name string) (reflect.Type, bool) {
	for _, t := range []reflect.Type{rt, reflect.PointerTo(rt)} {
		if m, ok := t.MethodByName(name); ok {
			if t.Kind() == reflect.Interface {
				return m.Type, true
			}
			in := make([]reflect.Type, 0, m.Type.NumIn()-1)
			for i := 1; i < m.Type.NumIn(); i++ {
				in = append(in, m.Type.In(i))
			}
			out := make([]reflect.Type, m.Type.NumOut())
			for i := range out {
				out[i] = m.Type.Out(i)
			}
			return reflect.FuncOf(in, out, m.Type.IsVariadic()), true
		}
	}
	return nil, false
}

func outs(ft reflect.Type) []guess {
	r := make([]guess, ft.NumOut())
	for i := range r {
		r[i] = fromReflect(ft.Out(i))
	}
	return r
}

func (c *checker) fieldTypes(fl *ast.FieldList, depth int) []guess {
	if fl == nil {
		return nil
	}
	var out []guess
	for _, f := range fl.List {
		g := c.typeExpr(f.Type, depth+1)
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for range n {
			out = append(out, g)
		}
	}
	return out
}

// typeExpr guesses what a type expression denotes.
func (c *checker) typeExpr(t ast.Expr, depth int) guess {
	if depth > maxInferDepth {
		return unknown
	}
	switch t := t.(type) {
	case *ast.ParenExpr:
		return c.typeExpr(t.X, depth+1)
	case *ast.FuncType:
		return funcG
	case *ast.Ident:
		if ts, ok := c.decl(t).(*ast.TypeSpec); ok {
			return c.typeExpr(ts.Type, depth+1)
		}
		if intTypes[t.Name] && c.builtin(t) {
			return intG
		}
		return otherG
	case *ast.StarExpr:
		if g := c.typeExpr(t.X, depth+1); g.rt != nil {
			return fromReflect(reflect.PointerTo(g.rt))
		}
		return otherG
	case *ast.SelectorExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			if p, ok := c.imports[id.Name]; ok {
				if v, ok := c.lib.symbol(p, t.Sel.Name); ok && v.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr() {
					return fromReflect(v.Type().Elem())
				}
			}
		}
		return unknown
	}
	return otherG
}

// decl is the declaration an identifier refers to: local (resolved by the
// parser) or package-level (any file).
func (c *checker) decl(id *ast.Ident) ast.Node {
	if id.Obj != nil {
		if n, ok := id.Obj.Decl.(ast.Node); ok {
			return n
		}
		return nil
	}
	return c.pkgDecls[id.Name]
}

// rangeSuspects lists the range statements whose operand type is unknown:
// after the interpreter crashed without a position, these are where a
// range over an integer or a function may hide.
func (h *Host) rangeSuspects(src *source) []string {
	c := &checker{src: src, lib: h.lib(), pkgDecls: map[string]ast.Node{}}
	for _, f := range src.files {
		c.collectDecls(f.ast)
	}
	var out []string
	for _, f := range src.files {
		c.imports = fileImports(f.ast)
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok && r.X != nil && c.exprType(r.X, 0).kind == kindUnknown {
				p := src.fset.Position(r.Pos())
				out = append(out, fmt.Sprintf("%s:%d", p.Filename, p.Line))
			}
			return true
		})
	}
	return out
}
