package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// serveHandler runs the CLI commands another wrasse process forwards
// (assistant.Forward) inside this one, against app, which holds the
// workspace: the window passes it to app.Serve, and so do long CLI
// commands (chat, caps watch). Each request is parsed exactly as on the
// command line; its standard input is what the client piped, relative
// paths are relative to the client's folder, and the client going away
// cancels the command (ctx). Commands that must ask on the client's
// terminal are refused with what to do instead; the client never sends
// them.
func serveHandler(app *assistant.App) assistant.Handler {
	return func(ctx context.Context, req assistant.Request, stdout, stderr io.Writer) int {
		io := stdio{in: bytes.NewReader(req.Stdin), out: stdout, err: stderr}
		return report(runForwarded(ctx, app, req, io), io)
	}
}

// runForwarded parses and runs one forwarded command line.
func runForwarded(ctx context.Context, app *assistant.App, req assistant.Request, io stdio) error {
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
	return c.run(ctx, app, c)
}
