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
	"syscall"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Review tests of the host's side of the plugin-process protocol against
// processes that misbehave on purpose. The misbehaving process is this
// test binary again, run as TestReviewFakeChild with a mode after "--"
// (the helper-process pattern, so TestMain needs no new modes).

const reviewFakeMark = "wrasse-review-fake"

// reviewHost is childTestHost with the fake process in mode.
func reviewHost(mode string) *Host {
	h := childTestHost(&recorder{}, childArg)
	h.opts.Child = []string{os.Args[0], "-test.run=^TestReviewFakeChild$", "--", reviewFakeMark, mode}
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
	fakeReviewChild(args[1])
	os.Exit(0)
}

// fakeReviewChild answers the load, then does what mode says for each
// call (the host's tool name is ignored).
func fakeReviewChild(mode string) {
	lr := newLineReader(os.Stdin, maxChildInLine)
	w := &msgWriter{w: os.Stdout}
	for {
		line, err := lr.next()
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
			w.send(&wireMsg{Op: opClosed, ID: m.ID})
			return
		case opCall:
		default:
			continue
		}
		switch mode {
		case "exit-leaving-trickler":
			// A program in a session of its own (out of reach of the kill
			// of the process group) keeps writing well-formed messages
			// for nobody to the process's stdout, then the process dies
			// (once the program wrote, so that it writes throughout).
			ready, tell, err := os.Pipe()
			if err != nil {
				os.Exit(4)
			}
			cmd := exec.Command("/bin/sh", "-c", `echo >&3; while :; do echo '{"op":"result","id":999999}'; done`, reviewFakeMark+"-trickler")
			cmd.Stdout, cmd.ExtraFiles = os.Stdout, []*os.File{tell}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
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
	if runtime.GOOS == "windows" {
		t.Skip("needs /bin/sh and sessions")
	}
	t.Cleanup(func() { killPrograms(t, reviewFakeMark+"-trickler") })
	h := reviewHost("exit-leaving-trickler")
	h.childSlack = 50 * time.Millisecond
	c := fixture(t, "timeout")
	c.Manifest.Tools[2].Timeout = 200 * time.Millisecond
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
func reviewProc(stdout deadlineReader) *childProc {
	p := &childProc{log: discard(), stdout: stdout, readTok: make(chan struct{}, 1), waiting: map[uint64]*wireMsg{},
		gone: make(chan struct{}), exited: make(chan struct{}), errDone: make(chan struct{})}
	p.rd = newMsgReader(stdout, maxHostInLine(1<<10))
	p.logs.init()
	return p
}

// The same, deterministically: once the process ended, the reading of
// what it left ends too even when there is always more (unbounded before:
// the drain's bound started again after every message).
func TestReviewDrainEndsWhileMoreKeepsComing(t *testing.T) {
	p := reviewProc(endlessLines{})
	close(p.exited)
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
