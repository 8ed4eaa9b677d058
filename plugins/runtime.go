package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sdk"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// instance is one interpreter running one plugin. It is never reused after
// a timeout (pitfall 3: a stopped interpreter returns zero values).
type instance struct {
	it     *interp.Interpreter
	plugin *sdk.Plugin
	// handlers are the plugin's handlers, copied after Init: the host never
	// reads the plugin's own map again, which plugin code could change.
	handlers map[string]sdk.Handler
	stderr   *lineWriter
	grace    time.Duration
	log      *slog.Logger
	// evalMu serializes Eval on the interpreter (it is not meant to run
	// concurrently); calls of extracted functions do not take it.
	evalMu sync.Mutex
	// dead is set once the interpreter was stopped.
	dead atomic.Bool
	// running counts guarded goroutines still executing plugin code.
	running sync.WaitGroup
}

// status is how a guarded run ended.
type status int

const (
	statusDone status = iota
	statusPanic
	statusTimeout
	statusCancelled
	statusInterrupted
)

// panicInfo describes a recovered panic.
type panicInfo struct {
	value any
	// where is the source position of the panic ("plugin/main.go:12:3"), if known.
	where string
	stack []byte
}

func (p *panicInfo) String() string {
	if p.where != "" {
		return fmt.Sprintf("%v (at %s)", p.value, p.where)
	}
	return fmt.Sprint(p.value)
}

// guard runs fn on its own goroutine under recover and a deadline. When
// the deadline passes (or ctx ends) fn gets a short grace to return on its
// own; after that the interpreter is stopped and the instance is dead.
// killed reports that guard stopped it.
func (in *instance) guard(ctx context.Context, timeout time.Duration, fn func(ctx context.Context)) (st status, p *panicInfo, killed bool) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	mark := in.stderr.mark()
	done := make(chan *panicInfo, 1)
	in.running.Add(1)
	// Without the monitor awake, code that never yields is never
	// preempted, and the deadline below never fires on a single P.
	childproc.WakeMonitor()
	go func() {
		defer in.running.Done()
		defer func() {
			if r := recover(); r != nil {
				done <- &panicInfo{value: r, stack: debug.Stack()}
				return
			}
			done <- nil
		}()
		fn(cctx)
	}()
	finished := func(p *panicInfo) (status, *panicInfo) {
		if p != nil {
			p.where = panicWhere(in.stderr.firstPanicSince(mark))
			return statusPanic, p
		}
		if in.dead.Load() {
			return statusInterrupted, nil
		}
		return statusDone, nil
	}
	select {
	case p := <-done:
		st, p := finished(p)
		return st, p, false
	case <-cctx.Done():
	}
	overrun := statusTimeout
	if ctx.Err() != nil {
		overrun = statusCancelled
	}
	grace := time.NewTimer(in.grace)
	defer grace.Stop()
	select {
	case p := <-done:
		// It returned on its own after the deadline: the instance is fine.
		if st, p := finished(p); st == statusPanic || st == statusInterrupted {
			return st, p, false
		}
		return overrun, nil, false
	case <-grace.C:
		in.kill()
		return overrun, nil, true
	}
}

// panicWhere extracts "plugin/main.go:12:3" from an interpreter panic line.
func panicWhere(line string) string {
	if i := strings.Index(line, ": panic: "); i > 0 {
		return line[:i]
	}
	return ""
}

// kill stops every frame running in the interpreter and marks the
// instance dead. yaegi stops running code only through a cancelled
// EvalWithContext, so it evaluates a select that blocks until the
// cancellation closes the interpreter's done channel: the cancel branch
// is then the only one that can fire, and it bumps the run id every
// interpreted loop checks.
func (in *instance) kill() {
	if !in.dead.CompareAndSwap(false, true) {
		return
	}
	in.evalMu.Lock()
	defer in.evalMu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		_, err = in.it.EvalWithContext(ctx, "select {}")
		return err
	}()
	if !errors.Is(err, context.Canceled) {
		in.log.Warn("stopping a plugin interpreter did not report cancellation", "err", err)
	}
}

// toolSpec is what the runtime knows of one declared tool.
type toolSpec struct {
	name    string
	timeout time.Duration
}

// pluginRuntime serves the tools of one loaded plugin. It implements
// cerebellum.Runtime.
type pluginRuntime struct {
	host *Host
	bp   *blueprint
	log  *slog.Logger

	mu     sync.Mutex
	cur    *instance
	closed bool
	// turn, when set, admits one call at a time (see blueprint.serial).
	turn chan struct{}
}

var _ cerebellum.Runtime = (*pluginRuntime)(nil)

// instance returns the live instance, building a new one after a timeout.
func (r *pluginRuntime) instance(ctx context.Context) (*instance, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, fmt.Errorf("capability %s: %w", r.bp.name, ErrClosed)
	}
	if r.cur != nil && !r.cur.dead.Load() {
		return r.cur, nil
	}
	r.log.Info("restarting plugin after a timeout")
	in, err := r.host.build(ctx, r.bp, nil)
	if err != nil {
		return nil, fmt.Errorf("capability %s: restart after a timeout failed: %w", r.bp.name, err)
	}
	r.cur = in
	return in, nil
}

// discarded reports whether the runtime has no live instance: it was
// stopped after an overrun (or closed).
func (r *pluginRuntime) discarded() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur == nil || r.cur.dead.Load()
}

// Call runs one tool. Arguments were validated by the registry.
func (r *pluginRuntime) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	t, ok := r.bp.tools[tool]
	if !ok {
		return cerebellum.Result{}, fmt.Errorf("%w: capability %s declares no tool %q", ErrUnknownTool, r.bp.name, tool)
	}
	if err := ctx.Err(); err != nil {
		return cerebellum.Result{}, fmt.Errorf("capability %s, tool %s: call abandoned before it started: %w", r.bp.name, tool, context.Cause(ctx))
	}
	if r.turn != nil {
		select {
		case r.turn <- struct{}{}:
			defer func() { <-r.turn }()
		case <-ctx.Done():
			return cerebellum.Result{}, fmt.Errorf("capability %s, tool %s: abandoned while waiting for the previous call: %w", r.bp.name, tool, context.Cause(ctx))
		}
	}
	in, err := r.instance(ctx)
	if err != nil {
		return cerebellum.Result{}, err
	}
	req, err := sdk.NewRequest(tool, args)
	if err != nil {
		return cerebellum.Result{Content: err.Error(), IsError: true}, nil
	}
	h := in.handlers[tool]
	if eg := r.bp.egress; eg != nil {
		defer eg.enter(ctx)()
	}
	var o outcome
	st, p, killed := in.guard(ctx, t.timeout, func(ctx context.Context) {
		o = toOutcome(h(ctx, req))
	})
	where := fmt.Sprintf("capability %s, tool %s", r.bp.name, tool)
	switch st {
	case statusPanic:
		r.log.Error("plugin panicked", "tool", tool, "panic", p.String(), "stack", string(p.stack))
		return cerebellum.Result{}, fmt.Errorf("%w: %s: %s", ErrPluginPanic, where, p)
	case statusTimeout:
		return cerebellum.Result{}, fmt.Errorf("%w: %s ran longer than %s%s", ErrPluginTimeout, where, t.timeout, restartNote(killed))
	case statusCancelled:
		return cerebellum.Result{}, fmt.Errorf("%s: call abandoned%s: %w", where, restartNote(killed), context.Cause(ctx))
	case statusInterrupted:
		return cerebellum.Result{}, fmt.Errorf("%w: %s: another call timed out and the plugin was restarted; try again", ErrInterrupted, where)
	}
	return r.finish(t, o), nil
}

func restartNote(killed bool) string {
	if killed {
		return "; the plugin was stopped and restarts on the next call"
	}
	return ""
}

// Close runs the plugin's OnClose and drops the interpreter.
func (r *pluginRuntime) Close() error {
	r.mu.Lock()
	in := r.cur
	r.cur = nil
	already := r.closed
	r.closed = true
	r.mu.Unlock()
	if already || in == nil {
		return nil
	}
	if err := in.close(context.Background(), r.host.opts.CloseTimeout); err != nil {
		return fmt.Errorf("capability %s: %w", r.bp.name, err)
	}
	return nil
}

// close runs OnClose under the guard; a dead instance has nothing to run.
func (in *instance) close(ctx context.Context, timeout time.Duration) error {
	if in.dead.Load() || in.plugin == nil {
		return nil
	}
	var msg string
	st, p, _ := in.guard(ctx, timeout, func(context.Context) {
		if err := in.plugin.Close(); err != nil {
			msg = err.Error()
			if msg == "" {
				msg = "failed without a message"
			}
		}
	})
	switch st {
	case statusPanic:
		return fmt.Errorf("%w: OnClose: %s", ErrPluginPanic, p)
	case statusTimeout, statusCancelled:
		return fmt.Errorf("%w: OnClose ran longer than %s and was abandoned", ErrPluginTimeout, timeout)
	}
	if msg != "" {
		return fmt.Errorf("OnClose: %s", msg)
	}
	return nil
}
