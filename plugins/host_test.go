package plugins

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
)

type callCase struct {
	tool, args string
	// wantErr is the sentinel of an infrastructure failure (nil: a Result).
	wantErr error
	isError bool
	// has are fragments of the error message or the content.
	has []string
	// check runs extra assertions on the result.
	check func(t *testing.T, r cerebellum.Result)
}

const testSecret = "abc123def456"

func testHost(log *recorder) *Host {
	return NewHost(Options{
		Logger:         slogFor(log),
		DefaultTimeout: 10 * time.Second,
		Secrets: func(name string) (string, error) {
			if name == "demo-token" {
				return testSecret, nil
			}
			return "", errors.New("no such secret")
		},
	})
}

func TestFixtures(t *testing.T) {
	t.Setenv("WRASSE_TEST_SECRET_KEY", "sk-must-not-leak")
	t.Setenv("WRASSE_TEST_PLAIN", "visible")
	t.Setenv("WRASSE_TEST_UNDECLARED", "not-declared")
	_, errEnvBin := exec.LookPath("env")

	cases := []struct {
		name, fixture string
		trusted       bool
		granted       []string
		skip          bool
		loadErr       []error
		loadHas       []string
		calls         []callCase
	}{
		{name: "good", fixture: "good", calls: []callCase{
			{tool: "echo", args: `{"text":"  hi  "}`, has: []string{"hi"}, check: exact("hi")},
			{tool: "add", args: `{"a":1,"b":2.5}`, check: exact(`{"sum":3.5}`)},
		}},
		{name: "panic", fixture: "panic", calls: []callCase{
			{tool: "boom", wantErr: ErrPluginPanic, has: []string{"capability panic, tool boom", "boom went the plugin", "plugin/main.go:12"}},
			{tool: "nilmap", wantErr: ErrPluginPanic, has: []string{"tool nilmap", "nil map", "plugin/main.go:15"}},
			{tool: "fine", check: exact("still fine")},
		}},
		{name: "timeout then rebuilt", fixture: "timeout", calls: []callCase{
			{tool: "spin", wantErr: ErrPluginTimeout, has: []string{"capability timeout, tool spin", "50ms", "restarts on the next call"}},
			{tool: "ok", check: exact("ok")},
			{tool: "polite", wantErr: ErrPluginTimeout, has: []string{"tool polite"}},
			{tool: "ok", check: exact("ok")},
		}},
		{name: "compile error", fixture: "compileerror", loadErr: []error{ErrCompile},
			loadHas: []string{"capability compileerror: plugin/main.go:16:", `"not a number"`}},
		{name: "tool mismatch", fixture: "mismatch", loadErr: []error{ErrToolMismatch},
			loadHas: []string{"missing: beta", "undeclared: gamma"}},
		{name: "exec without grant", fixture: "execimport", loadErr: []error{ErrPermission, ErrNotGranted},
			loadHas: []string{"declares the exec permission and none of its code runs"}},
		{name: "exec granted", fixture: "execimport", granted: []string{"exec"}, skip: errEnvBin != nil || runtime.GOOS == "windows",
			calls: []callCase{{tool: "run_env", has: []string{"PATH="}, check: lacks("WRASSE_TEST_SECRET_KEY", "sk-must-not-leak", "WRASSE_TEST_PLAIN")}}},
		{name: "exec trusted", fixture: "execimport", trusted: true, skip: errEnvBin != nil || runtime.GOOS == "windows",
			calls: []callCase{{tool: "run_env", has: []string{"PATH="}, check: lacks("sk-must-not-leak", "WRASSE_TEST_UNDECLARED")}}},
		{name: "goroutine", fixture: "goroutine", loadErr: []error{ErrGoroutine, ErrCompile},
			loadHas: []string{"plugin/main.go:12:3: go statement"}},
		{name: "goroutine trusted", fixture: "goroutine", trusted: true, loadErr: []error{ErrGoroutine}},
		{name: "new syntax", fixture: "newsyntax", loadErr: []error{ErrDialect, ErrCompile},
			loadHas: []string{"plugin/main.go:14:3", "range over an integer", "Go 1.22-level"}},
		// The registry checks results against outputSchema, once, for
		// every runtime (cerebellum's TestCallChecksEachThingOnce).
		{name: "output schema is the registry's to check", fixture: "outputschema", calls: []callCase{
			{tool: "stats", check: exact(`{"count":"three"}`)},
		}},
		{name: "init error", fixture: "initerror", loadErr: []error{ErrInit},
			loadHas: []string{"capability initerror", "configuration file is missing"}},
		{name: "init panic", fixture: "initpanic", loadErr: []error{ErrInit, ErrPluginPanic},
			loadHas: []string{"plugin/main.go:10:2", "table is broken"}},
		// The registry cuts results, once, for every runtime: a plugin's
		// comes whole, from its process too.
		{name: "big output", fixture: "bigoutput", calls: []callCase{
			{tool: "flood", check: exact(strings.Repeat("wrasse é ", 200*1024/10))},
		}},
		{name: "env without grant", fixture: "envleak", loadErr: []error{ErrPermission, ErrNotGranted},
			loadHas: []string{"declares the env permission"}},
		{name: "env granted hides secrets", fixture: "envleak", granted: []string{"env"}, calls: []callCase{
			{tool: "getenv", check: func(t *testing.T, r cerebellum.Result) {
				var got struct {
					Secret, Plain, Undeclared string
					Listed                    bool
					Environ                   []string
				}
				if err := json.Unmarshal([]byte(r.Content), &got); err != nil {
					t.Fatal(err)
				}
				if got.Secret != "" || got.Undeclared != "" || got.Listed || got.Plain != "visible" {
					t.Errorf("plugin saw %+v; want only WRASSE_TEST_PLAIN", got)
				}
				if strings.Contains(strings.Join(got.Environ, "\n"), "sk-must-not-leak") {
					t.Error("os.Environ leaked a secret")
				}
			}},
		}},
		{name: "secret trusted", fixture: "secret", trusted: true, calls: []callCase{
			{tool: "token", check: exact("secret has 12 characters and starts with abc")},
		}},
		{name: "secret refused without grant", fixture: "secret", loadErr: []error{ErrNotGranted},
			loadHas: []string{"declares the env permission", "none of its code runs"}},
		{name: "secret with env grant", fixture: "secret", granted: []string{"env"}, calls: []callCase{
			{tool: "token", check: exact("secret has 12 characters and starts with abc")},
		}},
	}
	// Every case runs in process and, for plugins that do not ship with the
	// app, in a plugin process: the answers must be the same.
	for _, tc := range cases {
		for _, child := range []bool{false, true} {
			name := tc.name
			if child {
				name += "/child"
			}
			t.Run(name, func(t *testing.T) {
				if tc.skip {
					t.Skip("needs the env program")
				}
				h := testHost(&recorder{})
				if child {
					h = childTestHost(&recorder{}, childArg)
				}
				rt, err := h.Load(t.Context(), request(fixture(t, tc.fixture), tc.trusted, tc.granted...))
				if len(tc.loadErr) > 0 {
					if err == nil {
						rt.Close()
						t.Fatalf("Load succeeded; want %v", tc.loadErr)
					}
					for _, want := range tc.loadErr {
						if !errors.Is(err, want) {
							t.Errorf("Load error %q is not %v", err, want)
						}
					}
					containsAll(t, "Load error", err.Error(), tc.loadHas)
					return
				}
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				for _, c := range tc.calls {
					args := c.args
					if args == "" {
						args = "{}"
					}
					res, err := rt.Call(t.Context(), c.tool, json.RawMessage(args))
					if c.wantErr != nil {
						if !errors.Is(err, c.wantErr) {
							t.Fatalf("%s: error %v; want %v", c.tool, err, c.wantErr)
						}
						containsAll(t, c.tool+" error", err.Error(), c.has)
						continue
					}
					if err != nil {
						t.Fatalf("%s: %v", c.tool, err)
					}
					if res.IsError != c.isError {
						t.Errorf("%s: IsError=%v (%q); want %v", c.tool, res.IsError, res.Content, c.isError)
					}
					containsAll(t, c.tool+" result", res.Content, c.has)
					if c.check != nil {
						c.check(t, res)
					}
				}
				if err := rt.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
		}
	}
}

func exact(want string) func(*testing.T, cerebellum.Result) {
	return func(t *testing.T, r cerebellum.Result) {
		t.Helper()
		if r.Content != want {
			t.Errorf("content %q; want %q", r.Content, want)
		}
	}
}

func lacks(words ...string) func(*testing.T, cerebellum.Result) {
	return func(t *testing.T, r cerebellum.Result) {
		t.Helper()
		for _, w := range words {
			if strings.Contains(r.Content, w) {
				t.Errorf("content leaks %q:\n%s", w, r.Content)
			}
		}
	}
}

// A timeout stops the interpreter and the next call runs on a new one.
func TestTimeoutRebuildsInstance(t *testing.T) {
	log := &recorder{}
	h := testHost(log)
	rt, err := h.Load(t.Context(), request(fixture(t, "timeout"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	pr := rt.(*pluginRuntime)
	first := pr.cur

	// polite returns on its own after the deadline: no rebuild.
	if _, err := rt.Call(t.Context(), "polite", nil); !errors.Is(err, ErrPluginTimeout) {
		t.Fatalf("polite: %v; want timeout", err)
	}
	if pr.cur != first || first.dead.Load() {
		t.Fatal("a call that honoured its context must not discard the instance")
	}
	if _, err := rt.Call(t.Context(), "spin", nil); !errors.Is(err, ErrPluginTimeout) {
		t.Fatalf("spin: %v; want timeout", err)
	}
	if !first.dead.Load() {
		t.Fatal("the instance that overran must be dead")
	}
	// The spinning handler really stops (its goroutine ends).
	stopped := make(chan struct{})
	go func() { first.running.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("the overrunning handler never stopped")
	}
	res, err := rt.Call(t.Context(), "ok", nil)
	if err != nil || res.Content != "ok" {
		t.Fatalf("after timeout: %+v, %v", res, err)
	}
	if pr.cur == first {
		t.Fatal("the next call must run on a new instance")
	}
	if n := log.count("timeout plugin started"); n != 2 {
		t.Fatalf("Init ran %d times; want 2 (load and rebuild)", n)
	}
}

// Calls run concurrently; a timeout in one stops only its own instance,
// and calls in flight on it report ErrInterrupted rather than garbage.
func TestConcurrentCalls(t *testing.T) {
	h := testHost(&recorder{})
	good, err := h.Load(t.Context(), request(fixture(t, "good"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	slow, err := h.Load(t.Context(), request(fixture(t, "timeout"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := strings.Repeat("x", i+1)
			res, err := good.Call(context.Background(), "echo", json.RawMessage(`{"text":"`+want+`"}`))
			if err != nil || res.Content != want {
				errs <- errors.New("echo: " + res.Content)
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := slow.Call(context.Background(), "spin", nil)
			if !errors.Is(err, ErrPluginTimeout) && !errors.Is(err, ErrInterrupted) {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if res, err := slow.Call(t.Context(), "ok", nil); err != nil || res.Content != "ok" {
		t.Fatalf("after concurrent timeouts: %+v, %v", res, err)
	}
}

// Close runs OnClose once, in process and in a plugin process (whose log
// lines are relayed before Close returns).
func TestCloseRunsOnClose(t *testing.T) {
	for _, child := range []bool{false, true} {
		t.Run(fmt.Sprintf("child=%v", child), func(t *testing.T) {
			log := &recorder{}
			h := testHost(log)
			if child {
				h = childTestHost(log, childArg)
			}
			rt, err := h.Load(t.Context(), request(fixture(t, "good"), false))
			if err != nil {
				t.Fatal(err)
			}
			if err := rt.Close(); err != nil {
				t.Fatal(err)
			}
			if n := log.count("good plugin closed"); n != 1 {
				t.Fatalf("OnClose ran %d times; want 1", n)
			}
			if err := rt.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			if n := log.count("good plugin closed"); n != 1 {
				t.Fatalf("OnClose ran %d times after two Closes; want 1", n)
			}
			if _, err := rt.Call(t.Context(), "echo", json.RawMessage(`{"text":"x"}`)); !errors.Is(err, ErrClosed) {
				t.Fatalf("call after Close: %v; want ErrClosed", err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	cases := []struct {
		fixture string
		granted []string
		want    error
	}{
		{"good", nil, nil},
		{"mismatch", nil, ErrToolMismatch},
		{"execimport", nil, ErrPermission},
		{"execimport", []string{"exec"}, nil},
		{"initerror", nil, ErrInit},
	}
	for _, tc := range cases {
		t.Run(tc.fixture+strings.Join(tc.granted, ","), func(t *testing.T) {
			log := &recorder{}
			err := testHost(log).Check(t.Context(), request(fixture(t, tc.fixture), false, tc.granted...))
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("Check: %v; want %v", err, tc.want)
			}
			if tc.fixture == "good" && log.count("good plugin closed") != 1 {
				t.Fatal("Check must close the plugin it started")
			}
		})
	}
}

func TestEnvAuthority(t *testing.T) {
	ws := t.TempDir()
	cases := []struct {
		name    string
		trusted bool
		roots   func(string, []string) []string
		hosts   func(string, []string) []string
		want    map[string]any
	}{
		{name: "trusted defaults to the workspace", trusted: true,
			want: map[string]any{"roots": []any{ws}, "hosts": []any{"*"}, "workspace": ws, "name": "good"}},
		{name: "untrusted gets nothing by default",
			want: map[string]any{"roots": nil, "hosts": nil}},
		{name: "settings decide", roots: func(c string, g []string) []string { return []string{ws + "/sub/.."} },
			hosts: func(c string, g []string) []string { return []string{"example.com"} },
			want:  map[string]any{"roots": []any{ws}, "hosts": []any{"example.com"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHost(Options{Logger: discard(), Roots: tc.roots, Hosts: tc.hosts})
			req := request(fixture(t, "good"), tc.trusted)
			req.Workspace = ws
			rt, err := h.Load(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			res, err := rt.Call(t.Context(), "info", nil)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(res.Content), &got); err != nil {
				t.Fatal(err)
			}
			for k, want := range tc.want {
				g, _ := json.Marshal(got[k])
				w, _ := json.Marshal(want)
				if string(g) != string(w) {
					t.Errorf("%s = %s; want %s", k, g, w)
				}
			}
			if !strings.HasSuffix(got["pluginDir"].(string), "good/plugin") {
				t.Errorf("pluginDir = %v", got["pluginDir"])
			}
		})
	}
}

func TestLoadBadRequest(t *testing.T) {
	good := fixture(t, "good")
	noFS := *good
	noFS.FS = nil
	noManifest := *good
	noManifest.Manifest = nil
	for name, c := range map[string]*cerebellum.Capability{"nil": nil, "no FS": &noFS, "no manifest": &noManifest} {
		t.Run(name, func(t *testing.T) {
			_, err := NewHost(Options{}).Load(t.Context(), cerebellum.LoadRequest{Capability: c})
			if !errors.Is(err, ErrBadRequest) {
				t.Fatalf("Load: %v; want ErrBadRequest", err)
			}
		})
	}
}

func TestCallUnknownTool(t *testing.T) {
	rt, err := testHost(&recorder{}).Load(t.Context(), request(fixture(t, "good"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if _, err := rt.Call(t.Context(), "nope", nil); !errors.Is(err, ErrUnknownTool) {
		t.Fatalf("Call: %v; want ErrUnknownTool", err)
	}
}

// A caller that gives up gets its context's error, not a timeout.
func TestCallerCancel(t *testing.T) {
	rt, err := testHost(&recorder{}).Load(t.Context(), request(fixture(t, "timeout"), false))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = rt.Call(ctx, "polite", nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrPluginTimeout) {
		t.Fatalf("Call: %v; want context.Canceled", err)
	}
}

// A plugin that assigns a library variable changes its own copy only
// (with the shared stdlib map it would change it for the whole process).
func TestLibraryVariablesArePrivate(t *testing.T) {
	before := base64.StdEncoding
	src := wrap(`"encoding/base64"`, `base64.StdEncoding = base64.URLEncoding
	return sdk.Text(base64.StdEncoding.EncodeToString([]byte{0xfb, 0xff})), nil`)
	for _, trusted := range []bool{false, true} {
		rt, err := NewHost(Options{Logger: discard()}).Load(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), trusted))
		if err != nil {
			t.Fatal(err)
		}
		res, err := rt.Call(t.Context(), "run", nil)
		rt.Close()
		if err != nil || res.Content != "-_8=" {
			t.Fatalf("call: %+v %v; want the plugin to see its own assignment", res, err)
		}
		if base64.StdEncoding != before {
			base64.StdEncoding = before
			t.Fatalf("trusted=%v: the plugin changed base64.StdEncoding for the whole process", trusted)
		}
	}
}

// os.StartProcess without an environment starts in the plugin's, as
// exec.Command does.
func TestStartProcessEnv(t *testing.T) {
	envBin, err := exec.LookPath("env")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("needs the env program")
	}
	t.Setenv("WRASSE_TEST_SECRET_KEY", "sk-must-not-leak")
	src := wrap(`"io"; "os"`, `r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p, err := os.StartProcess(`+"`"+envBin+"`"+`, []string{"env"}, &os.ProcAttr{Files: []*os.File{nil, w, w}})
	w.Close()
	if err != nil {
		return nil, err
	}
	out, _ := io.ReadAll(r)
	p.Wait()
	return sdk.Text(string(out)), nil`)
	rt, err := NewHost(Options{Logger: discard()}).Load(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false, "exec", "files"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res, err := rt.Call(t.Context(), "run", nil)
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	if !strings.Contains(res.Content, "PATH=") || strings.Contains(res.Content, "sk-must-not-leak") {
		t.Fatalf("child environment:\n%s", res.Content)
	}
}
