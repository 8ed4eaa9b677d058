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

	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Limits of a program's process. One P, unlike a plugin process's two: a
// program has no goroutines, and with a second P idle every wake-up for a
// reply woke another thread to look for work too (about 3 µs of an inner
// call's trip on a loaded machine; a program that allocates and sorts runs
// no slower).
const (
	childMaxStack = 64 << 20
	childMaxProcs = 1
)

// ChildIO is the child's side of the pipes: In carries the parent's
// replies (fd 3), Out the child's messages (fd 4), Ctl the parent's stop
// (fd 5: a byte, or its end when the parent goes away), Log its slog
// lines (stderr). A stop during a call leaves the read of its reply
// behind: the interpreter's guard returns without the program.
type ChildIO struct {
	In  io.Reader
	Out io.Writer
	Ctl io.Reader
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
	if err := childproc.LimitMemory(childproc.MemoryRoom); err != nil {
		log.Warn("cannot limit the program process's memory", "err", err)
	}
	// Before any program text is read: nothing the program does can reach
	// a file, the network or another program.
	st, err := sandbox.Confine(sandbox.ForPlugin(sandbox.PluginOptions{}))
	if err != nil {
		return fmt.Errorf("confine the program process: %w", err)
	}
	log.Debug("program process sandboxed", "sandbox", st.String())
	return serve(ctx, cio, log)
}

// serve runs one program. An inner call writes its message and reads the
// reply on the program's own goroutine, in a blocking read of fd 3: no
// goroutine in between to hand the reply over and no poller thread, so a
// call costs one wake-up of this process.
func serve(ctx context.Context, cio ChildIO, log *slog.Logger) error {
	r, w := newReader(cio.In), newWriter(cio.Out)
	req, err := r.next()
	if err != nil {
		return fmt.Errorf("read the run request: %w", err)
	}
	if req.Op != opRun {
		return fmt.Errorf("expected a run request, got %q", req.Op)
	}
	if err := childproc.CheckVersion(req.Version); err != nil {
		// Said to the parent, which reports it as the run's error.
		if serr := w.send(&message{Op: opDone, ID: req.ID, Err: toWire(err)}); serr != nil {
			log.Warn("cannot tell the parent of the version mismatch", "err", serr)
		}
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if cio.Ctl != nil {
		go func() {
			var b [1]byte
			if n, _ := cio.Ctl.Read(b[:]); n > 0 {
				cancel(errors.New("stopped by the parent"))
				return
			}
			cancel(errors.New("the parent went away"))
		}()
	}
	var id uint64
	call := func(ctx context.Context, tool string, args json.RawMessage) (string, error) {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("%s: not run: %w", tool, context.Cause(ctx))
		}
		id++
		if err := w.send(&message{Op: opCall, ID: id, Tool: tool, Args: args}); err != nil {
			return "", fmt.Errorf("%s: cannot reach Wrasse: %w", tool, err)
		}
		for {
			m, err := r.next()
			if err != nil {
				if ctx.Err() == nil {
					cancel(errors.New("the parent went away"))
				}
				return "", fmt.Errorf("%s: %w", tool, context.Cause(ctx))
			}
			if m.Op != opReply || m.ID != id {
				continue
			}
			if m.Err != nil {
				return m.Text, errors.New(m.Err.Msg)
			}
			return m.Text, nil
		}
	}
	h := plugins.NewHost(plugins.Options{Logger: log})
	done := execute(ctx, h, req, call, log)
	return w.send(done)
}

// Fds of the pipes a program process gets (exec.Cmd.ExtraFiles 0, 1, 2).
const (
	childInFd  = 3
	childOutFd = 4
	childCtlFd = 5
)

// ChildPipes is the ChildIO of a process that Runner started: fd 3, 4, 5
// and stderr.
func ChildPipes(stderr io.Writer) ChildIO {
	for _, fd := range []int{childOutFd, childCtlFd} {
		childproc.Pollable(fd)
	}
	return ChildIO{In: os.NewFile(childInFd, "codemode-in"), Out: os.NewFile(childOutFd, "codemode-out"),
		Ctl: os.NewFile(childCtlFd, "codemode-ctl"), Log: stderr}
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
