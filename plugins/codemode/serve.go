package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Limits of a program's process, as for a plugin process.
const (
	childMaxStack = 64 << 20
	childMaxProcs = 2
)

// ChildIO is the child's side of the pipes: In carries the parent's
// messages (fd 3), Out the child's (fd 4), Log its slog lines (stderr).
type ChildIO struct {
	In  io.Reader
	Out io.Writer
	Log io.Writer
}

// ServeChild is the program process's side of Runner.Command: the hidden
// subcommand of the app calls it. It limits and confines this process
// (stack, threads, address space; the OS sandbox with no file, network
// or exec rights), reads one run request, runs the program and answers
// done. Inner calls go to the parent and wait for its reply.
func ServeChild(ctx context.Context, cio ChildIO) error {
	debug.SetMaxStack(childMaxStack)
	if runtime.GOMAXPROCS(0) > childMaxProcs {
		runtime.GOMAXPROCS(childMaxProcs)
	}
	log := slog.New(slog.NewJSONHandler(cio.Log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	// The cap first: it reads /proc, which the sandbox closes.
	if err := plugins.LimitProcessMemory(plugins.ChildMemoryRoom); err != nil {
		log.Warn("cannot limit the program process's memory", "err", err)
	}
	// Before any program text is read: nothing the program does can reach
	// a file, the network or another program.
	st, err := sandbox.Restrict(sandbox.ForPlugin(sandbox.PluginOptions{}))
	if err != nil {
		return fmt.Errorf("confine the program process: %w", err)
	}
	log.Debug("program process sandboxed", "sandbox", st.String())
	return serve(ctx, cio, log)
}

func serve(ctx context.Context, cio ChildIO, log *slog.Logger) error {
	r, w := newReader(cio.In), &writer{w: cio.Out}
	req, err := r.next()
	if err != nil {
		return fmt.Errorf("read the run request: %w", err)
	}
	if req.Op != opRun {
		return fmt.Errorf("expected a run request, got %q", req.Op)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex
	var nextID uint64
	waiting := map[uint64]chan *message{}
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		for {
			m, err := r.next()
			if err != nil {
				cancel(errors.New("the parent went away"))
				return
			}
			switch m.Op {
			case opCancel:
				cancel(errors.New("stopped by the parent"))
			case opReply:
				mu.Lock()
				ch := waiting[m.ID]
				delete(waiting, m.ID)
				mu.Unlock()
				if ch != nil {
					ch <- m
				}
			}
		}
	}()
	call := func(ctx context.Context, tool string, args json.RawMessage) (string, error) {
		ch := make(chan *message, 1)
		mu.Lock()
		nextID++
		id := nextID
		waiting[id] = ch
		mu.Unlock()
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("%s: not run: %w", tool, context.Cause(ctx))
		}
		if err := w.send(&message{Op: opCall, ID: id, Tool: tool, Args: args}); err != nil {
			return "", fmt.Errorf("%s: cannot reach Wrasse: %w", tool, err)
		}
		select {
		case m := <-ch:
			if m.Err != nil {
				return m.Text, errors.New(m.Err.Msg)
			}
			return m.Text, nil
		case <-ctx.Done():
			return "", fmt.Errorf("%s: %w", tool, context.Cause(ctx))
		}
	}
	h := plugins.NewHost(plugins.Options{Logger: log})
	done := execute(ctx, h, req, call, log)
	return w.send(done)
}

// Fds of the pipes a program process gets (exec.Cmd.ExtraFiles 0 and 1).
const (
	childInFd  = 3
	childOutFd = 4
)

// ChildPipes is the ChildIO of a process that Runner started: fd 3, fd 4
// and stderr.
func ChildPipes(stderr io.Writer) ChildIO {
	pollable(childInFd)
	pollable(childOutFd)
	return ChildIO{In: os.NewFile(childInFd, "codemode-in"), Out: os.NewFile(childOutFd, "codemode-out"), Log: stderr}
}

// ChildCommand is the app's hidden subcommand that serves ServeChild.
const ChildCommand = "__code-run"

// ChildCommandFor is Runner.Command for an app whose plugin processes run
// as pluginChild (the executable, then its subcommand): the same
// executable with ChildCommand. Nil for nil, and on Windows: programs run
// in process.
func ChildCommandFor(pluginChild []string) []string {
	// The pipes are extra file descriptors, which Windows does not pass.
	if len(pluginChild) == 0 || runtime.GOOS == "windows" {
		return nil
	}
	return []string{pluginChild[0], ChildCommand}
}
