package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// Defaults of Runner.
const (
	DefaultTimeout   = 60 * time.Second
	DefaultMaxOutput = 64 << 10
	// DefaultMaxCalls bounds the inner calls of one program: each is
	// stored as events, so a runaway loop must not write for ever.
	DefaultMaxCalls = 1000
	// slack is how much longer than the program's deadline the parent
	// waits for the process before killing it; exitWait bounds waits for a
	// process going away.
	slack    = 2 * time.Second
	exitWait = 2 * time.Second
	// maxReport bounds what of a dead process's output is kept.
	maxReport = 16 << 10
)

// CallFunc answers one inner call: the tool's result text, or an error
// the program receives as its error value (a denied, blocked or failed
// call). It runs on the goroutine that called Run, one call at a time.
type CallFunc func(ctx context.Context, tool string, args json.RawMessage) (string, error)

// Runner runs programs. The zero value runs them in this process with the
// defaults; set Command to run each in a confined process of its own.
type Runner struct {
	// Command is the command line of the program process (ServeChild on
	// its side: the app's executable and its hidden subcommand). Nil runs
	// programs in this process, without the OS sandbox or memory cap (the
	// source checks and the pure library still apply).
	Command []string
	// Timeout bounds one program, inner calls included (default 60s).
	Timeout time.Duration
	// MaxOutput caps what a program may print (default 64 KiB).
	MaxOutput int
	// MaxCalls caps the inner calls of one program (default
	// DefaultMaxCalls); past it a call returns an error without running.
	MaxCalls int
	Logger   *slog.Logger
}

// Program is one run: the model's source and the tools it may call.
type Program struct {
	Source string
	Tools  []Tool
}

// Result is what a program printed.
type Result struct {
	// Output is what it printed, at most MaxOutput bytes.
	Output string
	// Truncated says the output was cut at MaxOutput.
	Truncated bool
	// Calls counts the inner calls it made.
	Calls int
}

func (r *Runner) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return DefaultTimeout
}

func (r *Runner) maxOutput() int {
	if r.MaxOutput > 0 {
		return r.MaxOutput
	}
	return DefaultMaxOutput
}

func (r *Runner) log() *slog.Logger {
	if r.Logger != nil {
		return r.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// Run runs p, answering its inner calls with call. The error is nil or
// wraps one of ErrNoProgram, ErrRefused, ErrCompile, ErrPanic,
// ErrTimeout, ErrOutputLimit, ErrStopped or ErrCrashed; Result holds
// what was printed before a failure too.
func (r *Runner) Run(ctx context.Context, p Program, call CallFunc) (Result, error) {
	if strings.TrimSpace(p.Source) == "" {
		return Result{}, fmt.Errorf("%w: send the program's Go source in the program argument", ErrNoProgram)
	}
	a := assemble(p.Source, p.Tools)
	maxCalls := r.MaxCalls
	if maxCalls <= 0 {
		maxCalls = DefaultMaxCalls
	}
	req := &message{Op: opRun, ID: 1, Version: childproc.Version, Checked: a.checked, Run: a.run, Timeout: r.timeout(), MaxOutput: r.maxOutput(), MaxCalls: maxCalls}
	if len(r.Command) == 0 {
		return r.inProcess(ctx, req, call)
	}
	return r.inChild(ctx, req, call)
}

// inProcess runs the program on this process's interpreter host.
func (r *Runner) inProcess(ctx context.Context, req *message, call CallFunc) (Result, error) {
	h := plugins.NewHost(plugins.Options{Logger: r.log()})
	done := execute(ctx, h, req, callFunc(call), r.log())
	return Result{Output: done.Text, Truncated: done.Truncated, Calls: done.Calls}, done.Err.err()
}

// proc is one program process.
type proc struct {
	*childproc.Process
	// The process's fd 3, 4 and 5, all blocking (see childproc.BlockingPipe): the
	// reply to a call wakes the thread that reads it and no other.
	toKid   *os.File // fd 3
	fromKid *os.File // fd 4
	ctl     *os.File // fd 5: a byte stops the program
	w       writer
	rd      reader
	report  *tail
	// relayed is closed when the process's stderr (fds 1 and 2) ended.
	relayed chan struct{}
}

func (r *Runner) start() (*proc, error) {
	cmd := exec.Command(r.Command[0], r.Command[1:]...)
	cmd.Env = []string{} // nothing of the app's environment (API keys)
	// StopGrace 0: the process is killed as soon as the run is over.
	cp, err := childproc.Start(childproc.Spec{Cmd: cmd, Stderr: true, ExitWait: exitWait,
		ExtraFiles: []childproc.Dir{childproc.ChildReads, childproc.ChildWrites, childproc.ChildReads}})
	if err != nil {
		return nil, err
	}
	rep := &tail{max: maxReport, log: r.log()}
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		childproc.RelayStderr(cp.Stderr, childproc.Relay{MaxLine: maxReport, Record: rep.record, Keep: rep.keep})
	}()
	inW, outR, ctlW := cp.Extra[0], cp.Extra[1], cp.Extra[2]
	return &proc{Process: cp, toKid: inW, fromKid: outR, ctl: ctlW, w: newWriter(inW), rd: newReader(outR), report: rep, relayed: relayed}, nil
}

// stop kills the process and waits (bounded) for it.
func (p *proc) stop() {
	p.Stop(context.Background())
	p.fromKid.Close()
}

// inChild runs the program in a process of its own. The calling
// goroutine reads the process's messages and answers its calls itself,
// in blocking reads of the pipe: no goroutine hands a message over and
// no poller thread is woken, so a call costs one wake-up of this process.
// The parent's bound is a timer that kills the process (which ends the
// read); it is moved on lazily, when it fires, by the time inner calls
// took. A cancelled ctx writes the stop byte and shortens it to the slack.
func (r *Runner) inChild(ctx context.Context, req *message, call CallFunc) (Result, error) {
	p, err := r.start()
	if err != nil {
		return Result{}, fmt.Errorf("%w: cannot start the program process (%s): %v", ErrCrashed, r.Command[0], err)
	}
	defer p.stop()
	if err := p.w.send(req); err != nil {
		return Result{}, r.crashed(p, err)
	}
	var mu sync.Mutex
	// The parent's own bound, which stops, as the program's clock does,
	// while an inner call runs.
	deadline := time.Now().Add(req.Timeout + slack)
	var stopBy time.Time // set once ctx is done: the process's time to answer done
	var killed error     // why the bound killed the process
	var bound *time.Timer
	mu.Lock() // bound is set before its function reads it
	bound = time.AfterFunc(req.Timeout+slack, func() {
		mu.Lock()
		defer mu.Unlock()
		at := deadline
		if !stopBy.IsZero() {
			at = stopBy
		}
		if d := time.Until(at); d > 0 { // moved on by inner calls
			bound.Reset(d)
			return
		}
		if stopBy.IsZero() {
			killed = fmt.Errorf("%w: it ran longer than %s and its process did not answer; it was killed", ErrTimeout, req.Timeout)
		} else {
			killed = fmt.Errorf("%w: %w; the program process did not stop and was killed", ErrStopped, context.Cause(ctx))
		}
		p.Kill()
	})
	mu.Unlock()
	defer bound.Stop()
	defer context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		stopBy = time.Now().Add(slack)
		_, _ = p.ctl.Write([]byte{1})
		// A reply being written that the stopped process no longer reads
		// ends when the bound kills it.
		bound.Reset(slack)
	})()
	calls := 0
	for {
		m, err := p.rd.next()
		if err != nil {
			mu.Lock()
			why := killed
			mu.Unlock()
			if why != nil {
				return Result{Calls: calls}, why
			}
			if !errors.Is(err, io.EOF) {
				p.report.note("unreadable message from the program process: " + err.Error())
			}
			return Result{Calls: calls}, r.crashed(p, nil)
		}
		switch m.Op {
		case opCall:
			calls++
			if ctx.Err() != nil {
				// Stopping: the process has been (or is being) told to stop,
				// which ends its call there; it reads no reply.
				continue
			}
			var text string
			var cerr error
			if calls > req.MaxCalls {
				// The process counts too; this bound holds if it does not.
				cerr = fmt.Errorf("%s: not run: a program may make at most %d calls", m.Tool, req.MaxCalls)
			} else {
				began := time.Now()
				text, cerr = call(ctx, m.Tool, m.Args)
				mu.Lock()
				if stopBy.IsZero() {
					deadline = deadline.Add(time.Since(began))
				} else { // stopping: as after the cancel
					stopBy = time.Now().Add(slack)
				}
				mu.Unlock()
			}
			if ctx.Err() != nil {
				continue // as above
			}
			rep := &message{Op: opReply, ID: m.ID, Text: text}
			if cerr != nil {
				rep.Err = &wireError{Msg: cerr.Error()}
			}
			if err := p.w.send(rep); err != nil {
				// A dead process shows as the end of its messages.
				r.log().Debug("the program process stopped reading", "err", err)
			}
		case opDone:
			return Result{Output: m.Text, Truncated: m.Truncated, Calls: m.Calls}, m.Err.err()
		}
	}
}

// crashed reports the death of the process with the Go runtime's reason.
func (r *Runner) crashed(p *proc, cause error) error {
	p.Kill()
	p.AwaitExit()
	// Its crash report is read to its end (bounded) before it is summed up.
	select {
	case <-p.relayed:
	case <-time.After(exitWait):
	}
	why := p.report.summary()
	if why == "" && cause != nil {
		why = cause.Error()
	}
	if why == "" {
		why = "it ended without answering"
	}
	if st := p.Cmd.ProcessState; st != nil {
		why += " (" + st.String() + ")"
	}
	return fmt.Errorf("%w: %s", ErrCrashed, why)
}

// tail keeps the first bytes of a process's raw output (a crash report
// starts with what matters) and logs its slog lines.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
	log *slog.Logger
}

// record logs a slog line whole; false if l is not one.
func (t *tail) record(l []byte) bool {
	if len(l) > 0 && l[0] == '{' {
		var rec struct {
			Msg string `json:"msg"`
		}
		if json.Unmarshal(l, &rec) == nil && rec.Msg != "" {
			t.log.Debug("program process", "record", string(l))
			return true
		}
	}
	return false
}

// keep keeps l if there is room, cut to it.
func (t *tail) keep(l string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.line(l)
}

func (t *tail) line(l string) {
	if room := t.max - len(t.buf); room > 0 {
		if len(l) > room {
			l = l[:room]
		}
		t.buf = append(append(t.buf, l...), '\n')
	}
}

func (t *tail) note(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.line(s)
}

// summary picks the Go runtime's explanation out of the output
// (childproc.Summary), else its first line that is not a goroutine's
// header.
func (t *tail) summary() string {
	t.mu.Lock()
	text := string(t.buf)
	t.mu.Unlock()
	lines := strings.Split(text, "\n")
	if s := childproc.Summary(lines); s != "" {
		return s
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "goroutine ") {
			return l
		}
	}
	return ""
}
