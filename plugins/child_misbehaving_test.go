package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// Review tests of the host's side of the plugin-process protocol against
// processes that misbehave on purpose. The misbehaving process is this
// test binary again, run as TestReviewFakeChild with a mode after "--"
// (the helper-process pattern, so TestMain needs no new modes).

const reviewFakeMark = "wrasse-review-fake"

// callHeld is what the fake process logs when it holds a call.
const callHeld = "review: the fake process holds a call"

// untilHeld waits until the fake process logged that it holds a call
// (the host registers a call before it sends it, so its waiting alone
// does not say the process has it).
func untilHeld(log *recorder) {
	for log.count(callHeld) == 0 {
		runtime.Gosched()
	}
}

// reviewHost is childTestHost with the fake process in mode.
// Further arguments go to the mode.
func reviewHost(mode string, arg ...string) *Host { return reviewHostLog(&recorder{}, mode, arg...) }

// reviewHostLog is reviewHost logging to log.
func reviewHostLog(log *recorder, mode string, arg ...string) *Host {
	h := childTestHost(log, childArg)
	h.opts.Child = append([]string{os.Args[0], "-test.run=^TestReviewFakeChild$", "--", reviewFakeMark, mode}, arg...)
	return h
}

// hangBound is how long a test waits for a call that should end well
// before it; it only trips when the call hangs.
const hangBound = 20 * time.Second

// callWithin runs rt.Call and fails the test if it has not returned by
// hangBound (the failure being tested for is a call that never returns).
func callWithin(t *testing.T, ctx context.Context, rt cerebellum.Runtime, tool string, args json.RawMessage) (cerebellum.Result, error) {
	t.Helper()
	type out struct {
		res cerebellum.Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := rt.Call(ctx, tool, args)
		done <- out{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-time.After(hangBound):
		t.Fatalf("%s: the call did not return within %s", tool, hangBound)
		return cerebellum.Result{}, nil
	}
}

// TestReviewFakeChild is the misbehaving plugin process; run directly it
// does nothing.
func TestReviewFakeChild(t *testing.T) {
	args := flag.Args()
	if len(args) < 2 || args[0] != reviewFakeMark {
		t.Skip("the fake plugin process of the review tests")
	}
	fakeReviewChild(args[1], args[2:])
	os.Exit(0)
}

// fakeReviewChild answers the load, then does what mode says for each
// call (the host's tool name is ignored).
func fakeReviewChild(mode string, arg []string) {
	lr := childproc.NewLineReader(os.Stdin, maxChildInLine)
	w := newMsgWriter(os.Stdout, 0)
	var pending uint64 // a call not answered yet
	var closeID uint64 // a close not answered yet
	text := func(m *wireMsg) string {
		var a struct{ Text string }
		_ = json.Unmarshal(m.Args, &a)
		return a.Text
	}
	result := func(id uint64, content string) *wireMsg {
		return &wireMsg{Op: opResult, ID: id, Result: &cerebellum.Result{Content: content}}
	}
	for {
		line, err := lr.Next()
		if err != nil {
			return
		}
		var m wireMsg
		if json.Unmarshal(line, &m) != nil {
			return
		}
		switch m.Op {
		case opLoad:
			w.send(&wireMsg{Op: opLoaded, ID: m.ID})
			continue
		case opClose:
			switch {
			case pending == 0:
				w.send(&wireMsg{Op: opClosed, ID: m.ID})
				return
			case mode == "secret-at-close":
				// The call waiting asks for a secret now, while the host
				// waits for two replies.
				closeID = m.ID
				w.send(&wireMsg{Op: opSecret, ID: 77, Name: "demo-token"})
			case mode == "restart-at-close":
				// The call ends as the plugin's runtime is closed (so the
				// process says to replace it), then the close is answered
				// a moment later, as the runtime's end takes time.
				w.send(&wireMsg{Op: opResult, ID: pending, Err: toWireError(ErrClosed), Restart: true})
				time.Sleep(100 * time.Millisecond)
				w.send(&wireMsg{Op: opClosed, ID: m.ID})
				return
			default:
				closeID = m.ID // answered after the call
			}
			continue
		case opCancel:
			if mode == "hold" && m.ID == pending {
				w.send(&wireMsg{Op: opResult, ID: m.ID, Err: toWireError(context.Canceled)})
				pending = 0
				if closeID != 0 {
					w.send(&wireMsg{Op: opClosed, ID: closeID})
					return
				}
			}
			continue
		case opSecret:
			if mode == "secret-at-close" && m.ID == 77 && pending != 0 {
				w.send(result(pending, m.Value))
				w.send(&wireMsg{Op: opClosed, ID: closeID})
				return
			}
			continue
		case opCall:
		default:
			continue
		}
		switch mode {
		case "hold", "secret-at-close", "restart-at-close":
			pending = m.ID // answered at a cancel or a close
			// The host relays this line to its log: the call arrived.
			fmt.Fprintln(os.Stderr, `{"level":"INFO","msg":"`+callHeld+`"}`)
		case "stray-replies":
			// A reply for the next call's id before this one is even
			// asked, then this call's reply twice.
			w.send(result(m.ID+1, "stray for the next call"))
			w.send(result(m.ID, text(&m)))
			w.send(result(m.ID, "duplicate"))
		case "exit-leaving-stderr-holder":
			// A program in a session of its own keeps the process's
			// stderr open (and does nothing) after the process dies.
			cmd := exec.Command(arg[0], "/bin/sh", "-c", "exec sleep 120", reviewFakeMark+"-holder")
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				os.Exit(4)
			}
			os.Exit(3)
		case "flood":
			// Messages for nobody, as fast as the host reads them, and
			// never the reply.
			go func() {
				for {
					w.send(result(999999, "flood"))
				}
			}()
		case "secret-flood":
			// Far more secret requests at once than a plugin can have
			// (each of its calls waits for its answer), and no reply.
			for i := range 1000 {
				w.send(&wireMsg{Op: opSecret, ID: uint64(1000 + i), Name: "demo-token"})
			}
		case "partial-hang":
			os.Stdout.WriteString(`{"op":"result","id":` + fmt.Sprint(m.ID) + `,"res`)
		case "huge-line":
			os.Stdout.Write(make([]byte, maxHostInLine+2)) // no newline, and then nothing
		case "exit0":
			os.Exit(0)
		case "exit-leaving-trickler":
			// A program in a session of its own (out of reach of the kill
			// of the process group) keeps writing well-formed messages
			// for nobody to the process's stdout, then the process dies
			// (once the program wrote, so that it writes throughout).
			ready, tell, err := os.Pipe()
			if err != nil {
				os.Exit(4)
			}
			// arg[0] is the setsid program.
			cmd := exec.Command(arg[0], "/bin/sh", "-c", `echo >&3; while :; do echo '{"op":"result","id":999999}'; done`, reviewFakeMark+"-trickler")
			cmd.Stdout, cmd.ExtraFiles = os.Stdout, []*os.File{tell}
			if err := cmd.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(4)
			}
			tell.Close()
			ready.Read(make([]byte, 1))
			os.Exit(3)
		}
	}
}

// A plugin process that dies while a program it started keeps writing
// messages to its stdout: the call ends (as a crash) instead of reading
// those messages for as long as the program runs. The drain of what a
// dead process left was bounded only between two messages.
func TestReviewExitedProcessDrainIsBounded(t *testing.T) {
	setsid, err := exec.LookPath("setsid")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("needs /bin/sh and the setsid program")
	}
	t.Cleanup(func() { killPrograms(t, reviewFakeMark+"-trickler") })
	h := reviewHost("exit-leaving-trickler", setsid)
	h.childSlack = 50 * time.Millisecond
	c := fixture(t, "timeout")
	// Time enough for the process to start the program and die (at 200 ms
	// a loaded machine timed the call out first), well inside hangBound:
	// an unbounded drain still fails, as a hang or as this timeout.
	c.Manifest.Tools[2].Timeout = 5 * time.Second
	rt, err := h.Load(t.Context(), request(c, false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	_, err = callWithin(t, t.Context(), rt, "ok", nil)
	if !errors.Is(err, ErrPluginCrashed) || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("Call: %v; want a crash naming exit status 3", err)
	}
}

// endlessLines is a plugin process's stdout that always has another
// message (for nobody) to read: a program the dead process started
// writes faster than the host reads.
type endlessLines struct{}

func (endlessLines) Read(p []byte) (int, error) {
	const line = `{"op":"result","id":999999}` + "\n"
	n := 0
	for n+len(line) <= len(p) {
		n += copy(p[n:], line)
	}
	return n, nil
}
func (endlessLines) SetReadDeadline(time.Time) error { return nil }
func (endlessLines) Close() error                    { return nil }

// reviewProc is a childProc around stdout alone, for the host's reading.
// Its process "exits" when the test calls the function returned.
func reviewProc(stdout childproc.DeadlineReader) (*childProc, func()) {
	p := &childProc{log: discard(), stdout: stdout, readTok: make(chan struct{}, 1), waiting: map[uint64]*wireMsg{},
		gone: make(chan struct{}), errDone: make(chan struct{})}
	exited := make(chan struct{})
	p.exited = exited
	p.rd = childproc.NewMsgReader(stdout, maxHostInLine)
	p.logs.init()
	return p, func() { close(exited) }
}

// The same, deterministically: once the process ended, the reading of
// what it left ends too even when there is always more (unbounded before:
// the drain's bound started again after every message).
func TestReviewDrainEndsWhileMoreKeepsComing(t *testing.T) {
	p, exit := reviewProc(endlessLines{})
	exit()
	m := &wireMsg{ID: 1, reply: make(chan *wireMsg, 1)}
	p.waiting[1] = m
	done := make(chan waitEnd, 1)
	go func() {
		_, how := p.await(context.Background(), m, time.Now().Add(time.Hour))
		done <- how
	}()
	select {
	case how := <-done:
		if how != waitGone {
			t.Fatalf("await: %v; want waitGone", how)
		}
	case <-time.After(hangBound):
		t.Fatalf("await still reading after %s", hangBound)
	}
}

// Replies the process should not have sent (for an id not asked yet, a
// second one for the same call) reach no call: each call gets its own.
func TestReviewStrayRepliesReachNoCall(t *testing.T) {
	base := runtime.NumGoroutine()
	defer settled(t, base)
	rt, err := reviewHost("stray-replies").Load(t.Context(), request(fixture(t, "good"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for i := range 5 {
		want := fmt.Sprintf("call %d", i)
		args, _ := json.Marshal(map[string]string{"text": want})
		res, err := callWithin(t, t.Context(), rt, "echo", args)
		if err != nil || res.Content != want {
			t.Fatalf("call %d: %+v, %v; want %q", i, res, err, want)
		}
	}
}

// A process that writes part of a reply, or an over-long line, and then
// nothing, or ends without a word: the call fails as it should and the
// next call gets a new process. The over-long line fails at once, not at
// the call's deadline (a minute).
func TestReviewBrokenReplies(t *testing.T) {
	cases := []struct {
		mode    string
		timeout time.Duration
		want    error
		has     string
	}{
		{"partial-hang", 100 * time.Millisecond, ErrPluginTimeout, "did not answer"},
		{"flood", 100 * time.Millisecond, ErrPluginTimeout, "did not answer"},
		{"huge-line", time.Minute, ErrPluginCrashed, "protocol line too long"},
		{"exit0", time.Minute, ErrPluginCrashed, "the plugin process ended (exited)"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			base := runtime.NumGoroutine()
			h := reviewHost(tc.mode)
			h.childSlack = 50 * time.Millisecond
			c := fixture(t, "timeout")
			c.Manifest.Tools[2].Timeout = tc.timeout
			rt, err := h.Load(t.Context(), request(c, false))
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			for i := 1; i <= 2; i++ {
				_, err := callWithin(t, t.Context(), rt, "ok", nil)
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.has) {
					t.Fatalf("call %d: %v; want %v saying %q", i, err, tc.want, tc.has)
				}
				if n := starts(t, rt); n != i {
					t.Fatalf("after call %d: %d processes; want %d", i, n, i)
				}
			}
			if err := rt.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			settled(t, base)
		})
	}
}

// A call cancelled while Close waits too: whichever of the two reads the
// process's messages, each gets its own reply (the call its cancelled
// result, which the process sends only after the close arrived; Close the
// closed, sent after that).
func TestReviewCancelWhileCloseWaits(t *testing.T) {
	base := runtime.NumGoroutine()
	defer settled(t, base)
	c := fixture(t, "timeout")
	c.Manifest.Tools[2].Timeout = time.Minute
	log := &recorder{}
	h := reviewHostLog(log, "hold")
	h.opts.CloseTimeout = time.Minute
	rt, err := h.Load(t.Context(), request(c, false))
	if err != nil {
		t.Fatal(err)
	}
	cr := rt.(*childRuntime)
	ctx, cancel := context.WithCancel(t.Context())
	callErr := make(chan error, 1)
	go func() {
		_, err := rt.Call(ctx, "ok", nil)
		callErr <- err
	}()
	untilHeld(log)
	// Close clears cur: watch the process itself.
	cr.mu.Lock()
	p := cr.cur
	cr.mu.Unlock()
	closeErr := make(chan error, 1)
	go func() { closeErr <- rt.Close() }()
	// Until Close waits too.
	for {
		p.mu.Lock()
		n := len(p.waiting)
		p.mu.Unlock()
		if n == 2 {
			break
		}
		runtime.Gosched()
	}
	cancel()
	for name, ch := range map[string]chan error{"Call": callErr, "Close": closeErr} {
		select {
		case err := <-ch:
			if name == "Call" && !errors.Is(err, context.Canceled) {
				t.Errorf("Call: %v; want context.Canceled", err)
			}
			if name == "Close" && err != nil {
				t.Errorf("Close: %v", err)
			}
		case <-time.After(hangBound):
			t.Fatalf("%s did not return", name)
		}
	}
}

// A secret request that comes while a call and Close both wait is
// answered, and both get their replies.
func TestReviewSecretWhileCallAndCloseWait(t *testing.T) {
	base := runtime.NumGoroutine()
	defer settled(t, base)
	c := fixture(t, "secret")
	c.Manifest.Tools[0].Timeout = time.Minute
	log := &recorder{}
	h := reviewHostLog(log, "secret-at-close")
	h.opts.CloseTimeout = time.Minute
	rt, err := h.Load(t.Context(), request(c, false, "env"))
	if err != nil {
		t.Fatal(err)
	}
	type out struct {
		res cerebellum.Result
		err error
	}
	callOut := make(chan out, 1)
	go func() {
		res, err := rt.Call(t.Context(), "token", nil)
		callOut <- out{res, err}
	}()
	untilHeld(log)
	closeErr := make(chan error, 1)
	go func() { closeErr <- rt.Close() }()
	select {
	case o := <-callOut:
		if o.err != nil || o.res.Content != testSecret {
			t.Errorf("Call: %+v, %v; want the secret", o.res, o.err)
		}
	case <-time.After(hangBound):
		t.Fatal("Call did not return")
	}
	select {
	case err := <-closeErr:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(hangBound):
		t.Fatal("Close did not return")
	}
}

// Several goroutines call one plugin process, some giving up at once,
// some after a moment, some with a deadline that passes, and Close comes
// while calls are still running: every call that answers gets its own
// answer, every other fails with its context's error or as closed, none
// is left waiting, and no goroutine stays behind.
func TestReviewBusyCallersAndClose(t *testing.T) {
	base := runtime.NumGoroutine()
	rt, err := childTestHost(&recorder{}, childArg).Load(t.Context(), request(fixture(t, "good"), false))
	if err != nil {
		t.Fatal(err)
	}
	const callers, calls = 6, 30
	var mu sync.Mutex
	kinds := map[string]int{}
	tally := func(err error) {
		k := "ok"
		switch {
		case errors.Is(err, ErrClosed):
			k = "closed"
		case err != nil:
			k = "ctx"
		}
		mu.Lock()
		kinds[k]++
		mu.Unlock()
	}
	defer func() { t.Log(kinds) }()
	var wg sync.WaitGroup
	errs := make(chan error, callers*calls)
	closing := make(chan struct{})
	for g := range callers {
		wg.Go(func() {
			for i := range calls {
				if g == 0 && i == calls-3 {
					close(closing)
				}
				want := fmt.Sprintf("caller %d call %d", g, i)
				args, _ := json.Marshal(map[string]string{"text": want})
				ctx, cancel := context.WithCancel(t.Context())
				switch i % 4 {
				case 1:
					cancel()
				case 2:
					go func() {
						for range g + i {
							runtime.Gosched()
						}
						cancel()
					}()
				case 3:
					ctx, cancel = context.WithTimeout(ctx, time.Duration(g*i)*20*time.Microsecond)
				}
				res, err := rt.Call(ctx, "echo", args)
				cancel()
				tally(err)
				switch {
				case err == nil && res.Content != want:
					errs <- fmt.Errorf("%s: got the answer %q", want, res.Content)
				case err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrClosed):
					errs <- fmt.Errorf("%s: %v", want, err)
				}
			}
		})
	}
	<-closing
	if err := rt.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	settled(t, base)
}

// settled fails the test if more goroutines than base are still running
// once the bounded waits of the plugin machinery are over.
func settled(t *testing.T, base int) {
	t.Helper()
	end := time.Now().Add(3 * childExitWait)
	for runtime.NumGoroutine() > base && time.Now().Before(end) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines; %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}

// A call that ends while Close waits, with a reply saying to replace the
// process (its runtime was closed under it), leaves the process to Close:
// Close gets its answer instead of a process the call killed (which it
// reported as a crash during OnClose).
func TestReviewCallEndingDuringCloseLeavesProcessToClose(t *testing.T) {
	base := runtime.NumGoroutine()
	defer settled(t, base)
	c := fixture(t, "timeout")
	c.Manifest.Tools[2].Timeout = time.Minute
	log := &recorder{}
	h := reviewHostLog(log, "restart-at-close")
	h.opts.CloseTimeout = time.Minute
	rt, err := h.Load(t.Context(), request(c, false))
	if err != nil {
		t.Fatal(err)
	}
	callErr := make(chan error, 1)
	go func() {
		_, err := rt.Call(t.Context(), "ok", nil)
		callErr <- err
	}()
	untilHeld(log)
	closeErr := make(chan error, 1)
	go func() { closeErr <- rt.Close() }()
	for name, ch := range map[string]chan error{"Call": callErr, "Close": closeErr} {
		select {
		case err := <-ch:
			if name == "Call" && !errors.Is(err, ErrClosed) {
				t.Errorf("Call: %v; want ErrClosed", err)
			}
			if name == "Close" && err != nil {
				t.Errorf("Close: %v", err)
			}
		case <-time.After(hangBound):
			t.Fatalf("%s did not return", name)
		}
	}
}

// A plugin process that dies while a program it started keeps its stderr
// open leaves nothing running in the host once the runtime is closed:
// the reading of that stderr ends with the process (it waited for the
// program before, holding a goroutine and the pipe).
func TestReviewStderrHolderLeavesNoReader(t *testing.T) {
	setsid, err := exec.LookPath("setsid")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("needs /bin/sh and the setsid program")
	}
	t.Cleanup(func() { killPrograms(t, reviewFakeMark+"-holder") })
	base := runtime.NumGoroutine()
	rt, err := reviewHost("exit-leaving-stderr-holder", setsid).Load(t.Context(), request(fixture(t, "timeout"), false))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := callWithin(t, t.Context(), rt, "ok", nil); !errors.Is(err, ErrPluginCrashed) {
		t.Fatalf("Call: %v; want a crash", err)
	}
	if err := rt.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	settled(t, base)
}

// A host end of a plugin process's pipe, closed, fails reads and writes
// as an *os.File does (os.ErrClosed, which the reader takes for the end
// of the process's messages), also a read that waits when it is closed.
func TestReviewClosedHostEnd(t *testing.T) {
	for _, hostReads := range []bool{true, false} {
		h, c, err := childproc.Pipe(hostReads)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		f := childproc.HostEnd(h)
		if hostReads {
			got := make(chan error, 1)
			go func() {
				_, err := f.Read(make([]byte, 8))
				got <- err
			}()
			// The read waits (nothing is written): Close wakes it, whether
			// it is already waiting or not.
			f.Close()
			if err := <-got; !errors.Is(err, os.ErrClosed) {
				t.Errorf("read woken by Close: %v; want os.ErrClosed", err)
			}
			if _, err := f.Read(make([]byte, 8)); !errors.Is(err, os.ErrClosed) {
				t.Errorf("read after Close: %v; want os.ErrClosed", err)
			}
			continue
		}
		f.Close()
		if _, err := f.Write([]byte("x\n")); !errors.Is(err, os.ErrClosed) {
			t.Errorf("write after Close: %v; want os.ErrClosed", err)
		}
	}
}

// A process that sends far more secret requests at once than a plugin
// can have is stopped as out of step; each request was a goroutine in the
// host (waiting for the secret service here), without bound.
func TestReviewSecretFloodIsBounded(t *testing.T) {
	h := reviewHost("secret-flood")
	release := make(chan struct{})
	defer close(release)
	h.opts.Secrets = func(string) (string, error) {
		<-release // the secret service is slow: requests pile up
		return testSecret, nil
	}
	c := fixture(t, "secret")
	c.Manifest.Tools[0].Timeout = time.Minute
	rt, err := h.Load(t.Context(), request(c, false, "env"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	_, err = callWithin(t, t.Context(), rt, "token", nil)
	if !errors.Is(err, ErrPluginCrashed) || !strings.Contains(err.Error(), "more than 16 secret requests at once") {
		t.Fatalf("Call: %v; want a crash naming the flood", err)
	}
}
