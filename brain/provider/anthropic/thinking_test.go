package anthropic_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

func thinkingProvider(t *testing.T, m *providertest.Model, mode provider.ThinkingMode, mod ...func(*anthropic.Config)) *anthropic.Provider {
	t.Helper()
	cfg := anthropic.Config{BaseURL: m.BaseURL(), APIKey: "k", Model: "claude-sonnet-4-5",
		Thinking: func(string) provider.ThinkingMode { return mode }, ThinkingBudget: 2048}
	for _, f := range mod {
		f(&cfg)
	}
	p, err := anthropic.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Extended thinking: asked for with the budget (max_tokens raised by it),
// streamed as thinking with its signature, and the signed blocks go back
// unchanged in the assistant message of the tool-use turn, as the API
// requires (the fake refuses a changed or missing block).
func TestExtendedThinking(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic)
	m.Reply(providertest.Thinking("I should ", "compute it."), providertest.RedactedThinking("opaque=="),
		providertest.ToolCall("calc_eval", `{"expression":"6*7"}`))
	m.Reply(providertest.Text("42"))
	p := thinkingProvider(t, m, provider.ThinkOn)
	tools := []provider.Tool{{Name: "calc_eval", Parameters: json.RawMessage(`{"type":"object"}`)}}
	msgs := []provider.Message{{Role: provider.RoleUser, Content: "6*7?"}}
	var rec recorder
	resp, err := p.Stream(t.Context(), provider.Request{Messages: msgs, Tools: tools, MaxTokens: 1000}, rec.on)
	if err != nil {
		t.Fatal(err)
	}
	req := m.Requests()[0]
	if req.ThinkingBudget != 2048 || req.MaxTokens != 3048 {
		t.Errorf("budget %d max_tokens %d, want 2048 and 3048", req.ThinkingBudget, req.MaxTokens)
	}
	want := []provider.ThinkingBlock{{Text: "I should compute it.", Signature: providertest.Signature("I should compute it.")}, {Redacted: "opaque=="}}
	if !reflect.DeepEqual(resp.Thinking, want) {
		t.Fatalf("thinking %+v, want %+v", resp.Thinking, want)
	}
	var pieces []string
	var blocks int
	for _, ev := range rec.events {
		switch ev.Type {
		case provider.EventThinking:
			pieces = append(pieces, ev.Text)
		case provider.EventThinkingBlock:
			blocks++
		}
	}
	if !reflect.DeepEqual(pieces, []string{"I should ", "compute it."}) || blocks != 2 {
		t.Errorf("pieces %q, %d blocks", pieces, blocks)
	}
	msgs = append(msgs, provider.Message{Role: provider.RoleAssistant, ToolCalls: resp.ToolCalls, Thinking: resp.Thinking},
		provider.Message{Role: provider.RoleTool, ToolCallID: resp.ToolCalls[0].ID, ToolName: "calc_eval", Content: "42"})
	if _, err := p.Stream(t.Context(), provider.Request{Messages: msgs, Tools: tools}, nil); err != nil {
		t.Fatalf("the tool-use turn with its thinking blocks: %v", err)
	}
	if got := m.Requests()[1].Messages[1].Thinking; !reflect.DeepEqual(got, want) {
		t.Errorf("sent back %+v, want %+v", got, want)
	}
	// Changed on the way, the API refuses it: the fake holds Wrasse to
	// sending blocks back exactly.
	msgs[1].Thinking = []provider.ThinkingBlock{{Text: "edited", Signature: want[0].Signature}}
	m.Reply(providertest.Text("never"))
	if _, err := p.Stream(t.Context(), provider.Request{Messages: msgs, Tools: tools}, nil); provider.KindOf(err) != provider.ErrBadRequest {
		t.Errorf("an edited block was accepted: %v", err)
	}
}

// Without thinking asked for, none is sent or streamed; the levels take
// part of the budget.
func TestThinkingSetting(t *testing.T) {
	tests := []struct {
		mode   provider.ThinkingMode
		budget int
	}{{provider.ThinkAuto, 0}, {provider.ThinkOff, 0}, {provider.ThinkOn, 2048}, {provider.ThinkHigh, 2048}, {provider.ThinkMedium, 1024}, {provider.ThinkLow, 1024}}
	for _, tt := range tests {
		m := providertest.NewModel(t, providertest.Anthropic)
		m.Reply(providertest.Thinking("hmm"), providertest.Text("ok"))
		var rec recorder
		resp, err := thinkingProvider(t, m, tt.mode).Stream(t.Context(), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}}, rec.on)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Requests()[0].ThinkingBudget; got != tt.budget {
			t.Errorf("%q: budget %d, want %d", tt.mode, got, tt.budget)
		}
		if (len(resp.Thinking) > 0) != (tt.budget > 0) {
			t.Errorf("%q: thinking %+v", tt.mode, resp.Thinking)
		}
	}
}

// A stream that gave its stop_reason is complete even if message_stop
// never comes and the connection stays open.
func TestStopWithoutMessageStop(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic)
	m.Reply(providertest.Text("Paris."), providertest.Linger())
	clock := providertest.NewClock(time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC))
	p := thinkingProvider(t, m, provider.ThinkAuto, func(c *anthropic.Config) { c.Clock = clock })
	done := make(chan struct{})
	var resp *provider.Response
	var err error
	go func() {
		defer close(done)
		resp, err = p.Stream(context.Background(), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "hi"}}}, nil)
	}()
	<-m.Waiting()
	clock.AwaitTimer(provider.DefaultAfterFinish)
	clock.Advance(provider.DefaultAfterFinish)
	<-done
	if err != nil || resp.Text != "Paris." || resp.StopReason != provider.StopEnd {
		t.Errorf("%+v %v", resp, err)
	}
}

// The window is max_input_tokens from the models API, else the published
// figure; asked once.
func TestContextWindow(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic, providertest.WithModels(provider.ModelInfo{ID: "claude-sonnet-4-5", ContextWindow: 1000000}))
	p := thinkingProvider(t, m, provider.ThinkAuto)
	for range 2 {
		w, err := p.ContextWindow(t.Context(), "claude-sonnet-4-5")
		if err != nil || w != (provider.Window{Tokens: 1000000, Source: provider.WindowServer, From: "Anthropic /v1/models max_input_tokens"}) {
			t.Fatalf("%+v %v", w, err)
		}
	}
	if w, err := p.ContextWindow(t.Context(), "claude-haiku-4-5"); err != nil || w.Tokens != 200000 || w.Source != provider.WindowKnown {
		t.Errorf("unlisted Claude: %+v %v", w, err)
	}
	if p.WindowDiscoveries() != 2 {
		t.Errorf("%d discoveries", p.WindowDiscoveries())
	}
}
