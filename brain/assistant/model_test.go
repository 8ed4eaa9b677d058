package assistant

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

func setConfig(t *testing.T, a *App, fn func(c *workspace.Config)) {
	t.Helper()
	if _, err := a.UpdateConfig(func(c *workspace.Config) error { fn(c); return nil }); err != nil {
		t.Fatal(err)
	}
}

// note is a long user message, about 700 tokens.
func note(i int) string {
	return fmt.Sprintf("Note %d for the project log: ", i) +
		strings.Repeat(fmt.Sprintf("the launch of release %d moves a week later so the design team can finish the onboarding screens; ", i), 25)
}

// The case: a long conversation with a local Ollama, the default
// setup. Through Ollama's own API every request carries num_ctx, is fitted
// to the model's window by the agent, and the model sees the whole system
// prompt and every tool schema in every request. Through its
// OpenAI-compatible endpoint (what Wrasse used), the server's 4,096-token
// context cuts the instructions and tools from the start.
func TestLongConversationThroughOllamaKeepsInstructionsAndTools(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "llama3.1:8b", ContextLength: 16384}))
	a := openTest(t)
	if got := a.Model(); got.Provider != "ollama" || got.BaseURL != "http://localhost:11434" {
		t.Fatalf("default provider %q at %s", got.Provider, got.BaseURL)
	}
	setConfig(t, a, func(c *workspace.Config) { c.Provider, c.BaseURL, c.Model = "ollama", o.URL(), "llama3.1:8b" })
	var id store.ID
	for i := range 14 {
		o.Reply(providertest.Text("Noted."))
		o.Reply(providertest.Text("Noted."))
		msg := note(i)
		if i%5 == 2 {
			msg = strings.Repeat(msg, 3) // a long paste now and then
		}
		var err error
		if id, err = a.Turn(t.Context(), id, msg, TurnOptions{}); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	reqs := o.Requests()
	fitted := false
	for i, r := range reqs {
		if r.Endpoint != "/api/chat" || r.NumCtx > 16384 || r.NumCtx < 8192 {
			t.Errorf("request %d: %s with num_ctx %d", i, r.Endpoint, r.NumCtx)
		}
		if r.Seen.Cut() || !r.Seen.SawSystem(r.System) {
			t.Fatalf("request %d: the model did not see the whole request (dropped %d messages, cut %d tokens)", i, r.Seen.DroppedMessages, r.Seen.CutTokens)
		}
		for _, name := range r.ToolNames() {
			if !r.Seen.SawTool(name) {
				t.Fatalf("request %d: the model did not see tool %s", i, name)
			}
		}
		if len(r.Tools) < 5 || !strings.Contains(r.System, "You are Wrasse") {
			t.Fatalf("request %d: %d tools, system %.40q", i, len(r.Tools), r.System)
		}
		fitted = fitted || len(r.Messages) < 2*(i/2)+1
	}
	if !fitted {
		t.Error("the agent never fitted the history: the test's conversation is too short to prove anything")
	}
	if w, ok := a.KnownContextWindow(""); !ok || w.Tokens != 16384 || w.Source != provider.WindowServer || a.Model().ContextWindow != 16384 {
		t.Errorf("window %+v %v, Model().ContextWindow %d", w, ok, a.Model().ContextWindow)
	}
	if n := o.ShowRequests(); n != 1 {
		t.Errorf("/api/show asked %d times over %d requests, want once", n, len(reqs))
	}

	// The same conversation as Wrasse sent it before: provider openai on
	// Ollama's /v1 endpoint, fitted to the 32,768 tokens it assumed.
	old := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "llama3.1:8b", ContextLength: 16384}))
	b := openTest(t)
	setConfig(t, b, func(c *workspace.Config) {
		c.Provider, c.BaseURL, c.Model, c.ContextWindow = "openai", old.V1(), "llama3.1:8b", workspace.DefaultContextWindow
	})
	id = 0
	lostHistory, lostSystem := false, false
	for i := range 3 {
		old.Reply(providertest.Text("Noted."))
		msg := note(i)
		if i == 2 {
			msg = strings.Repeat(msg, 3) // one long paste
		}
		var err error
		if id, err = b.Turn(t.Context(), id, msg, TurnOptions{}); err != nil {
			t.Fatalf("old path, turn %d: %v", i, err)
		}
		r := old.Requests()[len(old.Requests())-1]
		lostHistory = lostHistory || r.Seen.DroppedMessages > 0
		lostSystem = lostSystem || !r.Seen.SawSystem(r.System) || !r.Seen.SawTool(r.Tools[0].Name)
	}
	if !lostHistory || !lostSystem {
		t.Errorf("Ollama's /v1 lost history %v, instructions and tools %v: the fake no longer cuts as the real server does", lostHistory, lostSystem)
	}
}

// Every failure kind has its own hint, for both provider kinds: a refused
// connection points at starting the server or the base URL, a server
// error at trying again, a web page at the base URL; only a refused key
// at the key. The message's sentences stay apart.
func TestModelFailureHints(t *testing.T) {
	type want struct {
		action  string
		command string
	}
	ollamaModel := func(parts ...providertest.Part) string {
		o := providertest.NewOllama(t)
		o.Reply(parts...)
		return o.URL()
	}
	openaiModel := func(parts ...providertest.Part) string {
		m := providertest.NewModel(t, providertest.OpenAI)
		m.Reply(parts...)
		return m.BaseURL()
	}
	anthropicModel := func(parts ...providertest.Part) string {
		m := providertest.NewModel(t, providertest.Anthropic)
		m.Reply(parts...)
		return m.BaseURL()
	}
	page := "<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head></html>"
	tests := []struct {
		name     string
		provider string
		base     func() string
		want     want
	}{
		{"ollama refused", "ollama", func() string { return providertest.ClosedURL(t) }, want{"Start the model server on this computer", "wrasse config set baseURL URL"}},
		{"openai refused", "openai", func() string { return providertest.ClosedURL(t) + "/v1" }, want{"Start the model server on this computer", "wrasse config set baseURL URL"}},
		{"ollama 500", "ollama", func() string { return ollamaModel(providertest.Status(500, "llama runner process has terminated")) }, want{"Try again in a moment", ""}},
		{"ollama 503", "ollama", func() string { return ollamaModel(providertest.Status(503, "server busy")) }, want{"Wait a moment and try again", ""}},
		{"openai 500", "openai", func() string { return openaiModel(providertest.Status(500, "")) }, want{"Try again in a moment", ""}},
		{"ollama web page", "ollama", func() string { return ollamaModel(providertest.Status(404, page)) }, want{"points at a web page", "wrasse config set baseURL URL"}},
		{"openai web page", "openai", func() string { return openaiModel(providertest.Status(404, page)) }, want{"points at a web page", "wrasse config set baseURL URL"}},
		{"openai key", "openai", func() string { return openaiModel(providertest.Status(401, "")) }, want{"Save a valid API key", "wrasse secrets set openai_api_key"}},
		{"openai 200 web page", "openai", func() string { return htmlServer(t, 200, page) + "/v1" }, want{"points at a web page", "wrasse config set baseURL URL"}},
		{"openai reset", "openai", func() string { return openaiModel(providertest.Cut()) }, want{"Try again", ""}},
		{"anthropic refused", "anthropic", func() string { return providertest.ClosedURL(t) }, want{"Start the model server on this computer", "wrasse config set baseURL URL"}},
		{"anthropic 500", "anthropic", func() string { return anthropicModel(providertest.Status(500, "")) }, want{"Try again in a moment", ""}},
		{"anthropic 529", "anthropic", func() string { return anthropicModel(providertest.Status(529, "")) }, want{"Wait a moment and try again", ""}},
		{"anthropic reset", "anthropic", func() string { return anthropicModel(providertest.Cut()) }, want{"Try again", ""}},
		{"anthropic web page", "anthropic", func() string { return anthropicModel(providertest.Status(404, page)) }, want{"points at a web page", "wrasse config set baseURL URL"}},
		{"anthropic 200 web page", "anthropic", func() string { return htmlServer(t, 200, page) }, want{"points at a web page", "wrasse config set baseURL URL"}},
		{"anthropic key", "anthropic", func() string { return anthropicModel(providertest.Status(401, "")) }, want{"Save a valid API key", "wrasse secrets set anthropic_api_key"}},
		{"ollama missing model", "ollama", func() string {
			return providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "qwen3:8b"})).URL()
		},
			want{"Download llama3.1", "wrasse models pull llama3.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := openTest(t)
			base := tt.base()
			model := ""
			if tt.provider == "ollama" && !strings.Contains(tt.name, "missing") {
				model = "llama3.1:8b"
			}
			setConfig(t, a, func(c *workspace.Config) { c.Provider, c.BaseURL, c.Model = tt.provider, base, model })
			if tt.provider == "anthropic" {
				// Bound to the fake's host, as a key set with it configured is.
				if err := a.SetAPIKey("anthropic", "sk-ant-0123456789"); err != nil {
					t.Fatal(err)
				}
			}
			_, err := a.Turn(t.Context(), 0, "hi", TurnOptions{})
			h, ok := hint.Of(err)
			if !ok || !strings.Contains(h.Action, tt.want.action) || h.CommandLine() != tt.want.command {
				t.Errorf("hint %+v (%v), want %q with %q", h, err, tt.want.action, tt.want.command)
			}
			if !strings.HasPrefix(tt.want.command, "wrasse secrets set") && slices.Contains(h.Command, "secrets") {
				t.Errorf("points at the key: %+v", h)
			}
		})
	}
	// A malformed base URL never gets as far as a request: setting it
	// says what a base URL looks like.
	a := openTest(t)
	if _, err := a.SetConfig("baseURL", "http//localhost:8080/v1"); err == nil || !strings.Contains(err.Error(), "must be an http or https URL such as") {
		t.Errorf("a malformed base URL: %v", err)
	}
}

// htmlServer answers every request with a web page and status.
func htmlServer(t *testing.T, status int, page string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A reply that broke off after some text says what is kept in sentences
// of their own (issue 24: "try again What it had written so far is kept").
func TestBrokenReplyMessageReads(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("Hello."))
	m.Reply(providertest.Text("Half an answer"), providertest.Cut())
	a := openTest(t)
	useModel(t, a, m, "m")
	id, err := a.Turn(t.Context(), 0, "hi", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Turn(t.Context(), id, "go on", TurnOptions{}); err == nil {
		t.Fatal("the broken reply succeeded")
	}
	evs, _ := a.db.Events(id)
	last := evs[len(evs)-1]
	if last.Type != store.EventError || !strings.Contains(last.Text, "try again. What it had written so far") {
		t.Errorf("error event %q", last.Text)
	}
}

// provider openai on an Ollama address is offered provider ollama.
func TestModelNotices(t *testing.T) {
	a := openTest(t)
	if n := a.ModelNotices(); len(n) != 0 {
		t.Errorf("the default setup has notices: %+v", n)
	}
	setConfig(t, a, func(c *workspace.Config) { c.Provider = "openai" })
	n := a.ModelNotices()
	if len(n) != 1 || !strings.Contains(n[0].Message, "4,096 tokens") || n[0].Hint.CommandLine() != "wrasse config set provider ollama" {
		t.Fatalf("notices %+v", n)
	}
	// Taking the advice keeps the model and base URL working: the ollama
	// provider drops the /v1 of the old base URL.
	o := providertest.NewOllama(t)
	setConfig(t, a, func(c *workspace.Config) { c.Provider, c.BaseURL, c.Model = "ollama", o.V1(), "llama3.1:8b" })
	o.Reply(providertest.Text("hello"))
	if _, err := a.Turn(t.Context(), 0, "hi", TurnOptions{}); err != nil || o.Requests()[0].Endpoint != "/api/chat" {
		t.Errorf("after switching: %v", err)
	}
}

// The Model page, the chat header's picker and `wrasse models` list the
// server's models with their abilities; models download into Ollama.
func TestModelsAndPull(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960}),
		providertest.WithPullable(providertest.OllamaModel{Name: "llama3.1:8b"}, 4_900_000_000))
	a := openTest(t)
	setConfig(t, a, func(c *workspace.Config) { c.Provider, c.BaseURL = "ollama", o.URL() })
	models, err := a.Models(t.Context(), workspace.Config{})
	if err != nil || len(models) != 1 || !models[0].Can(provider.AbilityThinking) || models[0].ContextWindow != 40960 {
		t.Fatalf("models %+v %v", models, err)
	}
	var last ollama.Progress
	if err := a.PullModel(t.Context(), "llama3.1:8b", func(p ollama.Progress) { last = p }); err != nil || last.Status != "success" {
		t.Fatalf("pull: %v, last %+v", err, last)
	}
	if err := a.PullModel(t.Context(), "nope", nil); provider.KindOf(err) != provider.ErrNotFound {
		t.Errorf("unknown model: %v", err)
	}
	m := providertest.NewModel(t, providertest.Anthropic)
	setConfig(t, a, func(c *workspace.Config) { c.Provider, c.BaseURL = "anthropic", m.BaseURL() })
	if err := a.SetAPIKey("anthropic", "sk-ant-test-123456"); err != nil {
		t.Fatal(err)
	}
	if err := a.PullModel(t.Context(), "llama3.1:8b", nil); !errors.Is(err, ErrNotOllama) {
		t.Errorf("pull from anthropic: %v", err)
	}
}

// The first run finds Ollama and LM Studio where they listen and suggests
// a model that calls tools.
func TestFindServers(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(
		providertest.OllamaModel{Name: "nomic-embed-text", Capabilities: []string{"embedding"}},
		providertest.OllamaModel{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}}))
	lms := providertest.NewModel(t, providertest.OpenAI, providertest.WithServer(providertest.LMStudio),
		providertest.WithModels(provider.ModelInfo{ID: "google/gemma-3-12b", ContextWindow: 131072, Abilities: []provider.Ability{provider.AbilityVision}}))
	got := FindServers(t.Context(), o.URL(), lms.BaseURL())
	if len(got) != 2 || got[0].Name != "Ollama" || got[0].Suggested != "qwen3:8b" || got[0].Version != "0.17.4" ||
		got[1].Name != "LM Studio" || got[1].Provider != "openai" || len(got[1].Models) != 1 {
		t.Errorf("found %+v", got)
	}
	if got := FindServers(t.Context(), providertest.ClosedURL(t), ""); len(got) != 0 {
		t.Errorf("found %+v where nothing runs", got)
	}
}
