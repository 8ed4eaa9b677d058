package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

func TestStartLearnsNamedToolsPromptsAndResources(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	c, _ := e.reg.Get("notes")
	if c.Kind != cerebellum.KindMCP || c.State != cerebellum.StateOK || len(c.Tools()) != 0 {
		t.Fatalf("before start: kind %s state %s tools %d; want an ok MCP capability without tools", c.Kind, c.State, len(c.Tools()))
	}
	if e.srv.Dials() != 0 {
		t.Fatal("opening the registry started the server")
	}
	if err := e.reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	c, _ = e.reg.Get("notes")
	var names []string
	for _, tl := range c.Tools() {
		names = append(names, tl.Name+"="+tl.Remote)
	}
	want := "notes__add_note=add_note notes__delete_note=delete_note notes__echo=echo notes__fail=fail notes__picture=picture notes__slow=slow"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools = %s\nwant    %s", got, want)
	}
	cat, ok, err := e.reg.Catalog("notes")
	if err != nil || !ok {
		t.Fatalf("Catalog = %v, %v", ok, err)
	}
	if len(cat.Prompts) != 1 || cat.Prompts[0].Name != "greet" || len(cat.Resources) != 1 || cat.Resources[0].URI != "test://readme" {
		t.Errorf("prompts %+v resources %+v; want greet and test://readme", cat.Prompts, cat.Resources)
	}
	if st, _ := e.reg.RuntimeStatus("notes"); st.State != cerebellum.RuntimeRunning {
		t.Errorf("status %s; want running", st.State)
	}
}

func TestCachedToolsSearchableWithoutServer(t *testing.T) {
	cats := &cerebellum.MemoryCatalogs{}
	e := newEnv(t, standardTools(nil, nil), cats)
	if err := e.reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	_ = e.reg.Close()

	// A new process: same workspace and database, a server that cannot start.
	e2 := openEnv(t, e.ws, standardTools(nil, nil), cats)
	e2.srv.Fail(errDialRefused)
	c, _ := e2.reg.Get("notes")
	if len(c.Tools()) != 6 {
		t.Fatalf("tools from the cache = %d; want 6", len(c.Tools()))
	}
	if !strings.Contains(e2.reg.Index(nil), "notes (MCP server, 6 tools)") {
		t.Errorf("index does not show the tool count:\n%s", e2.reg.Index(nil))
	}
	res, err := e2.reg.Search(nil, "echo the message back", 5)
	if err != nil || len(res.Matches) == 0 || res.Matches[0].Capability.Name != "notes" {
		t.Fatalf("search = %+v, %v; want notes first", res.Matches, err)
	}
	if e2.srv.Dials() != 0 {
		t.Errorf("listing and searching dialled the server %d times", e2.srv.Dials())
	}
	// A changed command is another server: its old list is not used.
	writeCap(t, e.ws, "notes", strings.Replace(notesSkill, "notes-server", "other-server", 1))
	if _, err := manage.New(e2.reg, manage.Options{}).Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, _ := e2.reg.Get("notes"); len(c.Tools()) != 0 {
		t.Errorf("tools of another command's list kept: %d", len(c.Tools()))
	}
}

func TestListChangedRefreshesTools(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	changed := make(chan cerebellum.Change, 8)
	e.reg.Subscribe(func(c cerebellum.Change) {
		if c.Reason == "tools" {
			changed <- c
		}
	})
	if err := e.reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	<-changed
	textTool(e.srv.Server(), &sdk.Tool{Name: "archive", Description: "Archives notes."},
		func(context.Context, map[string]any) (*sdk.CallToolResult, error) { return text("archived"), nil })
	<-changed
	if _, _, ok := e.reg.Snapshot().Tool("notes__archive"); !ok {
		t.Fatal("the tool added on the server is not registered after list_changed")
	}
	if cat, _, _ := e.reg.Catalog("notes"); len(cat.Tools) != 7 {
		t.Errorf("cached tools = %d; want 7", len(cat.Tools))
	}
	res, err := call(t, e.reg, "notes__archive", `{}`)
	if err != nil || res.Content != "archived" {
		t.Errorf("call of the new tool = %+v, %v", res, err)
	}
}

func TestAnnotationsOntoGate(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	if err := e.reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	snap := e.reg.Snapshot()
	for _, tc := range []struct {
		tool string
		want gate.Decision
	}{
		{"notes__echo", gate.Allow},
		{"notes__delete_note", gate.Confirm},
		{"notes__add_note", gate.Confirm},
		{"notes__fail", gate.Confirm},
	} {
		v := gate.Check(snap, tc.tool, json.RawMessage(`{"path":"a"}`))
		if v.Decision != tc.want {
			t.Errorf("%s: %s (%v); want %s", tc.tool, v.Decision, v.Reasons, tc.want)
		}
	}
	// Approve for this chat covers later calls of the tool, whatever the arguments.
	var g gate.Grants
	g.Add(gate.Check(snap, "notes__delete_note", json.RawMessage(`{"path":"a"}`)))
	if !g.Covers(gate.Check(snap, "notes__delete_note", json.RawMessage(`{"path":"b"}`))) {
		t.Error("approving delete_note for the conversation does not cover its next call")
	}
	if g.Covers(gate.Check(snap, "notes__add_note", json.RawMessage(`{}`))) {
		t.Error("approving delete_note covers add_note")
	}
	// The user's per-tool rules.
	if err := manage.New(e.reg, manage.Options{}).SetToolPolicy("notes", "delete_note", cerebellum.PolicyAlways); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(e.reg, manage.Options{}).SetToolPolicy("notes", "notes__echo", cerebellum.PolicyNever); err != nil {
		t.Fatal(err)
	}
	snap = e.reg.Snapshot()
	if v := gate.Check(snap, "notes__delete_note", nil); v.Decision != gate.Allow {
		t.Errorf("always: %s; want allow", v.Decision)
	}
	if v := gate.Check(snap, "notes__echo", nil); v.Decision != gate.Block {
		t.Errorf("never: %s; want block", v.Decision)
	}
	if err := manage.New(e.reg, manage.Options{}).SetToolPolicy("notes", "delete_note", cerebellum.PolicyAsk); err != nil {
		t.Fatal(err)
	}
	if v := gate.Check(e.reg.Snapshot(), "notes__delete_note", nil); v.Decision != gate.Confirm {
		t.Errorf("back to ask: %s; want confirm", v.Decision)
	}
	if err := manage.New(e.reg, manage.Options{}).SetToolPolicy("notes", "nope", cerebellum.PolicyNever); !errors.Is(err, cerebellum.ErrUnknownTool) {
		t.Errorf("policy for an unknown tool: %v; want ErrUnknownTool", err)
	}
}

func TestResults(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	mustStart(t, e)
	for _, tc := range []struct {
		name, tool, args string
		isErr            bool
		contains         []string
	}{
		{"text", "notes__echo", `{"message":"hi"}`, false, []string{"Echo: hi"}},
		{"image and structured", "notes__picture", `{}`, false, []string{"here it is", "[audio attachment (audio/wav, 2.0 KB): you cannot hear it", `Structured content:`, `{"width":32}`}},
		{"error result", "notes__fail", `{}`, true, []string{"MCP server notes reported an error from fail: disk full"}},
		{"schema checked before the call (draft-07)", "notes__echo", `{"message":3}`, true, []string{"invalid tool arguments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := call(t, e.reg, tc.tool, tc.args)
			if res.IsError != tc.isErr {
				t.Errorf("IsError = %v; want %v (%s)", res.IsError, tc.isErr, res.Content)
			}
			for _, s := range tc.contains {
				if !strings.Contains(res.Content, s) {
					t.Errorf("result %q lacks %q", res.Content, s)
				}
			}
		})
	}
}

func TestProtocolErrorIsErrorResultNamingServer(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	rt, err := e.loader.Load(context.Background(), loadReq(t, e, "notes"))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res, err := rt.Call(context.Background(), "no_such_tool", json.RawMessage(`{}`))
	if err != nil {
		t.Fatalf("protocol error returned as an error: %v", err)
	}
	if !res.IsError || !strings.Contains(res.Content, "MCP server notes refused the call of no_such_tool") {
		t.Errorf("result = %+v; want an error result naming the server", res)
	}
}

func loadReq(t testing.TB, e *env, name string) cerebellum.LoadRequest {
	t.Helper()
	c, err := e.reg.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return cerebellum.LoadRequest{Capability: c, Workspace: e.ws}
}

func TestCallTimeout(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil) // timeouts.call is 200ms
	mustStart(t, e)
	_, err := call(t, e.reg, "notes__slow", `{}`)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "did not answer within 200ms") {
		t.Errorf("err = %v; want ErrTimeout saying the limit", err)
	}
}

func TestCancelCancelsTheCallOnTheServer(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	ws := t.TempDir()
	writeCap(t, ws, "notes", strings.Replace(notesSkill, "200ms", "1h", 1))
	e := openEnv(t, ws, standardTools(started, cancelled), nil)
	mustStart(t, e)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.reg.Call(ctx, nil, "notes__slow", json.RawMessage(`{}`))
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want context.Canceled", err)
	}
	<-cancelled // the server's handler saw notifications/cancelled
}

func TestCrashShownAndNextCallRestarts(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	mustStart(t, e)
	if _, err := call(t, e.reg, "notes__echo", `{"message":"a"}`); err != nil {
		t.Fatal(err)
	}
	e.srv.Crash()
	waitFor(t, "the crash to be noticed", func() bool {
		st, _ := e.reg.RuntimeStatus("notes")
		return st.State == cerebellum.RuntimeCrashed
	})
	st, _ := e.reg.RuntimeStatus("notes")
	if !strings.Contains(st.Error, "MCP server notes stopped by itself") || st.Crashes != 1 {
		t.Errorf("status = %+v", st)
	}
	res, err := call(t, e.reg, "notes__echo", `{"message":"b"}`)
	if err != nil || res.Content != "Echo: b" {
		t.Fatalf("call after a crash = %+v, %v", res, err)
	}
	if e.srv.Dials() != 2 {
		t.Errorf("dials = %d; want 2 (restarted once)", e.srv.Dials())
	}
	if st, _ := e.reg.RuntimeStatus("notes"); st.Crashes != 0 || st.State != cerebellum.RuntimeRunning {
		t.Errorf("after a good call: %+v; want running, crashes reset", st)
	}
}

func TestBackoffAfterRepeatedFailures(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	mustStart(t, e)
	_ = e.reg.Close()
	e = openEnv(t, e.ws, standardTools(nil, nil), e.cats)
	e.srv.Fail(errDialRefused)
	for i := range 2 {
		if _, err := call(t, e.reg, "notes__echo", `{"message":"a"}`); !errors.Is(err, ErrConnect) {
			t.Fatalf("attempt %d: %v; want ErrConnect", i, err)
		}
	}
	if c, _ := e.reg.Get("notes"); c.State != cerebellum.StateOK {
		t.Errorf("a failed start marked the capability %s; the next call must be able to retry", c.State)
	}
	_, err := call(t, e.reg, "notes__echo", `{"message":"a"}`)
	if !errors.Is(err, ErrBackoff) || e.srv.Dials() != 2 {
		t.Fatalf("third attempt: %v after %d dials; want ErrBackoff without dialling", err, e.srv.Dials())
	}
	e.srv.Fail(nil)
	e.clock.Advance(backoffBase)
	if res, err := call(t, e.reg, "notes__echo", `{"message":"back"}`); err != nil || res.Content != "Echo: back" {
		t.Fatalf("after the pause: %+v, %v", res, err)
	}
}

func TestIdleStopAndRestart(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	mustStart(t, e)
	if _, err := call(t, e.reg, "notes__echo", `{"message":"a"}`); err != nil {
		t.Fatal(err)
	}
	e.timers.Fire() // not idle long enough yet: re-armed
	if st, _ := e.reg.RuntimeStatus("notes"); st.State != cerebellum.RuntimeRunning {
		t.Fatalf("stopped before its idle time: %s", st.State)
	}
	e.clock.Advance(DefaultIdle)
	e.timers.Fire()
	if st, _ := e.reg.RuntimeStatus("notes"); st.State != cerebellum.RuntimeStopped {
		t.Fatalf("after the idle time: %s; want stopped", st.State)
	}
	if _, err := call(t, e.reg, "notes__echo", `{"message":"b"}`); err != nil || e.srv.Dials() != 2 {
		t.Errorf("call after idle stop: %v, dials %d; want a restart", err, e.srv.Dials())
	}
}

func TestEvictedFromEveryConversationStops(t *testing.T) {
	ws := t.TempDir()
	writeCap(t, ws, "notes", notesSkill)
	writeCap(t, ws, "other", "---\nname: other\ndescription: Another server.\nmcp:\n  command: other\n---\n")
	e := openEnv(t, ws, standardTools(nil, nil), nil, func(o *cerebellum.Options) { o.MaxLoaded = 1 })
	a := e.reg.NewSession("c1", nil)
	b := e.reg.NewSession("c2", nil)
	for _, s := range []*cerebellum.Session{a, b} {
		if _, err := e.reg.Activate(s, "notes"); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.reg.Activate(a, "other"); err != nil { // evicts notes from c1 only
		t.Fatal(err)
	}
	if st, _ := e.reg.RuntimeStatus("notes"); st.State != cerebellum.RuntimeRunning {
		t.Fatalf("stopped while c2 still has it: %s", st.State)
	}
	if _, err := e.reg.Activate(b, "other"); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.reg.RuntimeStatus("notes"); st.State != cerebellum.RuntimeStopped {
		t.Errorf("evicted from every conversation: %s; want stopped", st.State)
	}
}

func TestDisableStops(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	if err := e.reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(e.reg, manage.Options{}).Disable("notes"); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.reg.RuntimeStatus("notes"); st.State != cerebellum.RuntimeStopped {
		t.Errorf("after disable: %s; want stopped", st.State)
	}
	e.loader.mu.Lock()
	n := len(e.loader.servers)
	e.loader.mu.Unlock()
	if n != 0 {
		t.Errorf("%d runtimes left open after disable", n)
	}
}

func TestToolSearchActivatesAndStartsServer(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil, withBuiltins(t, "tool-discovery"))
	sess := e.reg.NewSession("c1", nil)
	ctx := cerebellum.WithSession(context.Background(), sess)
	res, err := e.reg.Call(ctx, sess, "tool_search", json.RawMessage(`{"query":"keep short notes"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "Loaded notes") || !strings.Contains(res.Content, "notes__echo") {
		t.Errorf("tool_search did not load notes with its tools:\n%s", res.Content)
	}
	if e.srv.Dials() != 1 {
		t.Errorf("dials = %d; want the server started by activation", e.srv.Dials())
	}
}

func TestResourcesTool(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil, withBuiltins(t, "mcp"))
	if c, _ := e.reg.Get("mcp"); c.State != cerebellum.StateOK {
		t.Fatalf("built-in mcp capability: %s %s", c.State, c.Error)
	}
	for _, tc := range []struct {
		name, args string
		isErr      bool
		contains   string
	}{
		{"before any start", `{}`, false, "notes: not listed yet"},
		{"list one server", `{"server":"notes"}`, false, "test://readme (readme) [text/plain]"},
		{"list all from the cache", `{}`, false, "- notes:\n  - test://readme"},
		{"read", `{"server":"notes","uri":"test://readme"}`, false, "read me first"},
		{"unknown uri", `{"server":"notes","uri":"test://nope"}`, true, "MCP server notes could not read test://nope"},
		{"not a server", `{"server":"mcp"}`, true, "not an MCP server"},
		{"uri without server", `{"uri":"test://readme"}`, true, "say which server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := call(t, e.reg, "mcp_resources", tc.args)
			if res.IsError != tc.isErr || !strings.Contains(res.Content, tc.contains) {
				t.Errorf("result = %+v; want isError %v containing %q", res, tc.isErr, tc.contains)
			}
		})
	}
}

func TestTimeoutsFromSkill(t *testing.T) {
	e := newEnv(t, standardTools(nil, nil), nil)
	cfg, err := e.loader.configOf(loadReq(t, e, "notes"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.call != 200*time.Millisecond || cfg.connect != DefaultConnectTimeout || cfg.idle != DefaultIdle {
		t.Errorf("config = call %s connect %s idle %s", cfg.call, cfg.connect, cfg.idle)
	}
}

// mustStart starts the notes server, so its tools are known.
func mustStart(t testing.TB, e *env) {
	t.Helper()
	if err := e.reg.Start(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
}

// withBuiltins serves the named built-in capabilities as the app ships them.
func withBuiltins(t testing.TB, names ...string) func(*cerebellum.Options) {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, n := range names {
		skill, err := os.ReadFile("../../brain/cerebellum/" + n + "/SKILL.md")
		if err != nil {
			t.Fatal(err)
		}
		fsys[n+"/SKILL.md"] = &fstest.MapFile{Data: skill}
	}
	return func(o *cerebellum.Options) { o.Builtin = fsys }
}
