package anthropic_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

var schema = json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)

// loadedRequest is a conversation that loaded "weather" with tool_search:
// its result names weather_get, which is also among the deferrable tools.
func loadedRequest(model string) provider.Request {
	return provider.Request{
		Model:  model,
		System: "You are Wrasse.",
		Messages: []provider.Message{
			{Role: provider.RoleUser, Content: "Weather in Lyon?"},
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "toolu_1", Name: "tool_search", Arguments: json.RawMessage(`{"query":"weather"}`)}}},
			{Role: provider.RoleTool, ToolCallID: "toolu_1", ToolName: "tool_search", Content: "Loaded weather.", ToolRefs: []string{"weather_get"}},
		},
		Tools: []provider.Tool{
			{Name: "tool_search", Description: "Find tools.", Parameters: schema},
			{Name: "tool_activate", Description: "Load a capability.", Parameters: schema},
			{Name: "weather_get", Description: "Forecast.", Parameters: schema, Loadable: true},
		},
		Deferrable: []provider.Tool{
			{Name: "mail_send", Description: "Send mail.", Parameters: schema, Loadable: true},
			{Name: "weather_get", Description: "Forecast.", Parameters: schema, Loadable: true},
		},
	}
}

func deferredNames(r providertest.Request) []string {
	var out []string
	for _, t := range r.Tools {
		if t.Deferred {
			out = append(out, t.Name)
		}
	}
	return out
}

// A real request, built by the provider and read by the fake server's
// parser, carries breakpoints on the tools, the system prompt and the
// newest message, the deferred way and the plain way.
func TestRequestBreakpoints(t *testing.T) {
	tests := []struct {
		name        string
		model       string
		mod         func(*anthropic.Config)
		tools       []string
		deferred    []string
		refs        []string
		breakpoints []string
	}{
		{name: "deferred", model: "claude-sonnet-4-5",
			tools: []string{"tool_search", "tool_activate", "mail_send", "weather_get"}, deferred: []string{"mail_send", "weather_get"},
			refs: []string{"weather_get"}, breakpoints: []string{"tool:tool_activate", "system", "message:2"}},
		{name: "plain by model name", model: "claude-3-5-sonnet-20241022",
			tools: []string{"tool_search", "tool_activate", "weather_get"}, breakpoints: []string{"tool:weather_get", "system", "message:2"}},
		{name: "plain by config", model: "claude-sonnet-4-5", mod: func(c *anthropic.Config) { c.DisableDeferredTools = true },
			tools: []string{"tool_search", "tool_activate", "weather_get"}, breakpoints: []string{"tool:weather_get", "system", "message:2"}},
		{name: "system only (before issue 16)", model: "claude-3-5-sonnet-20241022", mod: func(c *anthropic.Config) { c.SystemBreakpointOnly = true },
			tools: []string{"tool_search", "tool_activate", "weather_get"}, breakpoints: []string{"system"}},
		{name: "cache off", model: "claude-3-5-sonnet-20241022", mod: func(c *anthropic.Config) { c.DisablePromptCache = true },
			tools: []string{"tool_search", "tool_activate", "weather_get"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := providertest.NewModel(t, providertest.Anthropic)
			m.Reply(providertest.Text("Sunny."))
			if _, err := newProvider(t, m.BaseURL(), tt.mod).Stream(t.Context(), loadedRequest(tt.model), nil); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			got := m.Requests()[0]
			if !slices.Equal(got.ToolNames(), tt.tools) {
				t.Errorf("tools %q, want %q", got.ToolNames(), tt.tools)
			}
			if d := deferredNames(got); !slices.Equal(d, tt.deferred) {
				t.Errorf("deferred %q, want %q", d, tt.deferred)
			}
			if refs := got.LastMessage().ToolRefs; !slices.Equal(refs, tt.refs) {
				t.Errorf("tool references %q, want %q", refs, tt.refs)
			}
			if !slices.Equal(got.Breakpoints, tt.breakpoints) {
				t.Errorf("breakpoints %q, want %q", got.Breakpoints, tt.breakpoints)
			}
		})
	}
}

// A loaded tool whose loading result is no longer in the history (trimmed
// to fit) is declared like a core tool, so the model still sees it.
func TestUnreferencedLoadedToolStaysVisible(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic)
	m.Reply(providertest.Text("Sunny."))
	req := loadedRequest("claude-sonnet-4-5")
	req.Messages = []provider.Message{{Role: provider.RoleUser, Content: "And tomorrow?"}}
	if _, err := newProvider(t, m.BaseURL(), nil).Stream(t.Context(), req, nil); err != nil {
		t.Fatal(err)
	}
	got := m.Requests()[0]
	if want := []string{"tool_search", "tool_activate", "weather_get", "mail_send"}; !slices.Equal(got.ToolNames(), want) {
		t.Errorf("tools %q, want %q", got.ToolNames(), want)
	}
	if d := deferredNames(got); !slices.Equal(d, []string{"mail_send"}) {
		t.Errorf("deferred %q, want only mail_send", d)
	}
	if !slices.Equal(got.Breakpoints, []string{"tool:weather_get", "system", "message:0"}) {
		t.Errorf("breakpoints %q", got.Breakpoints)
	}
}

// A model that refuses deferred tools with a 400 naming defer_loading gets
// the same request the plain way at once, and every later one too.
func TestDeferredFallback(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic)
	m.Reply(providertest.Status(400, `{"type":"error","error":{"type":"invalid_request_error","message":"tools.2.custom.defer_loading: Extra inputs are not permitted"}}`))
	m.Reply(providertest.Text("Sunny."))
	m.Reply(providertest.Text("Still sunny."))
	p := newProvider(t, m.BaseURL(), nil)
	for i := range 2 {
		resp, err := p.Stream(t.Context(), loadedRequest("claude-sonnet-4-5"), nil)
		if err != nil {
			t.Fatalf("Stream %d: %v", i+1, err)
		}
		if resp.Text == "" {
			t.Errorf("Stream %d: no text", i+1)
		}
	}
	reqs := m.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (deferred, then plain twice)", len(reqs))
	}
	if len(deferredNames(reqs[0])) == 0 {
		t.Errorf("first request was not deferred: %q", reqs[0].ToolNames())
	}
	for _, r := range reqs[1:] {
		if d := deferredNames(r); len(d) > 0 || len(r.LastMessage().ToolRefs) > 0 {
			t.Errorf("after the refusal: deferred %q, references %q", d, r.LastMessage().ToolRefs)
		}
		if !slices.Equal(r.ToolNames(), []string{"tool_search", "tool_activate", "weather_get"}) {
			t.Errorf("plain tools %q", r.ToolNames())
		}
	}
}

// A 400 about something else is the caller's error, not a reason to
// resend.
func TestOtherBadRequestIsNotRetried(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic)
	m.Reply(providertest.Status(400, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}`))
	_, err := newProvider(t, m.BaseURL(), nil).Stream(t.Context(), loadedRequest("claude-sonnet-4-5"), nil)
	if provider.KindOf(err) != provider.ErrBadRequest {
		t.Fatalf("err = %v, want a bad request", err)
	}
	if n := len(m.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
