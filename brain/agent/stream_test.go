package agent_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// streamSink records thinking pieces and statuses besides the events.
type streamSink struct {
	sink
	mu       sync.Mutex
	thinking map[uint64]string
	statuses []provider.Status
}

func (s *streamSink) OnThinking(seq uint64, d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.thinking == nil {
		s.thinking = map[uint64]string{}
	}
	s.thinking[seq] += d
}

func (s *streamSink) OnStatus(st provider.Status) {
	s.mu.Lock()
	s.statuses = append(s.statuses, st)
	s.mu.Unlock()
}

// Reasoning is stored as a thinking event of its own, shown as it
// streams, and the next request of the turn carries it with its
// assistant message, never as answer text.
func TestThinkingIsKept(t *testing.T) {
	prov := newProvider(t,
		turn{providertest.Thinking("Check ", "the weather."), tc("c1", "weather_get", `{"city":"Oslo"}`)},
		turn{providertest.Thinking("It is sunny."), providertest.Text("Sunny, 21°C.")})
	e := newEnv(t, prov)
	s := &streamSink{}
	id, err := e.agent().Turn(t.Context(), e.conv(), "weather in Oslo?", s)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(t, e.db, id)
	want := []string{"user_message", "thinking", "tool_call:weather_get", "usage", "tool_result:weather_get", "thinking", "assistant_text", "usage"}
	if got := kinds(ev); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	var thoughts []store.Event
	for _, x := range ev {
		if x.Type == store.EventThinking {
			thoughts = append(thoughts, x)
		}
	}
	if len(thoughts) != 2 || thoughts[0].Text != "Check the weather." || thoughts[0].Status != store.StatusComplete || thoughts[1].Text != "It is sunny." {
		t.Fatalf("thinking events %+v", thoughts)
	}
	if s.thinking[thoughts[0].Seq] != "Check the weather." {
		t.Errorf("shown thinking %v", s.thinking)
	}
	reqs := prov.Requests()
	asst := reqs[1].Messages[1]
	if asst.Role != provider.RoleAssistant || asst.Content != "" || len(asst.Thinking) != 1 || asst.Thinking[0].Text != "Check the weather." {
		t.Errorf("second request's assistant message %+v", asst)
	}
	if last := ev[len(ev)-2]; last.Type != store.EventAssistantText || last.Text != "Sunny, 21°C." {
		t.Errorf("answer %+v", last)
	}
}

// statusProvider reports statuses around a piece of text, as the real
// providers do while a request waits and when the answer stalls.
type statusProvider struct {
	db     *store.DB
	stored string // the reply as stored when the stall was reported
}

func (p *statusProvider) Name() string { return "status" }

func (p *statusProvider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	resp := &provider.Response{StopReason: provider.StopEnd, Text: "Hel"}
	for _, ev := range []provider.Event{
		{Type: provider.EventStatus, Status: &provider.Status{Phase: provider.PhaseConnecting, Message: "connecting to Ollama…"}},
		{Type: provider.EventStatus, Status: &provider.Status{Phase: provider.PhaseLoading, Message: "loading llama3.1 into memory…"}},
		{Type: provider.EventText, Text: "Hel"},
		{Type: provider.EventStatus, Status: &provider.Status{Phase: provider.PhaseStalled, Message: "waiting for more from llama3.1…"}},
	} {
		if err := onEvent(ev); err != nil {
			return resp, err
		}
	}
	convs, err := p.db.ListConversations()
	if err != nil {
		return resp, err
	}
	last, err := p.db.LastEvents(convs[0].ID, 1)
	if err != nil {
		return resp, err
	}
	p.stored = last[0].Text
	return resp, nil
}

// Statuses reach a StatusSink and are never stored; a stall commits the
// text shown so far at once, so a crash while the server is silent loses
// nothing that was on screen.
func TestStatusesAndStall(t *testing.T) {
	e := newEnv(t, nil)
	prov := &statusProvider{db: e.db}
	s := &streamSink{}
	id, err := e.agent(func(o *agent.Options) { o.Provider = prov }).Turn(t.Context(), e.conv(), "hi", s)
	if err != nil {
		t.Fatal(err)
	}
	if prov.stored != "Hel" {
		t.Errorf("stored %q when the stall was reported, want what was shown", prov.stored)
	}
	var msgs []string
	for _, st := range s.statuses {
		msgs = append(msgs, st.Message)
	}
	if want := []string{"connecting to Ollama…", "loading llama3.1 into memory…", "waiting for more from llama3.1…"}; !reflect.DeepEqual(msgs, want) {
		t.Errorf("statuses %q", msgs)
	}
	for _, x := range events(t, e.db, id) {
		if strings.Contains(x.Text, "connecting") {
			t.Errorf("a status was stored: %+v", x)
		}
	}
}

// A notice (a model that cannot call tools) is stored once per turn, not
// at every step.
func TestNoticeOncePerTurn(t *testing.T) {
	notice := provider.Event{Type: provider.EventNotice, Text: "llama2 cannot call tools, so it answers without them."}
	prov := &noticeProvider{ev: notice}
	e := newEnv(t, nil)
	id, err := e.agent(func(o *agent.Options) { o.Provider = prov }).Turn(t.Context(), e.conv(), "hi", nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range events(t, e.db, id) {
		if x.Type == store.EventNotice {
			n++
		}
	}
	if n != 1 || prov.calls != 2 {
		t.Errorf("%d notices over %d requests, want 1 over 2", n, prov.calls)
	}
}

type noticeProvider struct {
	ev    provider.Event
	calls int
}

func (p *noticeProvider) Name() string { return "notice" }

func (p *noticeProvider) Stream(ctx context.Context, req provider.Request, onEvent func(provider.Event) error) (*provider.Response, error) {
	p.calls++
	if err := onEvent(p.ev); err != nil {
		return nil, err
	}
	if p.calls == 1 {
		c := provider.ToolCall{ID: "c1", Name: "weather_get", Arguments: []byte(`{"city":"Oslo"}`)}
		if err := onEvent(provider.Event{Type: provider.EventToolCall, ToolCall: &c}); err != nil {
			return nil, err
		}
		return &provider.Response{StopReason: provider.StopToolUse, ToolCalls: []provider.ToolCall{c}}, nil
	}
	if err := onEvent(provider.Event{Type: provider.EventText, Text: "Sunny."}); err != nil {
		return nil, err
	}
	return &provider.Response{StopReason: provider.StopEnd, Text: "Sunny."}, nil
}

// A reply stopped at the length limit says so in its status, also when
// no text came at all.
func TestLengthStop(t *testing.T) {
	for _, tt := range []struct {
		name  string
		parts turn
		text  string
	}{
		{"with text", turn{providertest.Text("The first half"), providertest.MaxTokens()}, "The first half"},
		{"thinking only", turn{providertest.Thinking("Long thoughts"), providertest.MaxTokens()}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, newProvider(t, tt.parts))
			id, err := e.agent().Turn(t.Context(), e.conv(), "write", nil)
			if err != nil {
				t.Fatal(err)
			}
			var reply *store.Event
			for _, x := range events(t, e.db, id) {
				if x.Type == store.EventAssistantText {
					reply = &x
				}
			}
			if reply == nil || reply.Status != store.StatusLength || reply.Text != tt.text {
				t.Errorf("reply %+v", reply)
			}
		})
	}
}
