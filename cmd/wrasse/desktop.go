package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cmd/wrasse/internal/quietlocale"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
	"github.com/wrasse-app/wrasse/ui"
	"github.com/wrasse-app/wrasse/ui/elicit"
)

// appID is the app's identity, the ID in FyneApp.toml (a test keeps the
// two equal): Fyne keys the app's preferences and storage by it.
const appID = "app.wrasse.desktop"

// frameLogEnv names a file the window logs every painted frame to, for
// wrasse-bench (see ui.Shell.ProbeFrames).
const frameLogEnv = "WRASSE_FRAME_LOG"

// heapProfileEnv names a file the window writes a pprof heap profile of
// its idle heap to, after the first frame (see ui.Shell.ProfileHeap).
const heapProfileEnv = "WRASSE_HEAP_PROFILE"

// cpuProfileEnv names files the window writes pprof CPU profiles of its
// run to, one per 5 s (the process ID and the slice's number appended),
// for finding where the window's time goes under wrasse-bench, and when.
const cpuProfileEnv = "WRASSE_CPU_PROFILE"

// runDesktop is `wrasse` without a subcommand: it brings forward the
// window that already has the workspace, or opens one.
func runDesktop(ctx context.Context, args []string, io stdio, getenv func(string) string) int {
	// The toolkit looks the locale up again as it draws: under
	// LANG=C.UTF-8 it falls back to English without logging an error.
	quietlocale.Apply()
	fs := flag.NewFlagSet("wrasse", flag.ContinueOnError)
	fs.SetOutput(io.err)
	// The window takes the global flags; --json means nothing to it.
	var g globalFlags
	g.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return report(usagef("", "%v", err), io)
	}
	if fs.NArg() > 0 {
		return report(usagef("", "unknown command %q", fs.Arg(0)), io)
	}
	ws, err := workspace.Resolve(g.workspace, getenv)
	if err != nil {
		return report(err, io)
	}
	// Empty Args ask the running Wrasse to show itself.
	code, err := assistant.Forward(ctx, ws, assistant.Request{}, io.out, io.err)
	if err == nil {
		return code
	}
	if !errors.Is(err, assistant.ErrNotRunning) {
		return report(err, io)
	}
	return report(openWindow(ctx, g.workspace, getenv), io)
}

// openWindow opens the workspace and the window and runs until the window
// closes or ctx ends (a signal).
func openWindow(ctx context.Context, wsFlag string, getenv func(string) string) error {
	if getenv(heapProfileEnv) == "" {
		// No heap profile is wanted, so stop sampling allocations: each
		// sample unwinds the allocating stack, which pages in the unwind
		// tables of every function on it (building the window allocates
		// tens of megabytes, so a few hundred samples): about 1 MB of the
		// binary stayed resident for that alone.
		runtime.MemProfileRate = 0
	} else {
		// A profile of the window's allocations fine enough to attribute
		// small ones (the default samples one per 512 KB).
		runtime.MemProfileRate = 4096
	}
	if path := getenv(cpuProfileEnv); path != "" {
		stop, err := profileCPU(path + "." + strconv.Itoa(os.Getpid()))
		if err != nil {
			return err
		}
		defer stop()
	}
	child, childErr := pluginChild()
	// MCP servers' questions show over the window, which opens after the
	// core: the asker learns it below.
	asker := &elicit.Asker{Do: fyne.Do, Open: signin.OpenBrowser}
	opts := assistant.Options{Workspace: wsFlag, Getenv: getenv, PluginChild: child, LockTimeout: lockTimeout, MCPAsker: asker}
	core, err := assistant.Open(opts)
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("a wrasse command is using this workspace and cannot show a window: try again when it has finished: %w", err)
	}
	if err != nil && !databaseTrouble(err) {
		return err
	}

	a := fyneapp.NewWithID(appID)
	w := a.NewWindow(ui.Title)
	w.SetMaster()
	asker.SetWindow(w)
	sess := &windowSession{ctx: ctx, getenv: getenv, opts: opts, a: a, w: w}
	defer sess.end()
	if err == nil && childErr != nil {
		core.Logger().Warn("plugins will run in this process", "error", childErr)
	}
	if _, err := sess.show(core, err); err != nil {
		core.Close()
		return err
	}

	// A signal quits the app as closing the window does.
	stop := context.AfterFunc(ctx, func() { fyne.Do(a.Quit) })
	defer stop()
	w.ShowAndRun()
	return nil
}

// remoteCommand is what the window's dialog shows of a command sent to it.
func remoteCommand(line string, from *assistant.Peer) ui.RemoteCommand {
	rc := ui.RemoteCommand{Line: line, Sender: "an unknown program (this system does not say which)"}
	if from != nil {
		rc.Sender = from.String()
		if from.Parent != nil {
			rc.Parent = from.Parent.String()
		}
	}
	return rc
}

// windowServer answers other wrasse processes while the window is open:
// an empty request brings the window forward, anything else is a CLI
// command run inside this process.
type windowServer struct {
	raise func()
	cli   assistant.Handler
	// done ends when the window closes; the commands still running are
	// cancelled then.
	done context.Context

	mu      sync.Mutex
	closing bool
	running sync.WaitGroup
}

func (s *windowServer) handle(ctx context.Context, req assistant.Request, stdout, stderr io.Writer) int {
	if len(req.Args) == 0 {
		s.raise()
		return exitOK
	}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		fmt.Fprintln(stderr, "wrasse: the Wrasse window is closing; run the command again in a moment")
		return exitFail
	}
	s.running.Add(1)
	s.mu.Unlock()
	defer s.running.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if s.done != nil {
		defer context.AfterFunc(s.done, cancel)()
	}
	return s.cli(ctx, req, stdout, stderr)
}

// finish refuses new commands, cancels the running ones (cancel ends
// s.done) and waits for them, so the core they use outlives them.
func (s *windowServer) finish(cancel context.CancelFunc) {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	cancel()
	s.running.Wait()
}

// profileCPU writes CPU profiles to path.0, path.1, … each covering 5 s,
// so work after a reply can be told from the reply's own; stop ends the
// last.
func profileCPU(path string) (stop func(), err error) {
	f, err := os.Create(path + ".0")
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for i := 1; ; i++ {
			select {
			case <-done:
			case <-time.After(5 * time.Second):
			}
			pprof.StopCPUProfile()
			f.Close()
			select {
			case <-done:
				return
			default:
			}
			if f, err = os.Create(path + "." + strconv.Itoa(i)); err != nil {
				return
			}
			_ = pprof.StartCPUProfile(f)
		}
	}()
	return func() { close(done); <-finished }, nil
}
