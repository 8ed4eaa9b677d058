package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// lockTimeout bounds the wait for a workspace another process holds, so a
// command says within about a second that Wrasse is busy instead of
// hanging.
const lockTimeout = time.Second

// execute runs c: through the Wrasse that holds the workspace when one
// answers on its socket, else against the workspace opened here.
func execute(ctx context.Context, c *call, getenv func(string) string) error {
	ws, err := workspace.Resolve(c.g.workspace, getenv)
	if err != nil {
		return err
	}
	local := ""
	if c.cmd.local != nil {
		local = c.cmd.local(c)
	}
	if local == "" {
		code, err := forward(ctx, ws, c)
		switch {
		case err == nil:
			return &exitError{code}
		case ctx.Err() != nil:
			return &exitError{130}
		case !errors.Is(err, assistant.ErrNotRunning):
			return err
		}
	}
	if c.cmd.closed != nil {
		return c.cmd.closed(ctx, ws, c)
	}
	return withApp(ctx, c.g, getenv, appOptions{retries: c.retries, serve: c.cmd.serve, local: local, stderr: c.io.err, asker: cliAsker{c}}, func(app *assistant.App) error {
		return c.run(ctx, app, c)
	})
}

// forward hands c to the running Wrasse, its piped standard input with it.
func forward(ctx context.Context, ws workspace.Workspace, c *call) (int, error) {
	req := assistant.Request{Args: c.raw}
	if dir, err := os.Getwd(); err == nil {
		req.Dir = dir
	}
	if c.cmd.stdin != nil && c.cmd.stdin(c) && c.io.in != nil && !interactive(c.io.in) {
		// Only when the socket is this user's own Wrasse's: standard
		// input may be a secret, and reading it first would also wait
		// for a pipe that may never close, even with no Wrasse running.
		if err := assistant.CheckInstance(ws); err != nil {
			return 0, err
		}
		data, err := assistant.ReadForwardedStdin(c.io.in)
		if err != nil {
			return 0, fmt.Errorf("read standard input: %w", err)
		}
		req.Stdin = data
		// The command now reads what was forwarded, if it runs here after all.
		c.io.in = bytes.NewReader(data)
	}
	return assistant.Forward(ctx, ws, req, c.io.out, c.io.err)
}

// appOptions tune how a command opens the workspace.
type appOptions struct {
	// retries is assistant.Options.Retries; nil keeps the default.
	retries func() int
	// serve runs other wrasse commands through this one while it runs.
	serve bool
	// local says what to do instead when the command cannot run through
	// the Wrasse that holds the workspace ("" when it could have).
	local string
	// stderr is where a serving command says it is finishing the
	// commands forwarded to it.
	stderr io.Writer
	// asker puts MCP servers' questions to the person (mcp_ask.go).
	asker mcp.Asker
}

// withApp opens the workspace, runs fn and closes it. A workspace another
// process holds fails within lockTimeout: with o.local's advice when the
// command could not have run through it anyway, else saying that another
// command is busy with it (no socket answered).
func withApp(ctx context.Context, g globalFlags, getenv func(string) string, o appOptions, fn func(*assistant.App) error) error {
	// Plugins that do not ship with Wrasse run in a process of their own,
	// so a fault Go cannot recover from ends that process, not the app.
	child, childErr := pluginChild()
	retries := 0
	if o.retries != nil {
		retries = o.retries()
	}
	app, err := assistant.Open(assistant.Options{Workspace: g.workspace, Getenv: getenv, PluginChild: child,
		LockTimeout: lockTimeout, Retries: retries, MCPAsker: o.asker})
	if errors.Is(err, store.ErrLocked) {
		if o.local != "" {
			return fmt.Errorf("%w. %s", assistant.ErrRunning, o.local)
		}
		return busyError{err}
	}
	if err != nil {
		return err
	}
	defer app.Close()
	if childErr != nil {
		app.Logger().Warn("plugins will run in this process", "error", childErr)
	}
	if o.serve {
		stop, err := serveWhile(app, o.stderr)
		if err != nil {
			app.Logger().Warn("other wrasse commands cannot run through this one", "error", err)
		} else {
			defer stop()
		}
	}
	return fn(app)
}

// serveWhile lets other wrasse commands run through app while a long
// command (chat, caps watch) holds the workspace. stop ends serving and
// lets the forwarded commands still running finish, so that one command
// ending never cancels another: the app outlives them. Meanwhile it says
// so on stderr, and an interrupt (Ctrl+C, again if that is what ended the
// command) stops them.
func serveWhile(app *assistant.App, stderr io.Writer) (stop func(), err error) {
	listening, stopListening := context.WithCancel(context.Background())
	abortCtx, abort := context.WithCancel(context.Background())
	var (
		mu      sync.Mutex
		stopped bool
		busy    int // commands running
		running sync.WaitGroup
	)
	h := serveHandler(app)
	err = app.Serve(listening, func(ctx context.Context, req assistant.Request, stdout, stderr io.Writer) int {
		mu.Lock()
		if stopped {
			mu.Unlock()
			fmt.Fprintln(stderr, "wrasse: the wrasse command holding this workspace is finishing; try again in a moment")
			return exitFail
		}
		running.Add(1)
		busy++
		mu.Unlock()
		defer func() {
			mu.Lock()
			busy--
			mu.Unlock()
			running.Done()
		}()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(abortCtx, cancel)()
		return h(ctx, req, stdout, stderr)
	})
	if err != nil {
		stopListening()
		abort()
		return nil, err
	}
	sock := app.SocketPath()
	return func() {
		defer abort()
		mu.Lock()
		stopped = true
		waiting := busy > 0
		mu.Unlock()
		stopListening()
		finished := make(chan struct{})
		go func() {
			running.Wait()
			close(finished)
		}()
		if waiting {
			if stderr != nil {
				fmt.Fprintln(stderr, "wrasse: finishing the commands other wrasse processes sent to this one (Ctrl+C stops them)")
			}
			interrupt := make(chan os.Signal, 1)
			signal.Notify(interrupt, os.Interrupt, syscall.SIGTERM)
			select {
			case <-finished:
			case <-interrupt:
				abort()
				<-finished
			}
			signal.Stop(interrupt)
		}
		<-finished
		// Serve stops listening in the background and removes the socket
		// last. Wait for that, so a wrasse command started after this one
		// ends finds no half-closed server to forward to.
		for i := 0; i < socketGoneChecks; i++ {
			if _, err := os.Lstat(sock); errors.Is(err, fs.ErrNotExist) {
				return
			}
			time.Sleep(socketGoneInterval)
		}
	}, nil
}

// How long stop waits for Serve to remove the socket: at most about 2 s
// (a connection still sending its request), normally one check.
const (
	socketGoneChecks   = 400
	socketGoneInterval = 5 * time.Millisecond
)

// busyError is a workspace another wrasse command holds, with no socket
// answering: said in two plain sentences; the lock's own text (its path,
// "timeout") repeated what they say (issue 24).
type busyError struct{ err error }

func (e busyError) Error() string {
	return "another wrasse command is using this workspace right now, and no open Wrasse window answers. Try again when it has finished."
}

func (e busyError) Unwrap() error { return e.err }
