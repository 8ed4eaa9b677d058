package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// Limits of a plugin process: runaway recursion dies at a 64 MiB stack
// instead of the default 1 GiB, a plugin runs its Go code on one core (it
// may not start goroutines, and it serves one call at a time), and (on
// Linux, for plugins without exec) its address space may grow by at most
// 2 GiB once the plugin is about to start. One P, not two: with a second
// one idle, every goroutine a call starts (the guard's, the next reader)
// woke another thread to run it, which made a call's trip about three
// times as long (BenchmarkChildOverhead ~11 µs with one P, 29-40 µs with
// two, on 2 loaded cores).
const (
	childMaxStack = 64 << 20
	childMaxProcs = 1
)

// ServeChild is the plugin-process side of Options.Child: the hidden
// subcommand of the app calls it with its stdin, stdout and stderr. It
// limits this process (stack, threads, memory), reads one load request,
// starts that plugin with the host's in-process machinery (checks, policy,
// virtual environment, timeouts) and serves calls until the host closes it
// or goes away. Its log goes to errOut as slog JSON lines.
func ServeChild(ctx context.Context, in io.Reader, out io.Writer, errOut io.Writer) error {
	// What the sandbox launcher mounted, when the host started this
	// process through it (startChildProc); taken out of the environment
	// before anything else reads it.
	var mounts *sandbox.MountReport
	if r, ok := sandbox.TakeMountReport(); ok {
		mounts = &r
	}
	restoreEnv()
	debug.SetMaxStack(childMaxStack)
	if runtime.GOMAXPROCS(0) > childMaxProcs {
		runtime.GOMAXPROCS(childMaxProcs)
	}
	logs := &countingWriter{w: errOut}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	in, out = childproc.PollableStdio(in).(io.Reader), childproc.PollableStdio(out).(io.Writer)
	return serveChild(ctx, in, out, logs, log, childproc.LimitMemory, sandbox.Confine, mounts)
}

// restoreEnv gives this process back the environment the host meant for
// it: the host started it with the locale set aside (sandbox.LauncherEnv),
// and the plugin and the programs it runs see the user's own.
func restoreEnv() {
	env := os.Environ()
	want := sandbox.CommandEnv(env)
	if slices.Equal(env, want) {
		return
	}
	os.Clearenv()
	for _, kv := range want {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
}

// countingWriter counts the log lines written, so that a reply can tell
// the host how many lines precede it (the host relays them first).
type countingWriter struct {
	mu    sync.Mutex
	w     io.Writer
	lines atomic.Uint64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.w.Write(p)
	for _, b := range p[:n] {
		if b == '\n' {
			c.lines.Add(1)
		}
	}
	return n, err
}

// childServer is the state of one plugin process.
type childServer struct {
	w    msgWriter
	log  *slog.Logger
	logs *countingWriter
	// done is closed when serving ends; waits for the host give up then.
	done chan struct{}
	// limitMemory caps the process's address space (nil: no cap).
	limitMemory func(room uint64) error
	// restrict confines the process with the OS sandbox (nil: not at all).
	restrict func(sandbox.Policy) (sandbox.Status, error)
	// mounts is what the sandbox launcher made of this process's mount
	// namespace (nil: it was not started through one).
	mounts *sandbox.MountReport

	closeOnce sync.Once

	mu      sync.Mutex
	rt      *pluginRuntime
	loading bool
	calls   map[uint64]context.CancelFunc
	// secrets are the secret and host requests waiting for the host.
	secrets    map[uint64]chan *wireMsg
	nextSecret uint64
}

func serveChild(ctx context.Context, in io.Reader, out io.Writer, logs *countingWriter, log *slog.Logger, limit func(uint64) error,
	restrict func(sandbox.Policy) (sandbox.Status, error), mounts *sandbox.MountReport) error {
	s := &childServer{
		w: newMsgWriter(out, maxHostInLine), log: log, logs: logs, done: make(chan struct{}), limitMemory: limit, restrict: restrict, mounts: mounts,
		calls: map[uint64]context.CancelFunc{}, secrets: map[uint64]chan *wireMsg{},
	}
	defer close(s.done)
	readErr := make(chan error, 1)
	closed := make(chan struct{})
	lr := childproc.NewLineReader(in, maxChildInLine)
	// One goroutine reads at a time and dispatches what it reads itself.
	// A call it runs itself too, handing the reading to another goroutine
	// first: the call then continues on the thread that woke up with the
	// message instead of waking a second one, which is most of what a
	// round trip costs besides the two pipe writes. The other goroutine is
	// one that ran an earlier call and waits in handoff, so its stack has
	// grown to what a call needs: a new goroutine per call grew (copied)
	// its stack at every call, a quarter of this process's time per call.
	handoff := make(chan struct{})
	var read func()
	read = func() {
		for {
			line, err := lr.Next()
			if err != nil {
				readErr <- err
				return
			}
			m := &wireMsg{}
			if err := json.Unmarshal(line, m); err != nil {
				readErr <- fmt.Errorf("malformed message from the host: %w", err)
				return
			}
			select {
			case <-s.done:
				return
			default:
			}
			if m.Op == opCall {
				cctx := s.register(ctx, m)
				select {
				case handoff <- struct{}{}:
				default:
					go read() // every other goroutine runs a call
				}
				s.call(cctx, m)
				select {
				case <-handoff: // the reading is this goroutine's again
					continue
				case <-s.done:
					return
				}
			}
			if err := s.dispatch(ctx, m, closed); err != nil {
				readErr <- err
				return
			}
		}
	}
	go read()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-closed:
		return nil
	case err := <-readErr:
		if errors.Is(err, io.EOF) {
			return nil // the host went away: so does this process
		}
		return err
	}
}

// callIDKey carries the id of the load or call a context belongs to, so
// that a host request names it (askHost).
type callIDKey struct{}

// register makes the context of call m, which a cancel message ends.
func (s *childServer) register(ctx context.Context, m *wireMsg) context.Context {
	cctx, cancel := context.WithCancel(context.WithValue(ctx, callIDKey{}, m.ID))
	s.mu.Lock()
	s.calls[m.ID] = cancel
	s.mu.Unlock()
	return cctx
}

// dispatch handles a message other than a call (see serveChild).
func (s *childServer) dispatch(ctx context.Context, m *wireMsg, closed chan struct{}) error {
	switch m.Op {
	case opLoad:
		s.mu.Lock()
		busy := s.rt != nil || s.loading
		s.loading = true
		s.mu.Unlock()
		if busy || m.Load == nil {
			return fmt.Errorf("unexpected load request (a plugin process serves one plugin)")
		}
		go s.load(ctx, m)
	case opCancel:
		s.mu.Lock()
		cancel := s.calls[m.ID]
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case opSecret, opHost:
		s.mu.Lock()
		ch := s.secrets[m.ID]
		delete(s.secrets, m.ID)
		s.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	case opClose:
		s.closeOnce.Do(func() {
			go func() {
				s.close(m)
				close(closed)
			}()
		})
	default:
		return fmt.Errorf("unknown message %q from the host", m.Op)
	}
	return nil
}

// reply sends a reply with the number of log lines written before it.
func (s *childServer) reply(m *wireMsg) error {
	m.Logs = s.logs.lines.Load()
	err := s.w.send(m)
	if err != nil {
		s.log.Error("cannot answer the host", "op", m.Op, "err", err)
	}
	return err
}

// load starts the plugin the host checked, with the authority it settled.
func (s *childServer) load(ctx context.Context, m *wireMsg) {
	rt, err := s.start(context.WithValue(ctx, callIDKey{}, m.ID), m.Load)
	s.mu.Lock()
	s.rt = rt
	s.loading = false
	s.mu.Unlock()
	s.reply(&wireMsg{Op: opLoaded, ID: m.ID, Err: toWireError(err)})
}

func (s *childServer) start(ctx context.Context, l *wireLoad) (*pluginRuntime, error) {
	if err := childproc.CheckVersion(l.Version); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInit, err)
	}
	h := NewHost(Options{Logger: s.log, DefaultTimeout: l.DefaultTimeout, CloseTimeout: l.CloseTimeout,
		MaxUntrustedTimeout: l.MaxUntrustedTimeout,
		// The hosts the host settled (narrowed by a setting, say), not the
		// bare SKILL.md list: they decide what the checker refuses.
		Hosts: func(string, []string) []string { return l.Hosts }})
	env := l.Env
	h.lookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	h.environ = func() []string {
		out := make([]string, 0, len(env))
		for k, v := range env {
			out = append(out, k+"="+v)
		}
		sort.Strings(out)
		return out
	}
	fsys := fstest.MapFS{}
	for name, data := range l.Files {
		fsys[pluginDir+"/"+name] = &fstest.MapFile{Data: data}
	}
	man := &skillmd.Manifest{Name: l.Name, Permissions: l.Permissions}
	for _, t := range l.Tools {
		man.Tools = append(man.Tools, skillmd.Tool{Name: t.Name, Timeout: t.Timeout})
	}
	c := &cerebellum.Capability{Name: l.Name, Folder: l.Name, FS: fsys, Manifest: man,
		Kind: cerebellum.KindPlugin, State: cerebellum.StateOK}
	// The host refused this already; a process started by something else
	// refuses too, before anything is interpreted.
	if err := requireGrants(l.Name, false, l.Permissions, l.Granted); err != nil {
		return nil, err
	}
	bp, err := h.prepare(cerebellum.LoadRequest{Capability: c, Workspace: l.Workspace, Granted: l.Granted})
	if err != nil {
		return nil, err
	}
	bp.env = &envSpec{name: l.Name, pluginDir: l.PluginDir, workspace: l.Workspace,
		roots: l.Roots, hosts: l.Hosts, secrets: s.secret, log: bp.log, settings: l.Settings}
	bp.env.setProtected(l.Protected)
	if bp.egress != nil {
		bp.egress = newEgress(l.Name, l.Hosts, bp.env.fileScope(bp.cat.policy), s.askHost)
		// This process is the plugin's alone: an http.Client it makes
		// without a Transport (and the library code it calls) goes
		// through the checks too.
		http.DefaultTransport = bp.egress.client.Transport
	}
	// Programs a plugin starts inherit the cap, and some reserve far more
	// address space than they use (a JVM, V8): a plugin with exec may run
	// any program anyway, so it goes without.
	if s.limitMemory != nil && !bp.cat.policy.granted[skillmd.PermExec] {
		if err := s.limitMemory(childproc.MemoryRoom); err != nil {
			s.log.Warn("cannot limit the plugin process's memory", "err", err)
		}
	}
	if s.restrict != nil {
		if err := s.confine(l, bp.cat.policy); err != nil {
			return nil, err
		}
	}
	venv, _ := h.virtualEnv(bp)
	return h.start(ctx, bp, venv)
}

func (s *childServer) runtime() *pluginRuntime {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rt
}

func (s *childServer) call(ctx context.Context, m *wireMsg) {
	defer func() {
		s.mu.Lock()
		cancel := s.calls[m.ID]
		delete(s.calls, m.ID)
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}()
	rt := s.runtime()
	if rt == nil {
		s.reply(&wireMsg{Op: opResult, ID: m.ID, Err: toWireError(fmt.Errorf("%w: the plugin process has no plugin loaded", ErrClosed))})
		return
	}
	res, err := rt.Call(ctx, m.Tool, m.Args)
	r := &wireMsg{Op: opResult, ID: m.ID, Err: toWireError(err), Restart: rt.discarded()}
	if err == nil {
		r.Result = &res
	}
	if err := s.reply(r); errors.Is(err, childproc.ErrLineTooLong) {
		// More than a line carries: the host would take the process for
		// broken. The plugin is, in a way; say so and how much it sent.
		s.reply(&wireMsg{Op: opResult, ID: m.ID, Restart: r.Restart, Result: &cerebellum.Result{IsError: true, Content: fmt.Sprintf(
			"plugin error: %s returned %d bytes, more than the %d a plugin process may send in one result; ask for less, or the plugin needs fixing",
			m.Tool, len(res.Content), maxHostInLine)}})
	}
}

func (s *childServer) close(m *wireMsg) {
	var err error
	if rt := s.runtime(); rt != nil {
		err = rt.Close()
	}
	s.reply(&wireMsg{Op: opClosed, ID: m.ID, Err: toWireError(err)})
}

// secret asks the host for a secret; the host applies the plugin's rules.
func (s *childServer) secret(name string) (string, error) {
	ch := make(chan *wireMsg, 1)
	s.mu.Lock()
	s.nextSecret++
	id := s.nextSecret
	s.secrets[id] = ch
	s.mu.Unlock()
	if err := s.w.send(&wireMsg{Op: opSecret, ID: id, Name: name}); err != nil {
		return "", fmt.Errorf("secret %q: cannot ask the host: %w", name, err)
	}
	select {
	case m := <-ch:
		if m.Err != nil {
			return "", errors.New(m.Err.Msg)
		}
		return m.Value, nil
	case <-s.done:
		return "", fmt.Errorf("secret %q: the host went away", name)
	}
}

// askHost asks the host whether the load or call scope belongs to may
// reach target; the host answers with that call's check.
func (s *childServer) askHost(scope context.Context, target string) error {
	call, _ := scope.Value(callIDKey{}).(uint64)
	ch := make(chan *wireMsg, 1)
	s.mu.Lock()
	s.nextSecret++
	id := s.nextSecret
	s.secrets[id] = ch
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		delete(s.secrets, id)
		s.mu.Unlock()
	}
	if err := s.w.send(&wireMsg{Op: opHost, ID: id, Call: call, Name: target}); err != nil {
		forget()
		return fmt.Errorf("%w: %s: cannot ask the host: %v", sdk.ErrHostNotAllowed, target, err)
	}
	select {
	case m := <-ch:
		return m.Err.err()
	case <-scope.Done():
		forget()
		return fmt.Errorf("%w: %s: the call ended before the host answered: %w", sdk.ErrHostNotAllowed, target, context.Cause(scope))
	case <-s.done:
		return fmt.Errorf("%w: %s: the host went away", sdk.ErrHostNotAllowed, target)
	}
}

// confine restricts this process, before any plugin code runs, to what the
// plugin's permissions grant: its roots with files (nothing without), its
// own folder and what the runtime reads, TCP only with network.
func (s *childServer) confine(l *wireLoad, pol policy) error {
	st, err := s.restrict(pluginPolicy(l, pol))
	if err != nil {
		return fmt.Errorf("%w: capability %s: %v", ErrInit, l.Name, err)
	}
	if s.mounts != nil {
		s.mounts.Apply(&st)
		for _, n := range s.mounts.Notes {
			s.log.Warn("plugin sandbox: "+n, "sandbox", "mount namespace")
		}
		// The host foresees a refused namespace (logSandboxOnce, by the
		// probe); mounts refused inside one it could not (AppArmor's
		// restriction of user namespaces), so they are said at each start.
		if s.mounts.NS && !s.mounts.OK {
			s.log.Warn("the plugin's sandbox is incomplete: "+strings.Join(st.Gaps(), "; "), "sandbox", st.String())
			return nil
		}
	}
	// The host logs the gaps once per capability (logSandboxOnce); every
	// start of the process is a debug line.
	s.log.Debug("plugin sandboxed", "sandbox", st.String())
	return nil
}

// pluginPolicy is the sandbox of the process of plugin l: the host starts
// the process in the mount namespace it asks for (startChildProc), and
// the process confines itself to it (confine). Both sides make it from
// the same load request.
func pluginPolicy(l *wireLoad, pol policy) sandbox.Policy {
	return sandbox.ForPlugin(sandbox.PluginOptions{Roots: l.Roots, Protected: l.Protected, PluginDir: l.PluginDir,
		Files: pol.granted[skillmd.PermFiles], Exec: pol.granted[skillmd.PermExec], Network: pol.granted[skillmd.PermNetwork],
		NoListen: pol.limitHosts})
}
