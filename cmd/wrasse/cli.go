package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

type stdio struct {
	in  io.Reader
	out io.Writer
	err io.Writer
}

// globalFlags are accepted by every command, anywhere on the line.
type globalFlags struct {
	workspace string
	json      bool
}

func (g *globalFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.workspace, "workspace", "", "workspace `DIR` (default $WRASSE_HOME, else the user data folder)")
	fs.BoolVar(&g.json, "json", false, "machine-readable output")
}

// newFlagSet makes a FlagSet that reports errors instead of exiting or
// printing: the caller prints one line and a pointer to --help.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseInterleaved parses flags that may appear before or after positional
// arguments (`caps show NAME --json`). A negative number is an argument
// (`config set contextWindow -5` is then refused for its value).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		for len(args) > 0 && isNegativeNumber(args[0]) {
			pos, args = append(pos, args[0]), args[1:]
		}
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		// Parse stops after a `--` it consumed: all that follows is
		// arguments, taken as given (mcp add NAME -- npx -y PKG).
		if rest := fs.Args(); len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func isNegativeNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && strings.HasPrefix(s, "-")
}

// run is the whole command line: no arguments open the window; otherwise
// the command runs through the Wrasse that holds the workspace when one is
// running, else against the workspace opened here.
func run(ctx context.Context, args []string, io stdio, getenv func(string) string) int {
	if len(args) == 0 {
		return runDesktop(ctx, nil, io, getenv)
	}
	switch args[0] {
	case pluginHostCommand:
		return runPluginHost(ctx, io)
	case sandboxCommand:
		return runSandboxExec(args[1:], io)
	case codeRunCommand:
		return runCodeRun(ctx, io)
	}
	p, err := parseLine(args)
	if err != nil {
		return report(err, io)
	}
	switch {
	case p.help:
		printHelp(io.out, p)
		return exitOK
	case p.cmd == nil:
		// Only flags (`wrasse --workspace DIR`): the window.
		return runDesktop(ctx, args, io, getenv)
	}
	c, err := p.call(io)
	if err != nil {
		return report(err, io)
	}
	c.raw = args
	return report(execute(ctx, c, getenv), io)
}

// usageError is a command line that cannot be understood. It is printed as
// one line and a pointer to the command's --help.
type usageError struct {
	path string // "caps show", "" for wrasse itself
	msg  string
}

func (e *usageError) Error() string { return e.msg }

func usagef(path, format string, a ...any) error {
	return &usageError{path: path, msg: fmt.Sprintf(format, a...)}
}

// exitError ends the command with a code, its explanation already printed
// (by the running Wrasse a command was forwarded to, say).
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// shownError is a failure whose message was already printed (a chat's
// error event); only its hint remains to be shown.
type shownError struct{ err error }

func (e *shownError) Error() string { return e.err.Error() }
func (e *shownError) Unwrap() error { return e.err }

// errInvalid is a failure the command printed in full (an invalid
// capability's report).
var errInvalid = errors.New("invalid")

// report prints err, then what the person can do about it, and picks the
// exit code.
func report(err error, io stdio) int {
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		name := strings.TrimSpace("wrasse " + ue.path)
		fmt.Fprintf(io.err, "wrasse: %s\nRun '%s --help' for usage.\n", ue.msg, name)
		return exitUsage
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if errors.Is(err, errInvalid) {
		return exitFail
	}
	var shown *shownError
	if !errors.As(err, &shown) {
		fmt.Fprintf(io.err, "wrasse: %v\n", err)
	}
	printHint(io.err, err)
	return exitFail
}

// printHint shows an error's hint as the command that acts on it, or its
// words when no command does.
func printHint(w io.Writer, err error) {
	h, ok := hint.Of(err)
	if !ok {
		return
	}
	if line := h.CommandLine(); line != "" {
		fmt.Fprintf(w, "  → %s\n", line)
	} else if h.Action != "" {
		fmt.Fprintf(w, "  → %s\n", h.Action)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
