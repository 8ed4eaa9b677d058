package plugins

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing/fstest"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/wrasse-app/wrasse/plugins/hostsyms"
)

// This file serves code mode (plugins/codemode): a standalone program in
// the plugin dialect (package main, func main) that the model writes. It
// is checked with the plugins' static rules as a plugin granted nothing,
// and interpreted with the pure base library only, under the same guard
// (recover, deadline, stopping the interpreter) as a plugin call.

// ProgramFile is the name a program's source goes by in messages.
const ProgramFile = "main.go"

// Program is one standalone program to interpret.
type Program struct {
	// Source is the program as written: checked by CheckProgram.
	Source []byte
	// Run is what is interpreted (Source with generated support code
	// that keeps its line numbers); empty runs Source.
	Run []byte
	// Exports are host packages the support code imports. The program
	// itself cannot import them: CheckProgram allows the pure library only.
	Exports interp.Exports
	// Stdout receives what the program prints.
	Stdout io.Writer
	// Timeout bounds the run (default DefaultTimeout).
	Timeout time.Duration
	Logger  *slog.Logger
}

// CheckProgram checks a program's source before any of it runs: one
// package main with func main, no goroutines, the Go the interpreter
// understands, and only the pure standard library (no os, os/exec, net,
// syscall, unsafe or the plugin SDK): a program has no permissions and
// reaches the world only through the functions it is given. Every problem
// is reported at once, each as a *SourceError.
func (h *Host) CheckProgram(src []byte) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, ProgramFile, src, parser.ParseComments)
	if err != nil {
		return joinProblems(scanErrors(err))
	}
	s := &source{importPath: "main", pkgName: f.Name.Name, fset: fset,
		files: []*srcFile{{name: ProgramFile, ast: f, data: src}}}
	c := &checker{src: s, cat: h.catalog(newPolicy(false, nil)), lib: h.lib(), capName: "run_go", pkgDecls: map[string]ast.Node{}}
	c.collectDecls(f)
	if f.Name.Name != "main" {
		c.add(f.Name.Pos(), ErrCompile, "package %s: a program is package main", f.Name.Name)
	}
	for _, spec := range f.Imports {
		if p := strings.Trim(spec.Path.Value, `"`); p == hostsyms.SDKPath {
			c.add(spec.Pos(), ErrImport, "import %q: a program has no plugin SDK; call the functions it is given", p)
		}
	}
	c.file(f)
	if fd, ok := c.pkgDecls["main"].(*ast.FuncDecl); !ok || fd.Type.Params.NumFields() > 0 || fd.Type.Results.NumFields() > 0 {
		c.problems = append(c.problems, &SourceError{File: ProgramFile, kinds: []error{ErrCompile},
			Msg: "no func main(): a program declares func main() and prints its result"})
	}
	if len(c.problems) == 0 {
		return nil
	}
	for _, p := range c.problems {
		var se *SourceError
		if errors.As(p, &se) && errors.Is(se, ErrPermission) {
			// The plugin hint (grant it in SKILL.md) does not apply.
			what, _, _ := strings.Cut(se.Msg, ";")
			se.Msg = what + "; a program has no files, network, exec or environment: call the tools for that"
		}
	}
	return joinProblems(c.problems)
}

// RunProgram interprets p (after CheckProgram, which the caller runs on
// p.Source) in a fresh interpreter with the pure library and p.Exports.
// A panic is an error wrapping ErrPluginPanic with its position, an
// overrun ErrPluginTimeout, a cancelled ctx its cause; a compile error
// is a list of *SourceError.
func (h *Host) RunProgram(ctx context.Context, p Program) error {
	log := p.Logger
	if log == nil {
		log = h.log
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = h.opts.DefaultTimeout
	}
	run := p.Run
	if len(run) == 0 {
		run = p.Source
	}
	stdout := p.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	// The interpreter names positions in evaluated text line:col only.
	clean := func(s string) string { return bareRe.ReplaceAllString(s, "${1}"+ProgramFile+":$2") }
	errw := &lineWriter{log: log.With("stream", "stderr"), level: slog.LevelDebug, clean: clean, limit: newLogLimit(h.opts.clock)}
	it := interp.New(interp.Options{
		GoPath:               ".",
		SourcecodeFilesystem: fstest.MapFS{},
		Stdin:                strings.NewReader(""),
		Stdout:               stdout,
		Stderr:               errw,
		Args:                 []string{"main"},
		Env:                  []string{},
	})
	venv, _ := newVirtualEnv(nil, false, func(string) (string, bool) { return "", false }, func() []string { return nil })
	shared, private := h.catalog(newPolicy(false, nil)).interpExports(venv, nil)
	for _, ex := range []interp.Exports{shared, private, p.Exports} {
		if err := recovered(func() error { return it.Use(ex) }); err != nil {
			return fmt.Errorf("load the library into the interpreter: %w", err)
		}
	}
	in := &instance{it: it, stderr: errw, grace: h.grace, log: log}
	var evalErr error
	st, pi, _ := in.guard(ctx, timeout, func(ctx context.Context) {
		_, evalErr = it.EvalWithContext(ctx, string(run))
	})
	switch st {
	case statusPanic:
		return fmt.Errorf("%w: %s", ErrPluginPanic, pi)
	case statusTimeout:
		return fmt.Errorf("%w: the program ran longer than %s and was stopped", ErrPluginTimeout, timeout)
	case statusCancelled:
		return fmt.Errorf("the program was stopped: %w", context.Cause(ctx))
	}
	if evalErr == nil {
		return nil
	}
	var ip interp.Panic
	switch {
	case errors.As(evalErr, &ip):
		where := panicWhere(errw.firstPanicSince(0))
		if where != "" {
			return fmt.Errorf("%w: %v (at %s)", ErrPluginPanic, ip.Value, clean(" " + where)[1:])
		}
		return fmt.Errorf("%w: %v", ErrPluginPanic, ip.Value)
	case errors.Is(evalErr, context.Canceled) || errors.Is(evalErr, context.DeadlineExceeded):
		if ctx.Err() != nil {
			return fmt.Errorf("the program was stopped: %w", context.Cause(ctx))
		}
		return fmt.Errorf("%w: the program ran longer than %s and was stopped", ErrPluginTimeout, timeout)
	}
	var problems []error
	for _, line := range strings.Split(clean(evalErr.Error()), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			problems = append(problems, parsePositioned(line, ErrCompile))
		}
	}
	return joinProblems(problems)
}

// bareRe finds positions without a file name: "4:2: undefined: x".
var bareRe = regexp.MustCompile(`(^|[\s(])(\d+:\d+)`)
