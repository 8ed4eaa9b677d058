package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fakeTimers records AfterFunc calls; Fire runs the pending ones.
type fakeTimers struct {
	mu  sync.Mutex
	fns []*fakeTimer
}

type fakeTimer struct {
	f       func()
	stopped bool
}

func (t *fakeTimer) Stop() bool { t.stopped = true; return true }

func (ft *fakeTimers) AfterFunc(_ time.Duration, f func()) stopper {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	t := &fakeTimer{f: f}
	ft.fns = append(ft.fns, t)
	return t
}

// Fire runs every timer not stopped, once.
func (ft *fakeTimers) Fire() {
	ft.mu.Lock()
	fns := ft.fns
	ft.fns = nil
	ft.mu.Unlock()
	for _, t := range fns {
		if !t.stopped {
			t.f()
		}
	}
}

// inproc serves an in-process MCP server per dial, built by build; it
// counts dials and keeps the latest server session so a test can end it
// (a crash) or change its tools (list_changed).
type inproc struct {
	build func(s *sdk.Server)

	mu      sync.Mutex
	dials   int
	server  *sdk.Server
	session *sdk.ServerSession
	failing error
}

func (p *inproc) Dial(ctx context.Context, _ string) (sdk.Transport, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dials++
	if p.failing != nil {
		return nil, p.failing
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "test-server", Version: "1.0"}, nil)
	p.build(srv)
	st, ct := sdk.NewInMemoryTransports()
	// The server connects first (the SDK's in-memory pitfall).
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	p.server, p.session = srv, ss
	return ct, nil
}

func (p *inproc) Dials() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dials
}

func (p *inproc) Server() *sdk.Server {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.server
}

// Crash ends the server's side of the session, as a dying process would.
func (p *inproc) Crash() {
	p.mu.Lock()
	ss := p.session
	p.mu.Unlock()
	_ = ss.Close()
}

func (p *inproc) Fail(err error) {
	p.mu.Lock()
	p.failing = err
	p.mu.Unlock()
}

func boolp(b bool) *bool { return &b }

// textTool adds a tool answering with handler's text.
func textTool(s *sdk.Server, t *sdk.Tool, handler func(ctx context.Context, args map[string]any) (*sdk.CallToolResult, error)) {
	if t.InputSchema == nil {
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	s.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := map[string]any{}
		if len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
		}
		return handler(ctx, args)
	})
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// standardTools is the test server's usual set.
func standardTools(started chan<- struct{}, cancelled chan<- struct{}) func(*sdk.Server) {
	return func(s *sdk.Server) {
		textTool(s, &sdk.Tool{Name: "echo", Description: "Echoes the message back.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
			InputSchema: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
			func(_ context.Context, a map[string]any) (*sdk.CallToolResult, error) {
				return text("Echo: " + a["message"].(string)), nil
			})
		textTool(s, &sdk.Tool{Name: "delete_note", Description: "Deletes a note.", Annotations: &sdk.ToolAnnotations{DestructiveHint: boolp(true)},
			InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
			func(context.Context, map[string]any) (*sdk.CallToolResult, error) { return text("deleted"), nil })
		textTool(s, &sdk.Tool{Name: "add_note", Description: "Adds a note.", Annotations: &sdk.ToolAnnotations{DestructiveHint: boolp(false)}},
			func(context.Context, map[string]any) (*sdk.CallToolResult, error) { return text("added"), nil })
		textTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
			func(context.Context, map[string]any) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "disk full"}}}, nil
			})
		textTool(s, &sdk.Tool{Name: "picture", Description: "Returns an image and structured data."},
			func(context.Context, map[string]any) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "here it is"}, &sdk.ImageContent{MIMEType: "image/png", Data: testPNG()}, &sdk.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 2048)}},
					StructuredContent: map[string]any{"width": 32}}, nil
			})
		textTool(s, &sdk.Tool{Name: "slow", Description: "Waits until cancelled."},
			func(ctx context.Context, _ map[string]any) (*sdk.CallToolResult, error) {
				if started != nil {
					started <- struct{}{}
				}
				<-ctx.Done()
				if cancelled != nil {
					cancelled <- struct{}{}
				}
				return nil, ctx.Err()
			})
		s.AddResource(&sdk.Resource{Name: "readme", URI: "test://readme", MIMEType: "text/plain"},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "test://readme", Text: "read me first"}}}, nil
			})
		s.AddPrompt(&sdk.Prompt{Name: "greet", Description: "Say hello."},
			func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
				return &sdk.GetPromptResult{}, nil
			})
	}
}

// env is a registry with one MCP capability served in process.
type env struct {
	reg    *cerebellum.Registry
	loader *Loader
	srv    *inproc
	clock  *fakeClock
	timers *fakeTimers
	cats   *cerebellum.MemoryCatalogs
	ws     string
}

// writeCap writes a workspace capability whose SKILL.md is skill.
func writeCap(t testing.TB, ws, name, skill string) {
	t.Helper()
	dir := filepath.Join(cerebellum.CapabilitiesDir(ws), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
}

const notesSkill = `---
name: notes
description: Keep short notes on a notes server.
mcp:
  command: notes-server
  timeouts: {call: 200ms}
---
`

// newEnv opens a registry over a workspace with the notes capability.
func newEnv(t testing.TB, build func(*sdk.Server), cats *cerebellum.MemoryCatalogs, extra ...func(*cerebellum.Options)) *env {
	t.Helper()
	ws := t.TempDir()
	writeCap(t, ws, "notes", notesSkill)
	return openEnv(t, ws, build, cats, extra...)
}

func openEnv(t testing.TB, ws string, build func(*sdk.Server), cats *cerebellum.MemoryCatalogs, extra ...func(*cerebellum.Options)) *env {
	t.Helper()
	if cats == nil {
		cats = &cerebellum.MemoryCatalogs{}
	}
	e := &env{srv: &inproc{build: build}, clock: &fakeClock{t: time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)}, timers: &fakeTimers{}, cats: cats, ws: ws}
	e.loader = NewLoader(Options{Dial: e.srv.Dial, now: e.clock.Now, afterFunc: e.timers.AfterFunc, Terminate: 100 * time.Millisecond})
	opts := cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: e.loader}, Catalogs: cats,
		Settings: &cerebellum.MemorySettings{}}
	for _, f := range extra {
		f(&opts)
	}
	reg, err := cerebellum.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	approveAll(t, reg)
	e.reg = reg
	return e
}

// approveAll enables every MCP capability of reg, as the person does in
// the window or the CLI after reading what it runs: a server written into
// the workspace by hand, as the tests write theirs, is off until then.
func approveAll(t testing.TB, reg *cerebellum.Registry) {
	t.Helper()
	for _, c := range reg.List() {
		if c.Kind == cerebellum.KindMCP && c.State == cerebellum.StateDisabled {
			if err := manage.New(reg, manage.Options{}).Enable(c.Name, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// waitFor polls cond until it holds or the test's patience ends; it
// waits on another goroutine's effect, it is not a timing assertion.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// call calls tool through the registry without a session.
func call(t testing.TB, reg *cerebellum.Registry, tool, args string) (cerebellum.Result, error) {
	t.Helper()
	return reg.Call(context.Background(), nil, tool, json.RawMessage(args))
}

var errDialRefused = errors.New("dial refused by the test")
