package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// turn is one scripted model response (see providertest.Part).
type turn []providertest.Part

// newProvider is an in-memory provider playing turns, one per request; a
// request beyond them fails the test.
func newProvider(t *testing.T, turns ...turn) *providertest.Provider {
	p := providertest.NewProvider(t, "fake")
	add(p, turns...)
	return p
}

// add scripts more turns.
func add(p *providertest.Provider, turns ...turn) {
	for _, tr := range turns {
		p.Reply(tr...)
	}
}

func text(parts ...string) turn { return turn{providertest.Text(parts...)} }

func calls(cs ...providertest.Part) turn { return turn(cs) }

// tc is a tool call with its ID ("" for none).
func tc(id, name, args string) providertest.Part {
	return providertest.ToolCall(name, args).WithID(id)
}

// fail is a response that fails with err as is.
func fail(err error) turn { return turn{providertest.Fail(err)} }

// recorder is a capability runtime that records calls.
type recorder struct {
	mu      sync.Mutex
	calls   []string
	started chan struct{} // closed when slow_wait starts
	once    sync.Once
}

func (r *recorder) Close() error { return nil }

func (r *recorder) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	r.mu.Lock()
	r.calls = append(r.calls, tool+" "+string(args))
	r.mu.Unlock()
	switch tool {
	case "slow_wait":
		r.once.Do(func() { close(r.started) })
		<-ctx.Done()
		return cerebellum.Result{}, ctx.Err()
	case "echo_back":
		var a struct {
			Text  string
			Times int
		}
		_ = json.Unmarshal(args, &a)
		return cerebellum.Result{Content: "echo: " + strings.Repeat(a.Text, max(1, a.Times))}, nil
	case "weather_get":
		return cerebellum.Result{Content: "sunny, 21°C"}, nil
	case "web_fetch":
		// A fetch whose page redirects where its "to" parameter says: the
		// redirect asks the call's host check, as the web plugin does.
		var a struct{ URL string }
		_ = json.Unmarshal(args, &a)
		if u, err := url.Parse(a.URL); err == nil && u.Query().Get("to") != "" {
			if err := sdk.CheckHost(ctx, u.Query().Get("to")); err != nil {
				return cerebellum.Result{Content: "the redirect was not followed: " + err.Error(), IsError: true}, nil
			}
			return cerebellum.Result{Content: "fetched " + u.Query().Get("to")}, nil
		}
		return cerebellum.Result{Content: "fetched " + a.URL}, nil
	}
	return cerebellum.Result{Content: "ran " + tool}, nil
}

func (r *recorder) called() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

const weatherSkill = `---
name: weather
description: Weather forecasts for any city.
keywords: [weather, forecast, rain, temperature]
tools:
  - name: weather_get
    description: The forecast for a city.
    parameters: {type: object, properties: {city: {type: string}}, required: [city], additionalProperties: false}
    annotations: {readOnly: true}
---
# Weather

Call weather_get with the city.
`

const toolsSkill = `---
name: testing-tools
description: Tools for tests.
core: true
tools:
  - name: wipe_all
    description: Deletes everything.
    parameters: {type: object, properties: {}, additionalProperties: false}
    annotations: {destructive: true}
  - name: echo_back
    description: Echoes text.
    parameters: {type: object, properties: {text: {type: string}, times: {type: integer}}, additionalProperties: false}
  - name: slow_wait
    description: Waits until stopped.
    parameters: {type: object, properties: {}, additionalProperties: false}
---
# Testing tools

For tests.
`

// env is an agent over a real store and a registry of real and test
// capabilities; shell is the real built-in SKILL.md (real patterns) served
// by the recorder, so nothing is executed.
type env struct {
	t     *testing.T
	db    *store.DB
	reg   *cerebellum.Registry
	rt    *recorder
	prov  *providertest.Provider
	appr  *approver
	logs  *logBuffer
	clock func() time.Time
	dir   string
}

func newEnv(t *testing.T, prov *providertest.Provider) *env {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "wrasse.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{t: t, db: db, prov: prov, rt: &recorder{started: make(chan struct{})}, appr: &approver{}, logs: &logBuffer{}, dir: dir,
		clock: func() time.Time { return time.Date(2025, 3, 4, 15, 4, 5, 0, time.UTC) }}
	e.reg = openRegistry(t, e.rt)
	return e
}

func builtinFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := fs.ReadFile(builtin.FS(), name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func openRegistry(t *testing.T, rt cerebellum.Runtime) *cerebellum.Registry {
	t.Helper()
	fsys := fstest.MapFS{
		"tool-discovery/SKILL.md": {Data: builtinFile(t, "tool-discovery/SKILL.md")},
		"shell/SKILL.md":          {Data: builtinFile(t, "shell/SKILL.md")},
		"weather/SKILL.md":        {Data: []byte(weatherSkill)},
		"testing-tools/SKILL.md":  {Data: []byte(toolsSkill)},
	}
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fsys,
		Native: map[string]cerebellum.Runtime{"shell": rt, "weather": rt, "testing-tools": rt}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	for _, c := range reg.List() {
		if !c.Usable() {
			t.Fatalf("%s: %s", c.Name, c.Error)
		}
	}
	return reg
}

func (e *env) agent(mod ...func(*agent.Options)) *agent.Agent {
	e.t.Helper()
	opts := agent.Options{Registry: e.reg, Store: e.db, Provider: e.prov, Approver: e.appr, Model: "test-model",
		Identity: func() string { return "You are the test assistant." }, Clock: e.clock,
		Facts:  agent.Facts{OS: "linux", Arch: "amd64", Hostname: "box", Locale: "en_GB.UTF-8"},
		Logger: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	for _, m := range mod {
		m(&opts)
	}
	a, err := agent.New(opts)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// approver answers confirmation requests from a script and records them.
type approver struct {
	mu      sync.Mutex
	answers []gate.Approval
	reqs    []gate.Request
}

func (a *approver) Approve(ctx context.Context, req gate.Request) (gate.Approval, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, req)
	if len(a.answers) == 0 {
		return gate.Deny, nil
	}
	ans := a.answers[0]
	a.answers = a.answers[1:]
	return ans, nil
}

func (a *approver) requests() []gate.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]gate.Request(nil), a.reqs...)
}

// sink records what a turn reports.
type sink struct {
	mu     sync.Mutex
	events []store.Event
	texts  []string
	steps  []int
}

func (s *sink) OnStep(n int) { s.mu.Lock(); s.steps = append(s.steps, n); s.mu.Unlock() }
func (s *sink) OnText(_ uint64, d string) {
	s.mu.Lock()
	s.texts = append(s.texts, d)
	s.mu.Unlock()
}
func (s *sink) OnEvent(e store.Event) { s.mu.Lock(); s.events = append(s.events, e); s.mu.Unlock() }

// final returns the sink's events with later versions replacing earlier
// ones of the same Seq, in Seq order.
func (s *sink) final() []store.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.Event
	idx := map[uint64]int{}
	for _, e := range s.events {
		if i, ok := idx[e.Seq]; ok {
			out[i] = e
			continue
		}
		idx[e.Seq] = len(out)
		out = append(out, e)
	}
	return out
}

// checkSink asserts the sink saw exactly the stored events of the turn
// (events after skip).
func checkSink(t *testing.T, db *store.DB, id store.ID, s *sink, skip int) {
	t.Helper()
	stored, err := db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	stored = stored[skip:]
	got := s.final()
	if !reflect.DeepEqual(got, stored) {
		t.Errorf("sink events differ from stored events:\nsink:   %+v\nstored: %+v", got, stored)
	}
}

// kinds summarises events as "type" or "type:detail" for compact assertions.
func kinds(events []store.Event) []string {
	var out []string
	for _, e := range events {
		k := string(e.Type)
		switch e.Type {
		case store.EventAssistantText:
			if e.Status != "" {
				k += ":" + string(e.Status)
			}
		case store.EventToolCall, store.EventToolResult:
			k += ":" + e.ToolName
			if e.IsError {
				k += ":error"
			}
		case store.EventApproval:
			k += ":" + string(e.Decision.Kind)
		}
		out = append(out, k)
	}
	return out
}

func events(t *testing.T, db *store.DB, id store.ID) []store.Event {
	t.Helper()
	ev, err := db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func toolNames(tools []provider.Tool) []string {
	var out []string
	for _, tl := range tools {
		out = append(out, tl.Name)
	}
	return out
}

// conv creates a conversation for a first turn, as App.Turn does before it
// runs the agent.
func (e *env) conv() store.ID {
	e.t.Helper()
	c, err := e.db.CreateConversation("test-model")
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID
}

// newConv is conv for a test with a store of its own.
func newConv(t testing.TB, db *store.DB) store.ID {
	t.Helper()
	c, err := db.CreateConversation("test-model")
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// logBuffer is the log's text, written by every turn's goroutine (two
// conversations' turns run at once in some tests).
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
