package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sandbox"

	"github.com/wrasse-app/wrasse/plugins/internal/childproc"
)

// The test binary doubles as the plugin process, as the app's executable
// does: the host starts os.Args[0] with one of these arguments. The
// process environment is the plugin's (minimal), so the mode is in argv.
const (
	childArg     = "__plugin-host"
	hangChildArg = "__plugin-host-hang" // loads, then never answers
	junkChildArg = "__plugin-host-junk" // loads, then writes garbage
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case childArg:
			// As in wrasse itself, where Fyne's driver locks main.main's
			// goroutine to the main thread at init: the plugin process
			// serves on a locked goroutine.
			runtime.LockOSThread()
			if err := ServeChild(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		case SandboxCommand:
			os.Exit(sandbox.Main(os.Args[2:], os.Stderr))
		case hangChildArg, junkChildArg:
			fakeChild(os.Args[1])
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// fakeChild answers the load, then either never answers again or sends a
// line that is not a message.
func fakeChild(mode string) {
	lr := childproc.NewLineReader(os.Stdin, maxChildInLine)
	w := newMsgWriter(os.Stdout, 0)
	for {
		line, err := lr.Next()
		if err != nil {
			return
		}
		var m wireMsg
		if json.Unmarshal(line, &m) != nil {
			return
		}
		switch {
		case m.Op == opLoad:
			w.send(&wireMsg{Op: opLoaded, ID: m.ID})
		case mode == junkChildArg:
			os.Stdout.WriteString("this is not a message\n")
		}
	}
}

func childArgv(mode string) []string { return []string{os.Args[0], mode} }

// childTestHost runs plugins that do not ship with the app in a test
// process, with short bounds so the suite stays fast.
func childTestHost(log *recorder, mode string) *Host {
	return NewHost(Options{
		Logger:         slogFor(log),
		DefaultTimeout: 10 * time.Second,
		CloseTimeout:   200 * time.Millisecond,
		Secrets: func(name string) (string, error) {
			if name == "demo-token" {
				return testSecret, nil
			}
			return "", errors.New("no such secret")
		},
		Child: childArgv(mode),
	})
}

func starts(t *testing.T, rt cerebellum.Runtime) int {
	t.Helper()
	cr, ok := rt.(*childRuntime)
	if !ok {
		t.Fatalf("runtime is %T; want a plugin process", rt)
	}
	cr.mu.Lock()
	defer cr.mu.Unlock()
	return cr.starts
}

// Faults no recover can catch end only the plugin's process: the call
// fails naming the crash, and the next call runs on a new process.
func TestChildCrashes(t *testing.T) {
	cases := []struct {
		name, tool string
		has        []string
	}{
		{"unlock of unlocked mutex", "unlock", []string{"fatal error: sync: unlock of unlocked mutex (exit status 2)"}},
		{"panic on a library goroutine", "context_trick", []string{"panic: Done called on the library's goroutine"}},
		{"stack overflow", "recurse", []string{"fatal error: stack overflow", "64"}},
		{"out of memory", "allocate", []string{"fatal error: out of memory", "1099511627776-byte"}},
	}
	if raceEnabled {
		cases[3].has = []string{"fatal error: too many address space collisions for -race mode"}
	}
	log := &recorder{}
	h := childTestHost(log, childArg)
	rt, err := h.Load(t.Context(), request(fixture(t, "crash"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := rt.Call(t.Context(), tc.tool, nil)
			if !errors.Is(err, ErrPluginCrashed) {
				t.Fatalf("%s: %+v, %v; want ErrPluginCrashed", tc.tool, res, err)
			}
			containsAll(t, "crash error", err.Error(), append([]string{"capability crash, tool " + tc.tool, "restarts on the next call"}, tc.has...))
			res, err = rt.Call(t.Context(), "ok", nil)
			if err != nil || res.Content != "ok 1" {
				t.Fatalf("call after the crash: %+v, %v; want ok 1 from a new process", res, err)
			}
			if n := starts(t, rt); n != i+2 {
				t.Fatalf("%d processes started; want %d", n, i+2)
			}
		})
	}
	if n := log.count("plugin process crashed"); n != len(cases) {
		t.Errorf("%d crashes logged; want %d", n, len(cases))
	}
}

// A plugin process killed by a signal (the OOM killer, a person's kill)
// is a crash that names the signal. The plugin cannot send it itself: the
// programs it starts are in a Landlock domain scoped from signalling it
// (ABI 6), so the test kills the process once the call is running.
func TestChildKilledBySignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals on Windows")
	}
	src := wrap(`"fmt"`, `fmt.Println("`+readyMark+`")
	<-ctx.Done()
	return sdk.Text("still alive"), nil`)
	log := &recorder{}
	h := childTestHost(log, childArg)
	rt, err := h.Load(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	killWhenReady(t, rt, log)
	_, err = rt.Call(t.Context(), "run", nil)
	if !errors.Is(err, ErrPluginCrashed) || !strings.Contains(err.Error(), "signal: killed") {
		t.Fatalf("Call: %v; want a crash naming the signal", err)
	}
}

// readyMark is the line a plugin prints when its process may be killed.
const readyMark = "ready to be killed"

// killWhenReady kills rt's plugin process (SIGKILL) once the plugin has
// printed readyMark to the log.
func killWhenReady(t *testing.T, rt cerebellum.Runtime, log *recorder) {
	cr := rt.(*childRuntime)
	seen := log.count(readyMark)
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		for log.count(readyMark) == seen {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
		cr.mu.Lock()
		p := cr.cur
		cr.mu.Unlock()
		if err := p.cmd.Process.Kill(); err != nil {
			t.Errorf("kill the plugin process: %v", err)
		}
	}()
}

// The host enforces the deadline itself: a process that does not answer
// is killed, and one that sends garbage is treated as crashed.
func TestChildUnresponsive(t *testing.T) {
	cases := []struct {
		mode string
		want error
		has  []string
	}{
		{hangChildArg, ErrPluginTimeout, []string{"capability timeout, tool ok", "did not answer", "restarts on the next call"}},
		{junkChildArg, ErrPluginCrashed, []string{"capability timeout, tool ok", "malformed message"}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			h := childTestHost(&recorder{}, tc.mode)
			h.childSlack = 50 * time.Millisecond // the hanging process never answers
			c := fixture(t, "timeout")
			c.Manifest.Tools[2].Timeout = 50 * time.Millisecond
			rt, err := h.Load(t.Context(), request(c, false))
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			for i := 1; i <= 2; i++ {
				_, err := rt.Call(t.Context(), "ok", nil)
				if !errors.Is(err, tc.want) {
					t.Fatalf("call %d: %v; want %v", i, err, tc.want)
				}
				containsAll(t, "error", err.Error(), tc.has)
				if n := starts(t, rt); n != i {
					t.Fatalf("after call %d: %d processes; want %d (a new one per call)", i, n, i)
				}
			}
		})
	}
}

// An overrun stops the interpreter in the process and the host replaces
// the process, so nothing the overrunning code left behind survives.
func TestChildTimeoutReplacesProcess(t *testing.T) {
	h := childTestHost(&recorder{}, childArg)
	rt, err := h.Load(t.Context(), request(fixture(t, "timeout"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	steps := []struct {
		tool   string
		want   error
		starts int
	}{
		{"polite", ErrPluginTimeout, 1}, // returned on its own: the process stays
		{"ok", nil, 1},
		{"spin", ErrPluginTimeout, 1}, // stopped: the process is replaced...
		{"ok", nil, 2},                // ...on the next call
	}
	for _, s := range steps {
		res, err := rt.Call(t.Context(), s.tool, nil)
		if !errors.Is(err, s.want) || (s.want == nil) != (err == nil) {
			t.Fatalf("%s: %+v, %v; want %v", s.tool, res, err, s.want)
		}
		// The process stops the overrun itself, at its deadline; the host
		// kills it only when it does not answer (then 2 s later).
		if err != nil && strings.Contains(err.Error(), "did not answer") {
			t.Fatalf("%s: %v; the plugin process did not stop the call itself", s.tool, err)
		}
		if n := starts(t, rt); n != s.starts {
			t.Fatalf("after %s: %d processes; want %d", s.tool, n, s.starts)
		}
	}
}

// A caller that gives up gets its context's error; the process stays.
func TestChildCallerCancel(t *testing.T) {
	h := childTestHost(&recorder{}, childArg)
	c := fixture(t, "timeout")
	c.Manifest.Tools[1].Timeout = time.Minute // polite waits for its context
	rt, err := h.Load(t.Context(), request(c, false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Add(1)
	var callErr error
	go func() {
		defer wg.Done()
		_, callErr = rt.Call(ctx, "polite", nil)
	}()
	cancel()
	wg.Wait()
	if !errors.Is(callErr, context.Canceled) {
		t.Fatalf("Call: %v; want context.Canceled", callErr)
	}
	if res, err := rt.Call(t.Context(), "ok", nil); err != nil || res.Content != "ok" {
		t.Fatalf("after cancel: %+v, %v", res, err)
	}
	if n := starts(t, rt); n != 1 {
		t.Fatalf("%d processes; want 1 (polite returned on its own)", n)
	}
}

// A plugin process asks the host for each secret, and the host applies
// the plugin's rules: without the env grant the plugin does not start and
// the secret service is never asked.
func TestChildSecretAsksHost(t *testing.T) {
	cases := []struct {
		granted []string
		asked   int
		isError bool
		has     string
	}{
		{[]string{"env"}, 1, false, "secret has 12 characters and starts with abc"},
		{nil, 0, true, "declares the env permission"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.granted), func(t *testing.T) {
			log := &recorder{}
			h := childTestHost(log, childArg)
			var mu sync.Mutex
			asked := 0
			h.opts.Secrets = func(name string) (string, error) {
				mu.Lock()
				defer mu.Unlock()
				asked++
				return testSecret, nil
			}
			rt, err := h.Load(t.Context(), request(fixture(t, "secret"), false, tc.granted...))
			if tc.isError {
				if !errors.Is(err, ErrNotGranted) || !strings.Contains(err.Error(), tc.has) {
					t.Fatalf("Load: %v; want ErrNotGranted saying %q", err, tc.has)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				defer rt.Close()
				res, err := rt.Call(t.Context(), "token", nil)
				if err != nil || res.IsError || !strings.Contains(res.Content, tc.has) {
					t.Fatalf("token: %+v, %v", res, err)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if asked != tc.asked {
				t.Fatalf("secret service asked %d times; want %d", asked, tc.asked)
			}
			if tc.asked > 0 && log.count("plugin reads a secret") != 1 {
				t.Fatal("the host did not log the secret read")
			}
		})
	}
}

// Close is bounded even when OnClose never returns, in process and out.
func TestCloseHangingOnClose(t *testing.T) {
	for _, child := range []bool{false, true} {
		for _, how := range []string{"spin", "sleep"} {
			t.Run(fmt.Sprintf("child=%v/%s", child, how), func(t *testing.T) {
				log := &recorder{}
				h := childTestHost(log, childArg)
				h.opts.CloseTimeout = 50 * time.Millisecond
				if !child {
					h.opts.Child = nil
				}
				rt, err := h.Load(t.Context(), request(fixture(t, "hangclose"), false))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := rt.Call(t.Context(), "mode", json.RawMessage(`{"how":"`+how+`"}`)); err != nil {
					t.Fatal(err)
				}
				err = rt.Close()
				if !errors.Is(err, ErrPluginTimeout) || !strings.Contains(err.Error(), "OnClose ran longer than 50ms") {
					t.Fatalf("Close: %v; want an OnClose timeout", err)
				}
				if log.count("hangclose closing") != 1 {
					t.Fatal("OnClose did not run")
				}
			})
		}
	}
}

// Plugins that ship with the app stay in process even with Child set.
func TestTrustedStaysInProcess(t *testing.T) {
	h := childTestHost(&recorder{}, childArg)
	rt, err := h.Load(t.Context(), request(fixture(t, "good"), true))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if _, ok := rt.(*pluginRuntime); !ok {
		t.Fatalf("trusted runtime is %T; want in process", rt)
	}
	untrusted, err := h.Load(t.Context(), request(fixture(t, "good"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer untrusted.Close()
	if _, ok := untrusted.(*childRuntime); !ok {
		t.Fatalf("untrusted runtime is %T; want a plugin process", untrusted)
	}
}

// A crash in package initialisation or Init fails the load.
func TestChildCrashDuringLoad(t *testing.T) {
	src := `package probe

import (
	"context"
	"sync"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	var mu sync.Mutex
	mu.Unlock()
	p := sdk.NewPlugin()
	p.Handle("run", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) { return nil, nil })
	return p, nil
}
`
	c := inline(t, oneTool, map[string]string{"main.go": src})
	_, err := childTestHost(&recorder{}, childArg).Load(t.Context(), request(c, false))
	if !errors.Is(err, ErrInit) || !errors.Is(err, ErrPluginCrashed) || !strings.Contains(err.Error(), "unlock of unlocked mutex") {
		t.Fatalf("Load: %v; want ErrInit and ErrPluginCrashed naming the fault", err)
	}
}

// The per-call deadline of plugins that do not ship with the app is capped.
func TestUntrustedTimeoutCap(t *testing.T) {
	c := fixture(t, "timeout")
	c.Manifest.Tools[2].Timeout = 24 * time.Hour
	for _, trusted := range []bool{false, true} {
		log := &recorder{}
		h := NewHost(Options{Logger: slogFor(log), MaxUntrustedTimeout: time.Minute})
		bp, err := h.prepare(request(c, trusted))
		if err != nil {
			t.Fatal(err)
		}
		want := time.Minute
		if trusted {
			want = 24 * time.Hour
		}
		if got := bp.tools["ok"].timeout; got != want {
			t.Errorf("trusted=%v: timeout %s; want %s", trusted, got, want)
		}
		if warned := log.count("tool timeout is above the limit for plugins that do not ship with Wrasse; using the limit") == 1; warned == trusted {
			t.Errorf("trusted=%v: warned=%v", trusted, warned)
		}
	}
}

// A result longer than a protocol line (the bound on what a plugin process
// makes the host hold) comes back as an error result saying so, and the
// process stays in step: the next call runs on it.
func TestChildResultOverALine(t *testing.T) {
	h := childTestHost(&recorder{}, childArg)
	rt, err := h.Load(t.Context(), request(fixture(t, "bigoutput"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res, err := rt.Call(t.Context(), "deluge", json.RawMessage(`{}`))
	if err != nil || !res.IsError || !strings.Contains(res.Content, "deluge returned 9437183 bytes, more than the 8388608") {
		t.Fatalf("deluge = %.200q, %v; want an error result naming the sizes", res.Content, err)
	}
	if res, err := rt.Call(t.Context(), "flood", json.RawMessage(`{}`)); err != nil || res.IsError || starts(t, rt) != 1 {
		t.Fatalf("flood after deluge = %.80q, %v (%d processes); want its text from the same process", res.Content, err, starts(t, rt))
	}
}
