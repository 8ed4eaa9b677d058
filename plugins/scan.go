package plugins

import (
	"fmt"
	"go/ast"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/hostsyms"
)

const dialectNote = "the plugin dialect is Go 1.22-level"

// checker runs the static checks on a plugin's source before any of it is
// interpreted: goroutines, imports and permissions, and Go the interpreter
// does not support. It reports every problem at once.
type checker struct {
	src      *source
	cat      *catalog
	lib      *library
	capName  string
	declared skillmd.Permissions
	// pkgDecls are the package-level declarations of all files.
	pkgDecls map[string]ast.Node
	// imports maps the names imported by the file being checked to paths.
	imports  map[string]string
	problems []error
}

func (h *Host) check(src *source, cat *catalog, capName string, declared skillmd.Permissions) error {
	c := &checker{src: src, cat: cat, lib: h.lib(), capName: capName, declared: declared, pkgDecls: map[string]ast.Node{}}
	for _, f := range src.files {
		c.collectDecls(f.ast)
	}
	for _, f := range src.files {
		c.file(f.ast)
	}
	if !src.hasInit() {
		c.problems = append(c.problems, &SourceError{File: pluginDir + "/", kinds: []error{ErrInit},
			Msg: "no func Init: declare func Init(env *sdk.Env) (*sdk.Plugin, error) in package " + src.pkgName})
	}
	if len(c.problems) == 0 {
		return nil
	}
	return joinProblems(c.problems)
}

func (c *checker) add(pos token.Pos, kind error, format string, args ...any) {
	c.problems = append(c.problems, c.src.problem(pos, kind, format, args...))
}

func (c *checker) collectDecls(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				c.pkgDecls[d.Name.Name] = d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					c.pkgDecls[s.Name.Name] = s
				case *ast.ValueSpec:
					for _, n := range s.Names {
						c.pkgDecls[n.Name] = s
					}
				}
			}
		}
	}
}

// grantHint tells how to get a permission.
func (c *checker) grantHint(perms []string) string {
	list := strings.Join(perms, ",")
	hint := fmt.Sprintf("the user grants it when enabling %s (permission %s)", c.capName, list)
	var undeclared []string
	for _, p := range perms {
		if !c.declared.Has(p) {
			undeclared = append(undeclared, p)
		}
	}
	if len(undeclared) > 0 {
		hint = fmt.Sprintf("declare it in SKILL.md (permissions: [%s]) and %s", strings.Join(undeclared, ", "), hint)
	}
	return hint
}

func permWord(perms []string) string {
	if len(perms) == 1 {
		return "the " + perms[0] + " permission"
	}
	return "the " + strings.Join(perms, " and ") + " permissions"
}

func (c *checker) file(f *ast.File) {
	imports := fileImports(f)
	var dotImports []*ast.ImportSpec
	for _, spec := range f.Imports {
		if spec.Name != nil && spec.Name.Name == "." {
			dotImports = append(dotImports, spec)
		}
	}
	c.imports = imports
	used := c.selectors(f, imports)

	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		c.importProblem(spec, p, used[p])
	}
	for _, spec := range dotImports {
		if p, _ := strconv.Unquote(spec.Path.Value); p != "" && c.cat.policy.pkgAllowed(p) && !c.cat.policy.trusted {
			if p == "os" || gatedPackage(p) {
				c.add(spec.Pos(), ErrImport, "dot import of %q: import it by name so its use can be checked", p)
			}
		}
	}
	c.dialect(f)
	c.sideDoors(f)
}

// sideDoors reports method calls that reach the disk without the files
// permission (gatedMethods) and connections whose network is not a string
// literal naming TCP, UDP or IP (dialNames): a unix socket is a file.
func (c *checker) sideDoors(f *ast.File) {
	pol := c.cat.policy
	if pol.allows(skillmd.PermFiles) {
		return
	}
	called := map[*ast.SelectorExpr]*ast.CallExpr{}
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				called[sel] = call
			}
		}
		return true
	})
	hint := c.grantHint([]string{skillmd.PermFiles})
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		name := sel.Sel.Name
		pkg := ""
		if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
			pkg = c.imports[id.Name]
		}
		if why, ok := gatedMethods[name]; ok && pkg == "" {
			c.add(sel.Sel.Pos(), ErrPermission, ".%s needs the files permission: %s (a method of your own by that name needs another name); %s", name, why, hint)
			return true
		}
		if !dialNames[name] || !pol.allows(skillmd.PermNetwork) || (pkg != "" && pkg != "net" && pkg != "crypto/tls" && pkg != "net/textproto") {
			return true
		}
		call := called[sel]
		if call == nil {
			c.add(sel.Sel.Pos(), ErrPermission, "%s used as a value: call it with the network as a string literal (\"tcp\", \"udp\"), so a unix socket, which is a file and needs the files permission, can be told apart; %s", selName(sel), hint)
			return true
		}
		network, ok := networkArg(pkg, name, call)
		switch {
		case !ok:
			c.add(call.Pos(), ErrPermission, "%s: pass the network as a string literal (\"tcp\", \"tcp4\", \"udp\"...)%s, so it can be checked: a unix socket is a file and needs the files permission; %s", selName(sel), networkPlace(pkg, name), hint)
		case strings.HasPrefix(network, "unix"):
			c.add(call.Pos(), ErrPermission, "%s(%q, ...): a unix socket is a file and needs the files permission; %s", selName(sel), network, hint)
		case !ipNetwork(network):
			c.add(call.Pos(), ErrPermission, "%s(%q, ...): %q is not a TCP, UDP or IP network; a unix socket is a file and needs the files permission; %s", selName(sel), network, network, hint)
		}
		return true
	})
}

// selName renders x.Name for a message.
func selName(sel *ast.SelectorExpr) string {
	if id, ok := sel.X.(*ast.Ident); ok {
		return id.Name + "." + sel.Sel.Name
	}
	return "." + sel.Sel.Name
}

// networkPositions is where each dial or listen function of the library
// takes its network: net.Dial(network, address), tls.DialWithDialer(dialer,
// network, address, config)...
var networkPositions = map[string]int{
	"net.Dial": 0, "net.DialTimeout": 0, "net.Listen": 0, "net.ListenPacket": 0,
	"crypto/tls.Dial": 0, "crypto/tls.DialWithDialer": 1, "crypto/tls.Listen": 0,
	"net/textproto.Dial": 0,
}

// methodNetworkPositions is the same for methods and function fields,
// whose receiver the checker cannot see: net.Dialer's Dial(network,
// address) and DialContext(ctx, network, address), tls.Dialer's,
// net.ListenConfig's Listen(ctx, network, address), http.Transport's
// DialContext and DialTLSContext fields.
var methodNetworkPositions = map[string]int{
	"Dial": 0, "DialTimeout": 0, "DialTLS": 0, "DialWithDialer": 1,
	"DialContext": 1, "DialTLSContext": 1, "Listen": 1, "ListenPacket": 1,
}

// networkIndex is the position of the network argument of pkg.name (a
// method when pkg is ""); -1 when it is not known.
func networkIndex(pkg, name string) int {
	if pkg == "" {
		if i, ok := methodNetworkPositions[name]; ok {
			return i
		}
		return -1
	}
	if i, ok := networkPositions[pkg+"."+name]; ok {
		return i
	}
	return -1
}

// networkPlace says where the network goes, for a message.
func networkPlace(pkg, name string) string {
	switch networkIndex(pkg, name) {
	case 0:
		return " as its first argument"
	case 1:
		return " as its second argument"
	}
	return ""
}

// networkArg is the network of a dial or listen call: the string literal
// in the network's position of that function, and nothing else. A constant,
// a concatenation or a variable is not accepted: "un"+"ix" is a unix socket
// however it is spelt, and the checker does not evaluate expressions.
func networkArg(pkg, name string, call *ast.CallExpr) (string, bool) {
	i := networkIndex(pkg, name)
	if i < 0 || i >= len(call.Args) || call.Ellipsis.IsValid() {
		return "", false
	}
	a := call.Args[i]
	for {
		p, ok := a.(*ast.ParenExpr)
		if !ok {
			break
		}
		a = p.X
	}
	lit, ok := a.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// ipNetwork reports whether network names TCP, UDP or raw IP (not a unix
// socket, not anything unknown).
func ipNetwork(network string) bool {
	switch network {
	case "tcp", "tcp4", "tcp6", "udp", "udp4", "udp6", "ip", "ip4", "ip6":
		return true
	}
	proto, rest, ok := strings.Cut(network, ":")
	return ok && rest != "" && (proto == "ip" || proto == "ip4" || proto == "ip6")
}

// fileImports maps the names a file imports to their paths.
func fileImports(f *ast.File) map[string]string {
	imports := map[string]string{}
	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		name := defaultName(p)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name != "_" && name != "." {
			imports[name] = p
		}
	}
	return imports
}

// defaultName is the package name an import path gets without a rename:
// its last element, skipping a major-version suffix (math/rand/v2 → rand).
func defaultName(p string) string {
	if p == hostsyms.SDKPath {
		return "sdk"
	}
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" && path.Dir(p) != "." {
		return path.Base(path.Dir(p))
	}
	return base
}

func gatedPackage(p string) bool {
	for k := range gatedSymbols {
		if strings.HasPrefix(k, p+".") {
			return true
		}
	}
	return false
}

// use is one pkg.Sym reference.
type use struct {
	sym string
	pos token.Pos
}

// selectors finds every pkg.Sym of an imported package, checking each
// against what this plugin may use, and returns them by import path.
func (c *checker) selectors(f *ast.File, imports map[string]string) map[string][]use {
	out := map[string][]use{}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil {
			return true
		}
		p, ok := imports[id.Name]
		if !ok {
			return true
		}
		out[p] = append(out[p], use{sym: sel.Sel.Name, pos: sel.Pos()})
		return true
	})
	for p, uses := range out {
		if !c.cat.policy.pkgAllowed(p) {
			continue // reported once at the import
		}
		for _, u := range uses {
			c.symbolProblem(p, u)
		}
	}
	return out
}

// symbolProblem explains why pkg.sym is not available, if it is not.
func (c *checker) symbolProblem(pkg string, u use) {
	if c.cat.names[pkg][u.sym] {
		return
	}
	ref := defaultName(pkg) + "." + u.sym
	if why, ok := limitedNetSymbols[pkg+"."+u.sym]; ok && c.cat.policy.limitHosts {
		c.add(u.pos, ErrPermission, "%s %s. It cannot be held to the hosts %s declares under permissions: network; to use it, declare any host instead (network: [\"*\"])", ref, why, c.capName)
		return
	}
	if d, ok := deniedSymbols[pkg+"."+u.sym]; ok {
		c.add(u.pos, d.kind, "%s %s", ref, d.why)
		return
	}
	if !c.lib.hasSymbol(pkg, u.sym) && pkg != hostsyms.SDKPath {
		hint := ""
		if pkg == "slices" || pkg == "maps" {
			hint = "; the interpreter's " + pkg + " package is partial: use sort.Slice, sort.Strings or a loop"
		}
		c.add(u.pos, ErrDialect, "%s is not in the interpreter's standard library (%s)%s", ref, dialectNote, hint)
		return
	}
	if pkg == hostsyms.SDKPath {
		c.add(u.pos, ErrCompile, "%s is not in this version of the plugin SDK", ref)
		return
	}
	if perm := symbolPerm(pkg, u.sym); perm != "" && !c.cat.policy.allows(perm) {
		c.add(u.pos, ErrPermission, "%s needs %s; %s", ref, permWord([]string{perm}), c.grantHint([]string{perm}))
		return
	}
	c.add(u.pos, ErrImport, "%s is not available to plugins", ref)
}

// importProblem explains why an import is not available, if it is not.
func (c *checker) importProblem(spec *ast.ImportSpec, p string, uses []use) {
	pol := c.cat.policy
	switch {
	case p == hostsyms.SDKPath:
		return
	case p == "C":
		c.add(spec.Pos(), ErrDialect, `import "C": cgo is not supported (%s, pure Go only)`, dialectNote)
		return
	case p == "embed":
		c.add(spec.Pos(), ErrDialect, `import "embed": //go:embed is not supported (%s); read bundled files from env.PluginDir`, dialectNote)
		return
	case deniedPackages[p]:
		c.add(spec.Pos(), ErrImport, "import %q is not available to plugins", p)
		return
	case !isStdPath(p):
		c.add(spec.Pos(), ErrImport, "import %q: plugins may import only the standard library and %s; copy the code you need into plugin/", p, hostsyms.SDKPath)
		return
	case !c.lib.has(p):
		c.add(spec.Pos(), ErrDialect, "import %q: the package is not in the interpreter's standard library (%s)", p, dialectNote)
		return
	case pol.pkgAllowed(p):
		return
	}
	var perms []string
	switch {
	case p == "os":
		need := map[string]bool{}
		for _, u := range uses {
			if _, denied := deniedSymbols["os."+u.sym]; !denied {
				need[symbolPerm("os", u.sym)] = true
			}
		}
		if len(need) == 0 {
			need[skillmd.PermFiles] = true
		}
		for _, k := range skillmd.KnownPermissions {
			if need[k] {
				perms = append(perms, k)
			}
		}
	case permPackages[p] != "":
		perms = []string{permPackages[p]}
	case pol.trusted:
		c.add(spec.Pos(), ErrImport, "import %q is not available to plugins: Wrasse does not link it (plugins/policy.go lists the library)", p)
		return
	default:
		c.add(spec.Pos(), ErrImport, "import %q is not available to plugins that do not ship with Wrasse", p)
		return
	}
	sort.Strings(perms)
	c.add(spec.Pos(), ErrPermission, "import %q needs %s; %s", p, permWord(perms), c.grantHint(perms))
}

// isStdPath reports whether an import path looks like the standard library
// (no dot in its first element).
func isStdPath(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

// dialect reports goroutines and Go the interpreter does not support.
func (c *checker) dialect(f *ast.File) {
	for _, cg := range f.Comments {
		for _, cm := range cg.List {
			if strings.HasPrefix(cm.Text, "//go:embed") {
				c.add(cm.Pos(), ErrDialect, "//go:embed is not supported (%s); read bundled files from env.PluginDir", dialectNote)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			c.add(n.Pos(), ErrGoroutine, "go statement: plugins may not start goroutines (a panic there would crash Wrasse); do the work inside the handler")
		case *ast.TypeSpec:
			if n.Assign.IsValid() && n.TypeParams != nil {
				c.add(n.Pos(), ErrDialect, "generic type alias %s is not supported (%s); declare a defined type instead", n.Name.Name, dialectNote)
			}
		case *ast.RangeStmt:
			switch c.exprType(n.X, 0).kind {
			case kindInt:
				c.add(n.Pos(), ErrDialect, "range over an integer is not supported (%s, without range-over-int); write for i := 0; i < n; i++", dialectNote)
			case kindFunc:
				c.add(n.Pos(), ErrDialect, "range over a function (iterator) is not supported (%s); call the function with a callback or loop over a slice", dialectNote)
			}
		case *ast.CompositeLit:
			if c.isExecCmd(n.Type) {
				c.add(n.Pos(), ErrImport, "%s", bareCmd)
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "new" && c.builtin(id) && len(n.Args) == 1 && c.isExecCmd(n.Args[0]) {
				c.add(n.Pos(), ErrImport, "%s", bareCmd)
			}
			id, ok := n.Fun.(*ast.Ident)
			if !ok || id.Obj != nil || c.pkgDecls[id.Name] != nil {
				return true
			}
			switch id.Name {
			case "min", "max", "clear":
				c.add(n.Pos(), ErrDialect, "the %s builtin is not supported (%s, without the Go 1.21 builtins min, max and clear); write it out", id.Name, dialectNote)
			case "new":
				if len(n.Args) == 1 && c.exprType(n.Args[0], 0).kind != kindUnknown {
					c.add(n.Pos(), ErrDialect, "new with a value is not supported (%s); declare a variable and take its address", dialectNote)
				}
			}
		}
		return true
	})
}

const bareCmd = "build commands with exec.Command or exec.CommandContext: they start in the plugin's environment, while a bare exec.Cmd would inherit Wrasse's (with its API keys)"

// isExecCmd reports whether a type expression is os/exec's Cmd.
func (c *checker) isExecCmd(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Obj == nil && c.imports[id.Name] == "os/exec" && sel.Sel.Name == "Cmd"
}
