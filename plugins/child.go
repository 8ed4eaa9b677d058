package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"
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
	l := &wireLoad{Version: protocolVersion, Name: bp.name, Files: map[string][]byte{}, Permissions: bp.perms, Granted: bp.granted,
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
	p, err := startChildProc(r.host.opts.Child, r.env, r.log, r.secrets)
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

// childProc is one running plugin process and its pipes.
//
// Its messages are read by the goroutine waiting for a reply, in its own
// read of the pipe (one reader at a time: readTok): the reply wakes that
// goroutine and no other, where a reader goroutine handing replies over a
// channel woke two, often on two threads. Whatever else it reads (a reply
// to another waiter, a secret request) it passes on; another waiter takes
// over the reading when it is done.
type childProc struct {
	cmd    *exec.Cmd
	log    *slog.Logger
	w      *msgWriter
	stdin  fileIO
	stdout deadlineReader
	// stderr is closed by finish too: a program the plugin started may
	// hold it open long after the process.
	stderr  *os.File
	secrets func(string) (string, error)

	// readTok is held by the goroutine reading stdout; rd is its.
	readTok chan struct{}
	rd      *msgReader

	mu      sync.Mutex
	nextID  uint64
	waiting map[uint64]*wireMsg

	// gone is closed when no more messages can come (stdout ended or
	// carried garbage); goneErr says why.
	gone     chan struct{}
	goneOnce sync.Once
	goneErr  error
	// exited is closed once the process was reaped; exitErr is Wait's.
	exited  chan struct{}
	exitErr error
	// errDone is closed when stderr ended.
	errDone chan struct{}
	logs    logCount
	out     rawOutput

	finishOnce sync.Once
	// crashing is set when a crash is being reported (with the raw
	// output); reported once that output was logged.
	crashing, reported atomic.Bool
	// asking counts the secret requests being answered.
	asking atomic.Int32
}

// startChildProc starts argv with env and its three pipes.
func startChildProc(argv, env []string, log *slog.Logger, secrets func(string) (string, error)) (*childProc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	// The process is the Wrasse executable, whose GUI toolkit logs an
	// error at init under LANG=C.UTF-8; ServeChild puts env back.
	cmd.Env = sandbox.LauncherEnv(env)
	var ends [6]*os.File // host, child end of: stdin, stdout, stderr
	for i, hostReads := range []bool{false, true, true} {
		h, c, err := childPipe(hostReads)
		if err != nil {
			closeAll(ends[:2*i]...)
			return nil, err
		}
		ends[2*i], ends[2*i+1] = h, c
	}
	inW, inR, outR, outW, errR, errW := ends[0], ends[1], ends[2], ends[3], ends[4], ends[5]
	// *os.File pipes: the child writes straight into them, so Wait waits
	// for the process only, not for copies a grandchild could hold open.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	configureChild(cmd)
	if err := cmd.Start(); err != nil {
		closeAll(ends[:]...)
		return nil, err
	}
	closeAll(inR, outW, errW)
	stdin := hostEnd(inW)
	p := &childProc{cmd: cmd, log: log, w: &msgWriter{w: stdin}, stdin: stdin, stdout: hostReader(outR), stderr: errR, secrets: secrets,
		readTok: make(chan struct{}, 1), waiting: map[uint64]*wireMsg{},
		gone: make(chan struct{}), exited: make(chan struct{}), errDone: make(chan struct{})}
	p.rd = newMsgReader(p.stdout, maxHostInLine)
	p.logs.init()
	go p.readStderr(errR)
	go p.wait()
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

func (p *childProc) wait() {
	err := p.cmd.Wait()
	p.mu.Lock()
	p.exitErr = err
	p.mu.Unlock()
	// Whatever the plugin started in the process group goes too.
	killTree(p.cmd.Process)
	close(p.exited)
	// A reader waits for the end of stdout, which a program the plugin
	// started outside its group could hold open: wake it (it reads what
	// is left and stops).
	_ = p.stdout.SetReadDeadline(time.Now())
}

// kill ends the process (and its process group where there is one).
func (p *childProc) kill() {
	killTree(p.cmd.Process)
	p.stdin.Close()
}

// shutdown ends a process that has nothing more to do (it answered
// close, or failed to load). Its log up to its answer was relayed already,
// so it is killed rather than waited for.
func (p *childProc) shutdown() {
	p.kill()
	p.finish()
}

// finish waits (bounded) for the process and its pipes to end and logs
// any raw output (the Go runtime's, when it died).
func (p *childProc) finish() {
	p.finishOnce.Do(func() {
		p.awaitEnd()
		// A reader still there is woken by the close and stops.
		p.stdout.Close()
		p.stderr.Close()
		if out := p.rawOutput(); out != "" && !p.crashing.Load() {
			p.log.Warn("plugin process output", "output", out)
		}
	})
}

// awaitEnd waits for the process to be reaped and its output read, killing
// it if it lingers; every wait is bounded.
func (p *childProc) awaitEnd() {
	select {
	case <-p.exited:
	case <-time.After(childExitWait):
		p.kill()
		select {
		case <-p.exited:
		case <-time.After(childExitWait):
		}
	}
	select {
	case <-p.errDone:
	case <-time.After(childExitWait):
	}
}

// send writes one message to the process.
func (p *childProc) send(m *wireMsg) error {
	// A process that stopped reading must not block the host for ever.
	_ = p.stdin.SetWriteDeadline(time.Now().Add(childExitWait))
	if err := p.w.send(m); err != nil {
		return fmt.Errorf("cannot write to the plugin process: %w", err)
	}
	return nil
}

// begin registers m for its reply and sends it. m.reply receives the reply.
func (p *childProc) begin(m *wireMsg) error {
	m.reply = make(chan *wireMsg, 1)
	p.mu.Lock()
	p.nextID++
	m.ID = p.nextID
	p.waiting[m.ID] = m
	p.mu.Unlock()
	if err := p.send(m); err != nil {
		p.end(m.ID)
		return err
	}
	return nil
}

func (p *childProc) end(id uint64) {
	p.mu.Lock()
	delete(p.waiting, id)
	p.mu.Unlock()
}

// How a wait for a reply ended.
type waitEnd int

const (
	waitReplied waitEnd = iota
	// waitGone: the process's messages ended without the reply.
	waitGone
	// waitTimedOut: the deadline passed first.
	waitTimedOut
	// waitCancelled: ctx ended first.
	waitCancelled
)

// await waits for the reply to m (sent with begin) until deadline or the
// end of ctx, reading the process's messages itself whenever no other
// goroutine does.
func (p *childProc) await(ctx context.Context, m *wireMsg, deadline time.Time) (*wireMsg, waitEnd) {
	select {
	case p.readTok <- struct{}{}: // the usual case: nobody else waits
		return p.readFor(ctx, m, deadline)
	default:
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case r := <-m.reply:
		return r, waitReplied
	case p.readTok <- struct{}{}:
		return p.readFor(ctx, m, deadline)
	case <-p.gone:
		if r := p.lateReply(m); r != nil {
			return r, waitReplied
		}
		return nil, waitGone
	case <-t.C:
		return nil, waitTimedOut
	case <-ctx.Done():
		return nil, waitCancelled
	}
}

// readFor reads the process's messages, holding readTok (which it gives
// back), until the reply to m comes or the wait ends.
func (p *childProc) readFor(ctx context.Context, m *wireMsg, deadline time.Time) (*wireMsg, waitEnd) {
	defer func() { <-p.readTok }()
	// An end of ctx wakes the read (a deadline in the past).
	if ctx.Done() != nil {
		defer context.AfterFunc(ctx, func() { _ = p.stdout.SetReadDeadline(time.Now()) })()
	}
	// readBy is deadline until the process is seen to have ended, then
	// the end of the drain (fixed once: a program the process started may
	// keep writing for as long as it likes).
	readBy, ended := deadline, false
	for {
		// The reply came while another goroutine was reading.
		if r := p.lateReply(m); r != nil {
			return r, waitReplied
		}
		select {
		case <-p.gone:
			return nil, waitGone
		default:
		}
		// The deadline first, then the checks: a wake (the end of ctx, of
		// the process) sets the deadline after what it checks for is so,
		// so either the check sees it or the wake comes after this set.
		_ = p.stdout.SetReadDeadline(readBy)
		if !ended {
			select {
			case <-p.exited:
				// What the process wrote before it ended is in the pipe; a
				// program it started may hold the pipe open, so this does
				// not wait for the end of the stream.
				readBy, ended = time.Now().Add(drainWait), true
				_ = p.stdout.SetReadDeadline(readBy)
			default:
			}
		}
		if ended && !time.Now().Before(readBy) {
			p.stop(nil)
			return nil, waitGone
		}
		if ctx.Err() != nil {
			return nil, waitCancelled
		}
		if !ended && !time.Now().Before(deadline) {
			return nil, waitTimedOut
		}
		line, err := p.rd.next()
		switch {
		case err == nil:
		case errors.Is(err, os.ErrDeadlineExceeded):
			continue // woken, or the end of the drain: look again
		case errors.Is(err, io.EOF), errors.Is(err, os.ErrClosed):
			p.stop(nil)
			return nil, waitGone
		default:
			p.stop(fmt.Errorf("its messages cannot be read: %w", err))
			return nil, waitGone
		}
		r := &wireMsg{}
		if err := json.Unmarshal(line, r); err != nil {
			p.stop(fmt.Errorf("it sent a malformed message: %w", err))
			return nil, waitGone
		}
		if r.ID == m.ID && r.Op != opSecret && r.Op != opHost {
			p.logs.wait(r.Logs, p.errDone)
			return r, waitReplied
		}
		p.deliver(r)
	}
}

// drainWait bounds the reading of what a process that ended left in its
// stdout pipe.
const drainWait = 50 * time.Millisecond

// maxSecretRequests bounds the secret and host requests of a process
// being answered at once.
const maxSecretRequests = 16

// deliver passes on a message that is not the reader's reply: a secret or
// host request is answered, a reply goes to its waiter.
func (p *childProc) deliver(m *wireMsg) {
	if m.Op == opSecret || m.Op == opHost {
		// Each of the plugin's calls waits for its answer, so it has few
		// requests open at once; more is a process flooding the host
		// with goroutines (one per request, each answering).
		if p.asking.Add(1) > maxSecretRequests {
			p.stop(fmt.Errorf("it sent more than %d %s requests at once", maxSecretRequests, m.Op))
			return
		}
		go func() {
			defer p.asking.Add(-1)
			if m.Op == opHost {
				p.answerHost(m)
				return
			}
			p.answerSecret(m)
		}()
		return
	}
	// Relay the log lines written before the reply first.
	p.logs.wait(m.Logs, p.errDone)
	p.mu.Lock()
	w := p.waiting[m.ID]
	p.mu.Unlock()
	if w == nil {
		p.log.Debug("dropping a late reply from the plugin process", "op", m.Op)
		return
	}
	select {
	case w.reply <- m:
	default:
	}
}

// stop marks the end of the process's messages; err says why, if they
// did not simply end. A process out of step is killed.
func (p *childProc) stop(err error) {
	p.goneOnce.Do(func() {
		if err != nil {
			p.setGone(err)
			p.kill()
		}
		close(p.gone)
	})
}

// lateReply returns a reply another reader passed on, if there is one.
func (p *childProc) lateReply(m *wireMsg) *wireMsg {
	select {
	case r := <-m.reply:
		return r
	default:
		return nil
	}
}

// roundTrip sends m and waits, at most bound, for its reply.
func (p *childProc) roundTrip(ctx context.Context, m *wireMsg, bound time.Duration) (*wireMsg, error) {
	m.ctx = ctx
	if err := p.begin(m); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrPluginCrashed, p.crashReport(err))
	}
	defer p.end(m.ID)
	r, how := p.await(ctx, m, time.Now().Add(bound))
	switch how {
	case waitReplied:
		return r, nil
	case waitGone:
		p.crashing.Store(true)
		report := p.crashReport(nil)
		p.logCrash("plugin process crashed", "during", m.Op, "report", report)
		return nil, fmt.Errorf("%w: %s", ErrPluginCrashed, report)
	case waitTimedOut:
		return nil, fmt.Errorf("%w: the plugin process did not answer within %s", ErrPluginTimeout, bound)
	}
	return nil, fmt.Errorf("abandoned: %w", context.Cause(ctx))
}

func (p *childProc) answerSecret(m *wireMsg) {
	v, err := p.secrets(m.Name)
	if err := p.send(&wireMsg{Op: opSecret, ID: m.ID, Value: v, Err: toWireError(err)}); err != nil {
		p.log.Warn("cannot answer a secret request of the plugin process", "err", err)
	}
}

// answerHost answers whether the load or call m.Call may reach the host
// of m.Name: the call's own check decides (sdk.CheckHost on its context,
// which the agent gives the conversation's answer). A request for no
// running call is refused.
func (p *childProc) answerHost(m *wireMsg) {
	p.mu.Lock()
	w := p.waiting[m.Call]
	p.mu.Unlock()
	var err error
	if w == nil || w.ctx == nil {
		err = fmt.Errorf("%w: %s: no call of the plugin is running", sdk.ErrHostNotAllowed, m.Name)
	} else {
		err = callCheck(w.ctx, m.Name)
	}
	if err != nil {
		p.log.Info("plugin may not reach a host", "target", m.Name, "err", err)
	} else {
		p.log.Debug("plugin reaches a host", "target", m.Name)
	}
	if err := p.send(&wireMsg{Op: opHost, ID: m.ID, Err: toWireError(err)}); err != nil {
		p.log.Warn("cannot answer a host request of the plugin process", "err", err)
	}
}

// readStderr relays the process's slog lines to the host log and keeps
// other lines (the Go runtime's crash report) for the crash message.
func (p *childProc) readStderr(r *os.File) {
	defer close(p.errDone)
	defer r.Close()
	lr := newLineReader(r, maxStderrLine)
	for {
		line, err := lr.cutLine()
		if err != nil {
			return
		}
		if !p.relay(line) {
			// Not a log record: the Go runtime's own output.
			p.out.add(string(line))
		}
		p.logs.add()
	}
}

// relay logs one slog JSON line of the process; false if it is not one.
func (p *childProc) relay(line []byte) bool {
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	rec := map[string]any{}
	if err := json.Unmarshal(line, &rec); err != nil {
		return false
	}
	msg, ok := rec["msg"].(string)
	if !ok {
		return false
	}
	level := slog.LevelInfo
	if s, ok := rec["level"].(string); ok {
		_ = level.UnmarshalText([]byte(s))
	}
	keys := make([]string, 0, len(rec))
	for k := range rec {
		switch k {
		case slog.TimeKey, slog.LevelKey, slog.MessageKey, "capability":
		default:
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	attrs := make([]any, 0, len(keys))
	for _, k := range keys {
		attrs = append(attrs, slog.Any(k, rec[k]))
	}
	p.log.Log(context.Background(), level, msg, attrs...)
	return true
}

func (p *childProc) rawOutput() string { return p.out.text() }

// logCrash logs a crash with the process's raw output (once).
func (p *childProc) logCrash(msg string, kv ...any) {
	if !p.reported.Swap(true) {
		kv = append(kv, "output", p.rawOutput())
	}
	p.log.Error(msg, kv...)
}

func (p *childProc) setGone(err error) {
	p.mu.Lock()
	p.goneErr = err
	p.mu.Unlock()
}

// crashReport says why the process ended: the Go runtime's fatal error or
// panic line, else how it exited.
func (p *childProc) crashReport(cause error) string {
	p.kill() // it may be alive but out of step
	p.awaitEnd()
	var parts []string
	if s := crashSummary(p.out.lines()); s != "" {
		parts = append(parts, s)
	}
	p.mu.Lock()
	goneErr, exitErr := p.goneErr, p.exitErr
	p.mu.Unlock()
	if goneErr != nil {
		parts = append(parts, goneErr.Error())
	}
	if cause != nil && len(parts) == 0 {
		parts = append(parts, cause.Error())
	}
	status := "exited"
	if exitErr != nil {
		status = exitErr.Error()
	}
	if len(parts) == 0 {
		return "the plugin process ended (" + status + ")"
	}
	return strings.Join(parts, "; ") + " (" + status + ")"
}

// crashSummary picks the Go runtime's explanation out of a crash report:
// the "fatal error:" or "panic:" line, with the "runtime:" line before it.
func crashSummary(lines []string) string {
	detail := ""
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "fatal error: "), strings.HasPrefix(l, "panic: "):
			l = strings.TrimSuffix(strings.TrimSuffix(l, " [recovered, repanicked]"), " [recovered]")
			kind, what, _ := strings.Cut(l, ": ")
			switch {
			case detail == "":
			case strings.HasPrefix(detail, what):
				// "runtime: out of memory: cannot allocate ..." says more.
				l = kind + ": " + detail
			default:
				l += " (" + detail + ")"
			}
			return cutText(l, 400)
		case strings.HasPrefix(l, "runtime: ") && detail == "":
			detail = strings.TrimPrefix(l, "runtime: ")
		}
	}
	if detail != "" {
		return cutText("runtime: "+detail, 400)
	}
	return ""
}

func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// rawOutput keeps the first lines of a process's non-log output: a crash
// report starts with what matters.
type rawOutput struct {
	mu      sync.Mutex
	list    []string
	size    int
	dropped int
}

func (o *rawOutput) add(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.list) >= maxCrashLines || o.size+len(line) > maxCrashBytes {
		o.dropped++
		return
	}
	o.list = append(o.list, line)
	o.size += len(line)
}

func (o *rawOutput) lines() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.list...)
}

func (o *rawOutput) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := strings.Join(o.list, "\n")
	if o.dropped > 0 {
		s += fmt.Sprintf("\n[%d more lines]", o.dropped)
	}
	return strings.TrimSpace(s)
}

// logCount counts stderr lines read, so a reply can wait for the log
// lines the process wrote before it.
type logCount struct {
	mu sync.Mutex
	n  uint64
	ch chan struct{} // closed and replaced on every line
}

func (c *logCount) init() { c.ch = make(chan struct{}) }

func (c *logCount) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	close(c.ch)
	c.ch = make(chan struct{})
}

// wait returns once n lines were read, stderr ended, or a bound passed.
func (c *logCount) wait(n uint64, ended <-chan struct{}) {
	c.mu.Lock()
	got := c.n
	c.mu.Unlock()
	if got >= n {
		return // the usual case: no timer needed
	}
	t := time.NewTimer(childExitWait)
	defer t.Stop()
	for {
		c.mu.Lock()
		got, ch := c.n, c.ch
		c.mu.Unlock()
		if got >= n {
			return
		}
		select {
		case <-ch:
		case <-ended:
			return
		case <-t.C:
			return
		}
	}
}
