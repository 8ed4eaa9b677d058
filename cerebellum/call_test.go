package cerebellum_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// replyLoader serves every tool by returning what its "reply" argument
// says, as it is: the registry's own checks are what is under test.
type replyLoader struct{ calls atomic.Int32 }

type replyRuntime struct{ l *replyLoader }

func (l *replyLoader) Load(context.Context, cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	return replyRuntime{l}, nil
}

func (r replyRuntime) Call(_ context.Context, _ string, args json.RawMessage) (cerebellum.Result, error) {
	r.l.calls.Add(1)
	var a struct {
		Reply   string `json:"reply"`
		IsError bool   `json:"isError"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return cerebellum.Result{}, err
	}
	return cerebellum.Result{Content: a.Reply, IsError: a.IsError}, nil
}

func (replyRuntime) Close() error { return nil }

const statsSkill = `---
name: stats
description: Counts things.
tools:
  - name: stats_count
    description: Count.
    parameters:
      type: object
      properties:
        reply: {type: string}
        isError: {type: boolean}
      required: [reply]
    outputSchema:
      type: object
      properties:
        count: {type: integer}
      required: [count]
---
# stats
`

// Every result is checked against the tool's outputSchema and cut to
// MaxResultBytes by the registry, once, whatever the runtime did (a plugin
// no longer checks or cuts its own); arguments are checked before anything
// runs.
func TestCallChecksEachThingOnce(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("stats", statsSkill, true)
	l := &replyLoader{}
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, MaxResultBytes: 200,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: l}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	reply := func(content string, isError bool) string {
		b, _ := json.Marshal(map[string]any{"reply": content, "isError": isError})
		return string(b)
	}
	long := `{"count":1,"pad":"` + strings.Repeat("x", 400) + `"}`
	cases := []struct {
		name, args string
		sentinel   error
		has        string
		truncated  bool
		ran        bool
	}{
		{name: "matches", args: reply(`{"count":3}`, false), has: `{"count":3}`, ran: true},
		{name: "does not match", args: reply(`{"count":"three"}`, false), sentinel: cerebellum.ErrFailed, has: "outputSchema", ran: true},
		{name: "not JSON", args: reply(`three`, false), sentinel: cerebellum.ErrFailed, has: "outputSchema", ran: true},
		{name: "error results are not checked", args: reply(`it broke`, true), has: "it broke", ran: true},
		{name: "cut after the check", args: reply(long, false), has: "bytes were cut", truncated: true, ran: true},
		{name: "arguments not JSON", args: `{"reply":`, sentinel: cerebellum.ErrInvalidArgs, has: "not valid JSON"},
		{name: "arguments off the schema", args: `{"reply":3}`, sentinel: cerebellum.ErrInvalidArgs, has: "/reply"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := l.calls.Load()
			res, err := r.Call(t.Context(), r.NewSession("c", nil), "stats_count", json.RawMessage(tc.args))
			if tc.sentinel == nil && err != nil || tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Fatalf("Call error %v; want %v", err, tc.sentinel)
			}
			if !strings.Contains(res.Content, tc.has) || res.Truncated != tc.truncated || err == nil && len(res.Content) > 200 {
				t.Errorf("Call = %q (truncated %v); want %q within 200 bytes, truncated %v", res.Content, res.Truncated, tc.has, tc.truncated)
			}
			if ran := l.calls.Load() > before; ran != tc.ran {
				t.Errorf("the runtime ran: %v; want %v", ran, tc.ran)
			}
		})
	}
}

// Prepare says why a call will be refused before anything runs or loads,
// so a caller asks no one about it.
func TestPrepareCallRefusesBeforeRunning(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("stats", statsSkill, true)
	l := &replyLoader{}
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: l}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cases := []struct {
		tool, args string
		sentinel   error
	}{
		{"stats_count", `{"reply":"{\"count\":1}"}`, nil},
		{"stats_count", ``, cerebellum.ErrInvalidArgs},
		{"stats_count", `{"reply":`, cerebellum.ErrInvalidArgs},
		{"stats_cuont", `{}`, cerebellum.ErrUnknownTool},
	}
	for _, tc := range cases {
		t.Run(tc.tool+tc.args, func(t *testing.T) {
			before := l.calls.Load()
			p := r.Prepare(tc.tool, json.RawMessage(tc.args))
			if err := p.Err(); tc.sentinel == nil && err != nil || tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Fatalf("Prepare.Err = %v; want %v", err, tc.sentinel)
			}
			if l.calls.Load() != before {
				t.Fatal("Prepare ran the tool")
			}
			sess := r.NewSession("c", nil)
			_, err := r.Run(t.Context(), sess, p)
			if !errors.Is(err, tc.sentinel) || tc.sentinel == nil && err != nil {
				t.Fatalf("Run = %v; want %v", err, tc.sentinel)
			}
		})
	}
	if l.calls.Load() != 1 {
		t.Fatalf("the tool ran %d times; want once", l.calls.Load())
	}
}
