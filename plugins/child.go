package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// defaultChildSlack is how much longer than the plugin's own deadline the
// host waits for a plugin process's answer before it kills the process.
// The process enforces the deadline itself; the host's bound catches a
// process that is wedged (swapping, stopped, its machinery stuck).
const defaultChildSlack = 2 * time.Second

// Bounds on a plugin process that is going away, and on what of its raw
// output (the Go runtime's crash report) is kept.
const (
	childExitWait = 2 * time.Second
	maxCrashLines = 200
	maxCrashBytes = 32 << 10
)

// childRuntime serves one plugin that runs in its own process. It
// implements cerebellum.Runtime. Calls are one at a time; a process that
// dies is replaced on the next call.
type childRuntime struct {
	host *Host
	bp   *blueprint
	log  *slog.Logger
	load *wireLoad
	// env is the process environment: the plugin's virtual one, never the
	// app's.
	env []string
	// secrets applies the plugin's secret rules on this side.
	secrets func(string) (string, error)
	turn    chan struct{}

	mu     sync.Mutex
	cur    *childProc
	closed bool
	// starts counts processes started, for tests.
	starts int
}

var _ cerebellum.Runtime = (*childRuntime)(nil)

// startChild starts a plugin in a process of its own.
func (h *Host) startChild(ctx context.Context, bp *blueprint, venv *virtualEnv) (cerebellum.Runtime, error) {
	r := &childRuntime{host: h, bp: bp, log: bp.log, load: h.wireLoad(bp, venv), env: venv.list(),
		secrets: bp.env.secrets, turn: make(chan struct{}, 1)}
	p, err := r.spawn(ctx)
	if err != nil {
		return nil, err
	}
	r.cur = p
	return r, nil
}

// wireLoad is the load request for a plugin process: the source the host
// checked and the authority it settled.
func (h *Host) wireLoad(bp *blueprint, venv *virtualEnv) *wireLoad {
	l := &wireLoad{Version: childproc.Version, Name: bp.name, Files: map[string][]byte{}, Permissions: bp.perms, Granted: bp.granted,
		Workspace: bp.env.workspace, Protected: bp.env.protected(), PluginDir: bp.env.pluginDir, Roots: bp.env.roots, Hosts: bp.env.hosts,
		Env: map[string]string{}, Settings: bp.env.settings, DefaultTimeout: h.opts.DefaultTimeout, CloseTimeout: h.opts.CloseTimeout,
		MaxUntrustedTimeout: h.opts.MaxUntrustedTimeout}
	for _, f := range bp.src.files {
		l.Files[f.name] = f.data
	}
	for _, n := range bp.declared {
		t := bp.tools[n]
		l.Tools = append(l.Tools, wireTool{Name: n, Timeout: t.timeout})
	}
	for _, kv := range venv.list() {
		k, v, _ := strings.Cut(kv, "=")
		l.Env[k] = v
	}
	return l
}

// spawn starts a process and loads the plugin in it.
func (r *childRuntime) spawn(ctx context.Context) (*childProc, error) {
	pol := pluginPolicy(r.load, r.bp.cat.policy)
	pol.NoMountNS = r.host.noMountNS
	p, err := startChildProc(r.host.opts.Child, r.env, r.host.opts.sandboxLauncher(), pol, r.log, r.secrets)
	if err != nil {
		return nil, fmt.Errorf("capability %s: cannot start a plugin process (%s): %w", r.bp.name, r.host.opts.Child[0], err)
	}
	r.mu.Lock()
	r.starts++
	r.mu.Unlock()
	bound := 2*r.host.opts.DefaultTimeout + r.host.grace + r.host.childSlack
	m, err := p.roundTrip(ctx, &wireMsg{Op: opLoad, Load: r.load}, bound)
	switch {
	case errors.Is(err, ErrPluginCrashed):
		return nil, fmt.Errorf("capability %s: %w: %w", r.bp.name, ErrInit, err)
	case err != nil:
		p.kill()
		go p.finish()
		return nil, fmt.Errorf("capability %s: %w", r.bp.name, err)
	case m.Err != nil:
		p.shutdown()
		return nil, m.Err.err()
	}
	return p, nil
}

// proc returns the live process, starting one after a crash or overrun.
func (r *childRuntime) proc(ctx context.Context) (*childProc, error) {
	r.mu.Lock()
	closed, p := r.closed, r.cur
	r.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("capability %s: %w", r.bp.name, ErrClosed)
	}
	if p != nil {
		select {
		case <-p.gone:
		case <-p.exited:
		default:
			return p, nil
		}
		// It died between calls (a goroutine the library started for
		// plugin code); this call did not cause it, so it gets a new one.
		p.crashing.Store(true)
		r.discard(p)
		p.logCrash("plugin process ended between calls", "report", p.crashReport(nil))
	}
	r.log.Info("starting a new plugin process")
	p, err := r.spawn(ctx)
	if err != nil {
		return nil, fmt.Errorf("restart failed: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		p.kill()
		go p.finish()
		return nil, fmt.Errorf("capability %s: %w", r.bp.name, ErrClosed)
	}
	r.cur = p
	return p, nil
}

// discard kills p and forgets it: the next call starts a new process.
// A process Close took over is left to Close, which ends it after its
// answer or its bound: a call ending during Close (told to replace the
// process, or timed out) would otherwise kill it under Close, which then
// reported a crash during OnClose.
func (r *childRuntime) discard(p *childProc) {
	r.mu.Lock()
	mine := r.cur == p
	if mine {
		r.cur = nil
	}
	closing := r.closed
	r.mu.Unlock()
	if closing && !mine {
		return
	}
	p.kill()
	go p.finish()
}

func (r *childRuntime) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// Call runs one tool in the plugin's process.
func (r *childRuntime) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	t, ok := r.bp.tools[tool]
	if !ok {
		return cerebellum.Result{}, fmt.Errorf("%w: capability %s declares no tool %q", ErrUnknownTool, r.bp.name, tool)
	}
	where := func() string { return "capability " + r.bp.name + ", tool " + tool }
	if err := ctx.Err(); err != nil {
		return cerebellum.Result{}, fmt.Errorf("%s: call abandoned before it started: %w", where(), context.Cause(ctx))
	}
	select {
	case r.turn <- struct{}{}:
		defer func() { <-r.turn }()
	default:
		select {
		case r.turn <- struct{}{}:
			defer func() { <-r.turn }()
		case <-ctx.Done():
			return cerebellum.Result{}, fmt.Errorf("%s: abandoned while waiting for the previous call: %w", where(), context.Cause(ctx))
		}
	}
	p, err := r.proc(ctx)
	if err != nil {
		return cerebellum.Result{}, err
	}
	call := &wireMsg{Op: opCall, Tool: tool, Args: args, ctx: ctx}
	if err := p.begin(call); err != nil {
		return cerebellum.Result{}, r.crashed(p, where(), err)
	}
	defer p.end(call.ID)
	m, how := p.await(ctx, call, time.Now().Add(t.timeout+r.host.grace+r.host.childSlack))
	if how == waitCancelled {
		// The process stops the call as at its own deadline.
		if err := p.send(&wireMsg{Op: opCancel, ID: call.ID}); err != nil {
			return cerebellum.Result{}, r.crashed(p, where(), err)
		}
		m, how = p.await(context.Background(), call, time.Now().Add(r.host.grace+r.host.childSlack))
	}
	switch how {
	case waitReplied:
		return r.answer(ctx, p, where(), m)
	case waitGone:
		return cerebellum.Result{}, r.crashed(p, where(), nil)
	}
	r.discard(p)
	r.log.Warn("plugin process did not answer in time and was stopped", "tool", tool)
	if ctx.Err() != nil {
		return cerebellum.Result{}, fmt.Errorf("%s: call abandoned; the plugin process did not stop and was killed: %w", where(), context.Cause(ctx))
	}
	return cerebellum.Result{}, fmt.Errorf("%w: %s ran longer than %s and its process did not answer; the process was killed and the plugin restarts on the next call",
		ErrPluginTimeout, where(), t.timeout)
}

// answer turns a call's reply into the result or error of Call.
func (r *childRuntime) answer(ctx context.Context, p *childProc, where string, m *wireMsg) (cerebellum.Result, error) {
	if m.Restart {
		// The process stopped an overrunning interpreter; code blocked in
		// a library call may still hold a goroutine there. Start afresh.
		r.discard(p)
	}
	if m.Err != nil {
		if ctx.Err() != nil && (m.Err.is(context.Canceled) || m.Err.is(context.DeadlineExceeded)) {
			return cerebellum.Result{}, fmt.Errorf("%s: call abandoned%s: %w", where, restartNote(m.Restart), context.Cause(ctx))
		}
		return cerebellum.Result{}, m.Err.err()
	}
	if m.Result == nil {
		return cerebellum.Result{}, nil
	}
	// Checked and cut by the registry, like every runtime's (Registry.Run).
	return *m.Result, nil
}

// crashed reports the death of p during a call and forgets p.
func (r *childRuntime) crashed(p *childProc, where string, cause error) error {
	p.crashing.Store(true)
	r.discard(p)
	if r.isClosed() {
		return fmt.Errorf("%w: %s: the plugin was closed during the call", ErrClosed, where)
	}
	report := p.crashReport(cause)
	p.logCrash("plugin process crashed", "where", where, "report", report)
	return fmt.Errorf("%w: %s: %s; the plugin restarts on the next call", ErrPluginCrashed, where, report)
}

// Close runs the plugin's OnClose in its process (bounded by
// Options.CloseTimeout) and ends the process.
func (r *childRuntime) Close() error {
	r.mu.Lock()
	p := r.cur
	r.cur = nil
	already := r.closed
	r.closed = true
	r.mu.Unlock()
	if already || p == nil {
		return nil
	}
	bound := r.host.opts.CloseTimeout + r.host.grace + r.host.childSlack
	m, err := p.roundTrip(context.Background(), &wireMsg{Op: opClose}, bound)
	switch {
	case err != nil && errors.Is(err, ErrPluginTimeout):
		p.kill()
		p.finish()
		return fmt.Errorf("capability %s: %w: OnClose ran longer than %s; its process was killed", r.bp.name, ErrPluginTimeout, r.host.opts.CloseTimeout)
	case err != nil:
		p.kill()
		p.finish()
		return fmt.Errorf("capability %s: OnClose: %w", r.bp.name, err)
	}
	p.shutdown()
	return m.Err.err()
}
