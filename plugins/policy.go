package plugins

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"reflect"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"
	gen "github.com/traefik/yaegi/stdlib/generic"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/hostsyms"
	"github.com/wrasse-app/wrasse/plugins/hostsyms/std"
)

// The tables below are read-only: which library a plugin may use.

// basePackages are pure packages every plugin may import.
var basePackages = setOf(
	"archive/tar", "archive/zip", "bufio", "bytes", "cmp",
	"compress/bzip2", "compress/flate", "compress/gzip", "compress/lzw", "compress/zlib",
	"container/heap", "container/list", "container/ring", "context",
	"crypto/hmac", "crypto/md5", "crypto/rand", "crypto/sha1", "crypto/sha256", "crypto/sha512", "crypto/subtle",
	"encoding", "encoding/ascii85", "encoding/base32", "encoding/base64", "encoding/binary", "encoding/csv",
	"encoding/hex", "encoding/json", "encoding/pem", "encoding/xml",
	"errors", "fmt",
	"hash", "hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "hash/maphash",
	"html", "io", "io/fs", "log", "maps",
	"math", "math/big", "math/bits", "math/cmplx", "math/rand", "math/rand/v2",
	"mime", "mime/multipart", "mime/quotedprintable", "net/netip", "net/url",
	"path", "path/filepath", "regexp", "regexp/syntax", "slices", "sort", "strconv", "strings",
	"sync", "sync/atomic", "text/scanner", "text/tabwriter", "time",
	"unicode", "unicode/utf16", "unicode/utf8",
)

// permPackages need a permission for plugins that do not ship with the app.
var permPackages = map[string]string{
	"os/exec":             skillmd.PermExec,
	"net":                 skillmd.PermNetwork,
	"net/http":            skillmd.PermNetwork,
	"net/http/cookiejar":  skillmd.PermNetwork,
	"net/http/httptrace":  skillmd.PermNetwork,
	"net/http/httputil":   skillmd.PermNetwork,
	"net/mail":            skillmd.PermNetwork,
	"net/smtp":            skillmd.PermNetwork,
	"net/textproto":       skillmd.PermNetwork,
	"crypto/tls":          skillmd.PermNetwork,
	"crypto/x509":         skillmd.PermNetwork,
	"crypto/x509/pkix":    skillmd.PermNetwork,
	"io/ioutil":           skillmd.PermFiles,
	"text/template":       skillmd.PermFiles, // Template.ParseFiles reads any file
	"text/template/parse": skillmd.PermFiles,
	"html/template":       skillmd.PermFiles,
}

// gatedSymbols are symbols of base packages that touch the file system.
var gatedSymbols = map[string]string{
	"path/filepath.EvalSymlinks": skillmd.PermFiles,
	"path/filepath.Glob":         skillmd.PermFiles,
	"path/filepath.Walk":         skillmd.PermFiles,
	"path/filepath.WalkDir":      skillmd.PermFiles,
	"archive/zip.OpenReader":     skillmd.PermFiles,
	// net/http and crypto/tls need network; these also read files.
	"net/http.Dir":               skillmd.PermFiles, // http.Dir("/").Open reads any file
	"net/http.ServeFile":         skillmd.PermFiles,
	"net/http.ListenAndServeTLS": skillmd.PermFiles, // certificate and key files
	"net/http.NewFileTransport":  skillmd.PermFiles,
	"crypto/tls.LoadX509KeyPair": skillmd.PermFiles,
	// Unix sockets are files: connecting to one reaches a local service
	// (a Docker daemon, an SSH agent), binding one creates a file.
	"net.DialUnix":        skillmd.PermFiles,
	"net.ListenUnix":      skillmd.PermFiles,
	"net.ListenUnixgram":  skillmd.PermFiles,
	"net.ResolveUnixAddr": skillmd.PermFiles,
	"net.UnixAddr":        skillmd.PermFiles,
	"net.FileConn":        skillmd.PermFiles,
	"net.FileListener":    skillmd.PermFiles,
	"net.FilePacketConn":  skillmd.PermFiles,
}

// gatedMethods are methods of library types that reach the disk: a
// static check cannot tell the receiver's type, so any selector of that
// name needs the permission. ReadForm and the http.Request methods built
// on it write parts larger than their memory limit to temporary files,
// and the FileHeaders they return open those files.
var gatedMethods = map[string]string{
	"ReadForm":           "mime/multipart.Reader.ReadForm writes large parts to temporary files",
	"ParseMultipartForm": "net/http.Request.ParseMultipartForm writes large parts to temporary files",
	"FormFile":           "net/http.Request.FormFile parses the form into temporary files",
	"FormValue":          "net/http.Request.FormValue parses a multipart form into temporary files",
	"PostFormValue":      "net/http.Request.PostFormValue parses a multipart form into temporary files",
	"ListenAndServeTLS":  "net/http.Server.ListenAndServeTLS reads certificate and key files",
	"ServeTLS":           "net/http.Server.ServeTLS reads certificate and key files",
}

// dialNames are the functions, methods and fields that open a connection
// or listener on a network named by a string ("tcp", "unix", ...): net.Dial,
// net.Dialer.DialContext, net.ListenConfig.Listen, tls.Dial,
// http.Transport.DialContext... The network must be a string literal so
// that a unix socket (a file) is seen.
var dialNames = setOf("Dial", "DialContext", "DialTimeout", "DialWithDialer", "DialTLS", "DialTLSContext", "Listen", "ListenPacket")

// osEnvSymbols read or change the plugin's virtual environment.
var osEnvSymbols = setOf("Getenv", "LookupEnv", "Environ", "ExpandEnv", "Expand", "Setenv", "Unsetenv", "Clearenv")

// osProcessSymbols start or signal processes.
var osProcessSymbols = setOf("StartProcess", "FindProcess", "Process", "ProcAttr", "ProcessState",
	"Kill", "Interrupt", "Signal", "ErrProcessDone", "Executable")

// denial says why a symbol is absent for every plugin.
type denial struct {
	kind error
	why  string
}

// deniedSymbols are absent for every plugin, trusted or not.
var deniedSymbols = map[string]denial{
	"time.AfterFunc":             {ErrGoroutine, "runs a function on its own goroutine; a panic there would crash Wrasse. Do the work inside the handler"},
	"context.AfterFunc":          {ErrGoroutine, "runs a function on its own goroutine; a panic there would crash Wrasse. Do the work inside the handler"},
	"os.Exit":                    {ErrImport, "would stop Wrasse; return an error instead"},
	"os.Chdir":                   {ErrImport, "would change Wrasse's working folder; build absolute paths with env.Resolve"},
	"os.Args":                    {ErrImport, "is not available: plugins get their inputs from tool arguments and env"},
	"os.Stdin":                   {ErrImport, "is not available: plugins have no terminal"},
	"os.Stdout":                  {ErrImport, "is not available: write with fmt.Print (it goes to Wrasse's log) or env.Log"},
	"os.Stderr":                  {ErrImport, "is not available: write with fmt.Print (it goes to Wrasse's log) or env.Log"},
	"log.Default":                {ErrImport, "would change Wrasse's own logger; use env.Log"},
	"log/slog.SetDefault":        {ErrImport, "would change Wrasse's own logger; use env.Log"},
	"log/slog.SetLogLoggerLevel": {ErrImport, "would change Wrasse's own logger; use env.Log"},
}

// builtinPackages are what plugins that ship with the app may import beyond
// every package above. Only the packages of these tables are linked into
// Wrasse for plugins (plugins/hostsyms/std); the rest of the interpreter's
// standard library is not, and an import of it is not available.
var builtinPackages = setOf("reflect", "runtime")

// deniedPackages are absent for every plugin.
var deniedPackages = setOf("github.com/traefik/yaegi/stdlib", "unsafe", "syscall")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// policy is what one load may use.
type policy struct {
	trusted bool
	// granted are the known permissions the user granted (ignored when trusted).
	granted map[string]bool
	// limitHosts is set for a plugin that does not ship with the app, may
	// use the network and declares which hosts (not "*"): what could
	// connect past the host check (limitedNetSymbols) is not available.
	limitHosts bool
}

func newPolicy(trusted bool, granted []string) policy {
	p := policy{trusted: trusted, granted: map[string]bool{}}
	for _, g := range granted {
		g = strings.ToLower(strings.TrimSpace(g))
		for _, k := range skillmd.KnownPermissions {
			if g == k {
				p.granted[g] = true
			}
		}
	}
	return p
}

func (p policy) allows(perm string) bool { return p.trusted || p.granted[perm] }

// key identifies the catalog of a policy.
func (p policy) key() string {
	if p.trusted {
		return "trusted"
	}
	var g []string
	for _, k := range skillmd.KnownPermissions {
		if p.granted[k] {
			g = append(g, k)
		}
	}
	k := "granted:" + strings.Join(g, ",")
	if p.limitHosts {
		k += ";hosts"
	}
	return k
}

// pkgAllowed reports whether a plugin under this policy may import pkg.
func (p policy) pkgAllowed(pkg string) bool {
	if deniedPackages[pkg] {
		return false
	}
	if pkg == hostsyms.SDKPath || basePackages[pkg] {
		return true
	}
	if p.trusted {
		_, perm := permPackages[pkg]
		return perm || builtinPackages[pkg] || pkg == "os"
	}
	if pkg == "os" {
		return p.granted[skillmd.PermFiles] || p.granted[skillmd.PermEnv] || p.granted[skillmd.PermExec]
	}
	perm, ok := permPackages[pkg]
	return ok && p.granted[perm]
}

// symbolPerm is the permission a symbol of an allowed package needs
// ("" for none).
func symbolPerm(pkg, sym string) string {
	if pkg == "os" {
		switch {
		case osEnvSymbols[sym]:
			return skillmd.PermEnv
		case osProcessSymbols[sym]:
			return skillmd.PermExec
		}
		return skillmd.PermFiles
	}
	return gatedSymbols[pkg+"."+sym]
}

func (p policy) symbolAllowed(pkg, sym string) bool {
	if _, denied := deniedSymbols[pkg+"."+sym]; denied {
		return false
	}
	if _, limited := limitedNetSymbols[pkg+"."+sym]; limited && p.limitHosts {
		return false
	}
	perm := symbolPerm(pkg, sym)
	return perm == "" || p.allows(perm)
}

// catalog is the library one policy allows: the Exports handed to
// interpreters and the names the static checks resolve against. It is
// built once per policy and shared read-only.
type catalog struct {
	policy policy
	// exports are every allowed package but os and os/exec, whose symbols
	// are built per interpreter (virtual environment).
	exports interp.Exports
	// vars are the addressable package variables of exports, copied per
	// interpreter so a plugin cannot reassign a process-wide variable.
	vars [][2]string
	// osSyms are the os symbols allowed; exec reports os/exec allowed.
	osSyms map[string]bool
	exec   bool
	// names maps every importable path to its available symbols.
	names map[string]map[string]bool
}

// genericNames lists the exported names of the generic stdlib packages the
// interpreter compiles from source (cmp, maps, slices): they have no entry
// in std.Symbols.
func genericNames() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	for _, src := range gen.Sources {
		f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		names := out[f.Name.Name]
		if names == nil {
			names = map[string]bool{}
			out[f.Name.Name] = names
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names[s.Name.Name] = true
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return out
}

// newCatalog filters the interpreter's standard library through a policy.
func newCatalog(p policy, lib *library) *catalog {
	c := &catalog{policy: p, exports: interp.Exports{}, osSyms: map[string]bool{}, names: map[string]map[string]bool{}}
	keys := make([]string, 0, len(std.Symbols()))
	for k := range std.Symbols() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		syms := std.Symbols()[key]
		if key == "." {
			// MapTypes lets fmt see interpreted String methods (pitfall 6).
			c.exports[key] = syms
			continue
		}
		pkg := path.Dir(key)
		if !p.pkgAllowed(pkg) {
			continue
		}
		if pkg == "os" {
			for name := range syms {
				if p.symbolAllowed(pkg, name) {
					c.osSyms[name] = true
				}
			}
			c.names[pkg] = c.osSyms
			continue
		}
		m := make(map[string]reflect.Value, len(syms))
		names := map[string]bool{}
		for name, v := range syms {
			if !p.symbolAllowed(pkg, name) {
				continue
			}
			m[name] = v
			if strings.HasPrefix(name, "_") {
				continue // interface wrappers, not importable names
			}
			names[name] = true
			if v.CanAddr() && !(pkg == "flag" && name == "CommandLine") {
				c.vars = append(c.vars, [2]string{key, name})
			}
		}
		c.exports[key] = m
		c.names[pkg] = names
	}
	for pkg, names := range lib.generic {
		if !p.pkgAllowed(pkg) {
			continue
		}
		if c.names[pkg] == nil {
			c.names[pkg] = map[string]bool{}
		}
		for n := range names {
			c.names[pkg][n] = true
		}
	}
	if p.pkgAllowed("os/exec") {
		c.exec = true
		c.names["os/exec"] = map[string]bool{}
		for n := range execSymbols(nil) {
			c.names["os/exec"][n] = true
		}
	}
	c.names[hostsyms.SDKPath] = map[string]bool{}
	for n := range hostsyms.Exports()[hostsyms.SDKKey] {
		c.names[hostsyms.SDKPath][n] = true
	}
	return c
}

// interpExports is what one interpreter gets: the shared exports, private
// copies of package variables, os over the virtual environment, os/exec
// with commands that start in that environment, the SDK, and with eg the
// network functions that hold connections to the declared hosts.
func (c *catalog) interpExports(venv *virtualEnv, eg *egress) (shared, private interp.Exports) {
	private = interp.Exports{}
	for _, kv := range c.vars {
		v := c.exports[kv[0]][kv[1]]
		cp := reflect.New(v.Type()).Elem()
		cp.Set(v)
		if private[kv[0]] == nil {
			private[kv[0]] = map[string]reflect.Value{}
		}
		private[kv[0]][kv[1]] = cp
	}
	if len(c.osSyms) > 0 {
		full := std.Symbols()["os/os"]
		env := venv.symbols()
		m := map[string]reflect.Value{}
		for name := range c.osSyms {
			if v, ok := env[name]; ok {
				m[name] = v
				continue
			}
			v := full[name]
			if v.CanAddr() {
				cp := reflect.New(v.Type()).Elem()
				cp.Set(v)
				v = cp
			}
			m[name] = v
		}
		if _, ok := m["StartProcess"]; ok {
			// Like exec.Command: a child starts in the plugin's environment.
			m["StartProcess"] = reflect.ValueOf(func(name string, argv []string, attr *os.ProcAttr) (*os.Process, error) {
				a := os.ProcAttr{}
				if attr != nil {
					a = *attr
				}
				if a.Env == nil {
					a.Env = venv.list()
				}
				return os.StartProcess(name, argv, &a)
			})
		}
		private["os/os"] = m
	}
	if c.exec {
		private["os/exec/exec"] = execSymbols(venv)
	}
	for k, v := range hostsyms.Exports() {
		private[k] = v
	}
	if eg != nil {
		for key, syms := range eg.symbols() {
			if _, ok := c.exports[key]; !ok {
				continue // a package this plugin may not import
			}
			if private[key] == nil {
				private[key] = map[string]reflect.Value{}
			}
			for name, v := range syms {
				if c.names[path.Dir(key)][name] {
					private[key][name] = v
				}
			}
		}
	}
	return c.exports, private
}

// execSymbols is os/exec with Command and CommandContext starting children
// in the plugin's environment instead of Wrasse's (which holds API keys).
func execSymbols(venv *virtualEnv) map[string]reflect.Value {
	errNotFound, errDot, errWaitDelay := exec.ErrNotFound, exec.ErrDot, exec.ErrWaitDelay
	return map[string]reflect.Value{
		"Command": reflect.ValueOf(func(name string, arg ...string) *exec.Cmd {
			cmd := exec.Command(name, arg...)
			cmd.Env = venv.list()
			return cmd
		}),
		"CommandContext": reflect.ValueOf(func(ctx context.Context, name string, arg ...string) *exec.Cmd {
			cmd := exec.CommandContext(ctx, name, arg...)
			cmd.Env = venv.list()
			return cmd
		}),
		"LookPath":     reflect.ValueOf(exec.LookPath),
		"ErrNotFound":  reflect.ValueOf(&errNotFound).Elem(),
		"ErrDot":       reflect.ValueOf(&errDot).Elem(),
		"ErrWaitDelay": reflect.ValueOf(&errWaitDelay).Elem(),
		"Cmd":          reflect.ValueOf((*exec.Cmd)(nil)),
		"Error":        reflect.ValueOf((*exec.Error)(nil)),
		"ExitError":    reflect.ValueOf((*exec.ExitError)(nil)),
	}
}

// library indexes the interpreter's standard library: the Exports key of
// each linked package ("" for the packages of yaegi's library Wrasse does
// not link) and the generic packages compiled from source.
type library struct {
	keys    map[string]string // import path → Exports key
	generic map[string]map[string]bool
	host    interp.Exports // the SDK and os/exec, for type inference
}

func newLibrary() *library {
	l := &library{keys: map[string]string{}, generic: genericNames(), host: hostsyms.Exports()}
	l.host["os/exec/exec"] = execSymbols(nil)
	for key := range std.Symbols() {
		if key != "." {
			l.keys[path.Dir(key)] = key
		}
	}
	for _, pkg := range std.Unlinked() {
		l.keys[pkg] = "" // known, so an import says "not available", not "unknown"
	}
	l.keys["os/exec"] = "os/exec/exec"
	return l
}

// symbol returns the value of a library or SDK symbol.
func (l *library) symbol(pkg, name string) (reflect.Value, bool) {
	key := l.keys[pkg]
	if pkg == hostsyms.SDKPath {
		key = hostsyms.SDKKey
	}
	if m, ok := l.host[key]; ok {
		v, ok := m[name]
		return v, ok
	}
	v, ok := std.Symbols()[key][name]
	return v, ok
}

// has reports whether the interpreter knows a standard package at all.
func (l *library) has(pkg string) bool {
	_, ok := l.keys[pkg]
	_, gok := l.generic[pkg]
	return ok || gok
}

// hasSymbol reports whether the interpreter's full library has pkg.sym.
func (l *library) hasSymbol(pkg, sym string) bool {
	if l.generic[pkg][sym] {
		return true
	}
	if pkg == "os/exec" {
		_, ok := execSymbols(nil)[sym]
		return ok
	}
	_, ok := std.Symbols()[l.keys[pkg]][sym]
	return ok
}
