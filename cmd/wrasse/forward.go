package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// confirmFunc asks the person at the window whether to run a command
// another program sent that widens what the assistant may do: line is the
// command line as sent, from the process that sent it. It returns whether
// they said Run; ctx ends when the sender goes away.
type confirmFunc func(ctx context.Context, line string, from *assistant.Peer) bool

// serveHandler runs the CLI commands another wrasse process forwards
// (assistant.Forward) inside this one, against app, which holds the
// workspace: long CLI commands (chat, caps watch) pass it to app.Serve.
// Each request is parsed exactly as on the command line; its standard
// input is what the client piped, relative paths are relative to the
// client's folder, and the client going away cancels the command (ctx).
// Commands that must ask on the client's terminal are refused with what
// to do instead; the client never sends them.
func serveHandler(app *assistant.App) assistant.Handler { return confirmingHandler(app, nil) }

// confirmingHandler is serveHandler for the window: a command that widens
// what the assistant may do (command.widens) runs only once confirm says
// so. With confirm nil (no window: a CLI command holds the workspace, in
// the user's own terminal) such commands run as given.
func confirmingHandler(app *assistant.App, confirm confirmFunc) assistant.Handler {
	return func(ctx context.Context, req assistant.Request, stdout, stderr io.Writer) int {
		io := stdio{in: bytes.NewReader(req.Stdin), out: stdout, err: stderr}
		return report(runForwarded(ctx, app, req, io, confirm), io)
	}
}

// errNotConfirmed is a widening command the person at the window cancelled.
var errNotConfirmed = errors.New("not run: it would widen what the assistant may do, and it was cancelled in the Wrasse window")

// runForwarded parses and runs one forwarded command line.
func runForwarded(ctx context.Context, app *assistant.App, req assistant.Request, io stdio, confirm confirmFunc) error {
	// The window answers "show yourself" (empty Args) before this handler;
	// reaching it means a CLI command (chat, caps watch) holds the
	// workspace.
	errNoWindow := errors.New("a wrasse command (a chat or caps watch) is using this workspace, so no window can open now: try again when it has finished")
	if len(req.Args) == 0 {
		return errNoWindow
	}
	if req.Args[0] == pluginHostCommand || req.Args[0] == sandboxCommand || req.Args[0] == codeRunCommand {
		return fmt.Errorf("%s is not a command the running Wrasse runs for another process", req.Args[0])
	}
	p, err := parseLine(req.Args)
	if err != nil {
		return err
	}
	switch {
	case p.help:
		printHelp(io.out, p)
		return nil
	case p.cmd == nil:
		return errNoWindow
	}
	c, err := p.call(io)
	if err != nil {
		return err
	}
	c.raw, c.dir, c.forwarded = req.Args, req.Dir, true
	if c.cmd.local != nil {
		if why := c.cmd.local(c); why != "" {
			return fmt.Errorf("%w. %s", assistant.ErrRunning, why)
		}
	}
	if confirm != nil && c.cmd.widens != nil && c.cmd.widens(c) && !confirm(ctx, commandLine(req.Args), req.Peer) {
		app.Logger().Warn("a command sent to the window was cancelled there", "command", c.cmd.path, "peer", peerPID(req.Peer))
		return errNotConfirmed
	}
	return c.run(ctx, app, c)
}

// commandLine is args as a person would type them after wrasse, quoted
// where a shell would need it, so what the window shows is exactly what
// runs.
func commandLine(args []string) string {
	parts := []string{"wrasse"}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it holds anything but plain
// word characters.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func peerPID(p *assistant.Peer) int {
	if p == nil {
		return 0
	}
	return p.PID
}
