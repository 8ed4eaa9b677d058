package plugins

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing/fstest"
)

// pluginDir is the folder of a capability that holds the plugin source.
const pluginDir = "plugin"

// importRoot prefixes the virtual import path of every plugin package.
const importRoot = "wrasse-plugin"

// maxSourceBytes bounds the plugin source read into memory.
const maxSourceBytes = 4 << 20

// source is a plugin package read and parsed from a capability folder.
type source struct {
	// importPath is where the package sits in the virtual GOPATH.
	importPath string
	// pkgName is the package clause of the files.
	pkgName string
	fset    *token.FileSet
	// files are the kept files, sorted by name.
	files []*srcFile
	// vfs is the virtual GOPATH: src/<importPath>/<file>.
	vfs fs.FS
}

type srcFile struct {
	name string // base name, e.g. main.go
	ast  *ast.File
	// data is the file as read; a plugin process gets exactly these bytes.
	data []byte
}

// display is how messages name a plugin file: plugin/main.go.
func display(name string) string { return pluginDir + "/" + name }

// readSource reads plugin/*.go from fsys the way the Go tool would pick
// files for this platform, and parses them. Test files are skipped.
func readSource(fsys fs.FS, capName string) (*source, error) {
	entries, err := fs.ReadDir(fsys, pluginDir)
	if err != nil {
		return nil, fmt.Errorf("%w: cannot read %s/: %v", ErrNoSource, pluginDir, err)
	}
	contents := map[string][]byte{}
	var names []string
	total := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !keepFile(name) {
			continue
		}
		data, err := readLimited(fsys, path.Join(pluginDir, name), maxSourceBytes-total)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrNoSource, display(name), err)
		}
		total += len(data)
		contents[name] = data
		names = append(names, name)
	}
	sort.Strings(names)

	// Build constraints (//go:build, _linux.go) decide as for `go build`.
	ctx := build.Default
	ctx.OpenFile = func(p string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(contents[path.Base(p)])), nil
	}
	ctx.JoinPath = path.Join
	src := &source{importPath: importRoot + "/" + capName, fset: token.NewFileSet()}
	vfs := fstest.MapFS{}
	var problems []error
	for _, name := range names {
		if ok, err := ctx.MatchFile(pluginDir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(src.fset, display(name), contents[name], parser.ParseComments)
		if err != nil {
			problems = append(problems, scanErrors(err)...)
			continue
		}
		if src.pkgName == "" {
			src.pkgName = f.Name.Name
		} else if f.Name.Name != src.pkgName {
			problems = append(problems, src.problem(f.Name.Pos(), ErrCompile,
				"package %s, but %s says package %s: a plugin is one package", f.Name.Name, display(src.files[0].name), src.pkgName))
		}
		src.files = append(src.files, &srcFile{name: name, ast: f, data: contents[name]})
		vfs["src/"+src.importPath+"/"+name] = &fstest.MapFile{Data: contents[name]}
	}
	if len(problems) > 0 {
		return nil, joinProblems(problems)
	}
	if len(src.files) == 0 {
		return nil, fmt.Errorf("%w: %s/ holds no Go files for this platform; write plugin/main.go declaring func Init(env *sdk.Env) (*sdk.Plugin, error)", ErrNoSource, pluginDir)
	}
	src.vfs = vfs
	return src, nil
}

// keepFile mirrors the names `go build` ignores.
func keepFile(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") &&
		!strings.HasPrefix(name, "_") && !strings.HasPrefix(name, ".")
}

func readLimited(fsys fs.FS, name string, limit int) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("plugin source is larger than %d bytes", maxSourceBytes)
	}
	return data, nil
}

// SourceError is one problem at a place in a plugin's source. It unwraps to
// its kinds (ErrCompile, ErrDialect, ErrPermission, ...).
type SourceError struct {
	// File is the file as shown to users, e.g. plugin/main.go ("" if unknown).
	File      string
	Line, Col int
	Msg       string
	kinds     []error
}

func (e *SourceError) Error() string {
	switch {
	case e.File == "":
		return e.Msg
	case e.Line == 0:
		return e.File + ": " + e.Msg
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

func (e *SourceError) Unwrap() []error { return e.kinds }

func (s *source) problem(pos token.Pos, kind error, format string, args ...any) *SourceError {
	p := s.fset.Position(pos)
	kinds := []error{kind}
	if kind == ErrDialect || kind == ErrGoroutine || kind == ErrImport {
		kinds = append(kinds, ErrCompile)
	}
	return &SourceError{File: p.Filename, Line: p.Line, Col: p.Column, Msg: fmt.Sprintf(format, args...), kinds: kinds}
}

// scanErrors turns go/parser errors into SourceErrors.
func scanErrors(err error) []error {
	var out []error
	for _, line := range strings.Split(err.Error(), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, parsePositioned(line, ErrCompile))
		}
	}
	return out
}

// joinProblems sorts problems by place and joins them: one per line.
func joinProblems(problems []error) error {
	sort.SliceStable(problems, func(i, j int) bool {
		a, aok := problems[i].(*SourceError)
		b, bok := problems[j].(*SourceError)
		if !aok || !bok {
			return aok && !bok
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	if len(problems) == 1 {
		return problems[0]
	}
	return &problemList{list: problems}
}

// problemList prints one problem per line, like the Go compiler.
type problemList struct{ list []error }

func (p *problemList) Error() string {
	lines := make([]string, len(p.list))
	for i, e := range p.list {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (p *problemList) Unwrap() []error { return p.list }

// interpreter messages look like
// `1:21: import "wrasse-plugin/x" error: src/wrasse-plugin/x/main.go:3:9: undefined: foo`.
var (
	importPrefixRe = regexp.MustCompile(`^\d+:\d+: import "[^"]*" error: `)
	positionedRe   = regexp.MustCompile(`^([^\s:]+\.go):(\d+)(?::(\d+))?: (?s)(.*)$`)
)

// cleanMessage rewrites the virtual GOPATH out of an interpreter message so
// positions read plugin/main.go:3:9.
func (s *source) cleanMessage(msg string) string {
	msg = importPrefixRe.ReplaceAllString(msg, "")
	msg = strings.ReplaceAll(msg, "src/"+s.importPath+"/", pluginDir+"/")
	msg = strings.ReplaceAll(msg, s.importPath+".", s.pkgName+".")
	return strings.ReplaceAll(msg, s.importPath, s.pkgName)
}

// parsePositioned reads "file.go:3:9: message" into a SourceError.
func parsePositioned(msg string, kinds ...error) *SourceError {
	m := positionedRe.FindStringSubmatch(msg)
	if m == nil {
		return &SourceError{Msg: msg, kinds: kinds}
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	return &SourceError{File: m[1], Line: line, Col: col, Msg: m[4], kinds: kinds}
}

// hasInit reports whether the package declares a top-level func Init.
func (s *source) hasInit() bool {
	for _, f := range s.files {
		for _, d := range f.ast.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "Init" {
				return true
			}
		}
	}
	return false
}
