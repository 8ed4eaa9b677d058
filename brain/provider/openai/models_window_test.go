package openai_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

var t0 = time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)

func onModel(t *testing.T, base, model string, mod func(*openai.Config)) *openai.Provider {
	t.Helper()
	cfg := openai.Config{BaseURL: base, Model: model}
	if mod != nil {
		mod(&cfg)
	}
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Reasoning streams as thinking, apart from the answer, whichever field
// the server uses (DeepSeek, vLLM, llama.cpp and LM Studio send
// reasoning_content; OpenRouter and Ollama's /v1 send reasoning), and is
// never answer text.
func TestReasoningFields(t *testing.T) {
	for _, field := range []string{providertest.ReasoningContent, providertest.Reasoning} {
		t.Run(field, func(t *testing.T) {
			m := providertest.NewModel(t, providertest.OpenAI, providertest.WithReasoningField(field))
			m.Reply(providertest.Thinking("The user asks ", "for 6*7."), providertest.Text("42"))
			p := onModel(t, m.BaseURL(), "deepseek-reasoner", nil)
			var rec recorder
			resp, err := p.Stream(t.Context(), userRequest(), rec.on)
			if err != nil {
				t.Fatal(err)
			}
			var thinking strings.Builder
			for _, ev := range rec.events {
				if ev.Type == provider.EventThinking {
					thinking.WriteString(ev.Text)
				}
			}
			if thinking.String() != "The user asks for 6*7." || resp.Text != "42" || rec.text() != "42" {
				t.Errorf("thinking %q, text %q", thinking.String(), resp.Text)
			}
			if len(resp.Thinking) != 1 || resp.Thinking[0].Text != "The user asks for 6*7." || resp.Thinking[0].Signature != "" {
				t.Errorf("response thinking %+v", resp.Thinking)
			}
			if !hasStatus(rec.statuses, provider.PhaseThinking) {
				t.Errorf("no thinking status: %+v", rec.statuses)
			}
		})
	}
}

func hasStatus(sts []provider.Status, ph provider.Phase) bool {
	for _, s := range sts {
		if s.Phase == ph {
			return true
		}
	}
	return false
}

// The thinking setting's levels go as reasoning_effort; on, off and auto
// leave the server to decide.
func TestReasoningEffort(t *testing.T) {
	for mode, want := range map[provider.ThinkingMode]string{provider.ThinkHigh: "high", provider.ThinkLow: "low", provider.ThinkOn: "", provider.ThinkAuto: ""} {
		m := providertest.NewModel(t, providertest.OpenAI)
		m.Reply(providertest.Text("ok"))
		p := onModel(t, m.BaseURL(), "o4-mini", func(c *openai.Config) {
			c.Thinking = func(string) provider.ThinkingMode { return mode }
		})
		if _, err := p.Stream(t.Context(), userRequest(), nil); err != nil {
			t.Fatal(err)
		}
		if got := m.Requests()[0].ReasoningEffort; got != want {
			t.Errorf("%q: reasoning_effort %q, want %q", mode, got, want)
		}
	}
}

// Each OpenAI-compatible server says a model's window its own way; it is
// asked once per model.
func TestContextWindowDiscovery(t *testing.T) {
	gemma := provider.ModelInfo{ID: "gemma-3-12b", ContextWindow: 131072, Abilities: []provider.Ability{provider.AbilityTools, provider.AbilityVision}}
	loaded := gemma
	loaded.Details = "loaded"
	tests := []struct {
		name  string
		kind  providertest.ServerKind
		model provider.ModelInfo
		want  provider.Window
	}{
		{"vLLM", providertest.VLLM, provider.ModelInfo{ID: "Qwen/Qwen3-8B", ContextWindow: 40960},
			provider.Window{Tokens: 40960, Source: provider.WindowServer, From: "vLLM /models max_model_len"}},
		{"OpenRouter", providertest.OpenRouter, provider.ModelInfo{ID: "meta-llama/llama-3.3-70b-instruct", ContextWindow: 131072},
			provider.Window{Tokens: 131072, Source: provider.WindowServer, From: "/models context_length"}},
		{"llama.cpp", providertest.LlamaCpp, provider.ModelInfo{ID: "qwen2.5-7b-instruct", ContextWindow: 16384},
			provider.Window{Tokens: 16384, Source: provider.WindowServer, From: "llama.cpp /props n_ctx"}},
		{"LM Studio, not loaded", providertest.LMStudio, gemma,
			provider.Window{Tokens: 131072, Source: provider.WindowServer, From: "LM Studio /api/v0/models max_context_length"}},
		{"LM Studio, loaded with less", providertest.LMStudio, loaded,
			provider.Window{Tokens: 65536, Source: provider.WindowServer, From: "LM Studio loaded_context_length"}},
		{"a gateway serving a known model", "", provider.ModelInfo{ID: "openai/gpt-4o"},
			provider.Window{Tokens: 128000, Source: provider.WindowKnown, From: "published figure for openai/gpt-4o"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := providertest.NewModel(t, providertest.OpenAI, providertest.WithServer(tt.kind), providertest.WithModels(tt.model))
			p := onModel(t, m.BaseURL(), tt.model.ID, nil)
			for range 3 {
				w, err := p.ContextWindow(t.Context(), tt.model.ID)
				if err != nil || w != tt.want {
					t.Fatalf("window %+v, %v; want %+v", w, err, tt.want)
				}
			}
			if p.WindowDiscoveries() != 1 {
				t.Errorf("%d discoveries, want 1", p.WindowDiscoveries())
			}
		})
	}
	m := providertest.NewModel(t, providertest.OpenAI)
	if _, err := onModel(t, m.BaseURL(), "mystery", nil).ContextWindow(t.Context(), "mystery"); err != provider.ErrNoWindow {
		t.Errorf("a server that says nothing: %v, want ErrNoWindow", err)
	}
}

// Through Ollama's OpenAI-compatible endpoint the window is the server's
// default context, whatever the model could take: that endpoint ignores
// num_ctx.
func TestOllamaV1Window(t *testing.T) {
	o := providertest.NewOllama(t)
	w, err := onModel(t, o.V1(), "llama3.1:8b", nil).ContextWindow(t.Context(), "llama3.1:8b")
	if err != nil || w.Tokens != providertest.OllamaDefaultContext || !strings.Contains(w.From, "ignores num_ctx") {
		t.Errorf("window %+v, %v", w, err)
	}
}

// A hosted API's known models cost no request.
func TestKnownHostedWindow(t *testing.T) {
	p := onModel(t, "https://api.openai.com/v1", "gpt-4o-mini", func(c *openai.Config) {
		c.HTTPClient = &http.Client{Transport: failingTransport{t}}
	})
	if w, err := p.ContextWindow(t.Context(), "gpt-4o-mini"); err != nil || w.Tokens != 128000 || w.Source != provider.WindowKnown {
		t.Errorf("window %+v, %v", w, err)
	}
}

type failingTransport struct{ t *testing.T }

func (f failingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.t.Errorf("unexpected request %s", r.URL)
	return nil, context.Canceled
}

// A stream that sent its finish_reason is complete even when [DONE] never
// comes and the connection stays open.
func TestFinishWithoutDone(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("Paris."), providertest.Linger())
	clock := providertest.NewClock(t0)
	p := onModel(t, m.BaseURL(), "gpt-4.1", func(c *openai.Config) { c.Clock = clock })
	done := make(chan struct{})
	var resp *provider.Response
	var err error
	go func() {
		defer close(done)
		resp, err = p.Stream(context.Background(), userRequest(), nil)
	}()
	<-m.Waiting()
	clock.AwaitTimer(provider.DefaultAfterFinish)
	clock.Advance(provider.DefaultAfterFinish)
	<-done
	// The usage chunk follows the finish_reason one, and the fake clock
	// can end the wait before the stream has decoded it (at real speed it
	// comes within microseconds of a 5 s allowance): the answer and its
	// stop reason are what must be kept.
	if err != nil || resp.Text != "Paris." || resp.StopReason != provider.StopEnd {
		t.Errorf("%+v %v", resp, err)
	}
}

// A stream that stops sending after some text, or a server that never
// starts, ends with a note after the idle timeout, not never.
func TestStallAndNoStart(t *testing.T) {
	tests := []struct {
		name   string
		parts  []providertest.Part
		detail provider.ErrorDetail
		msg    string
	}{
		{"stalled", []providertest.Part{providertest.Text("Par"), providertest.Hold()}, provider.DetailStalled,
			"the model stopped sending for 60 s; try again."},
		{"no headers", []providertest.Part{providertest.Hold()}, provider.DetailNoStart,
			"gpt-4.1 did not start answering within 60 s; try again (a slow server may need a longer streamIdleTimeout)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := providertest.NewModel(t, providertest.OpenAI)
			m.Reply(tt.parts...)
			clock := providertest.NewClock(t0)
			// A remote server: the wait for a start is the idle timeout.
			p := onModel(t, m.BaseURL(), "gpt-4.1", func(c *openai.Config) {
				c.Clock = clock
				c.HTTPClient = providertest.RemoteLooking(m.URL())
				c.BaseURL = "http://llm.example:8000/v1"
			})
			text := make(chan struct{}, 1)
			done := make(chan struct{})
			var resp *provider.Response
			var err error
			go func() {
				defer close(done)
				resp, err = p.Stream(context.Background(), userRequest(), func(ev provider.Event) error {
					if ev.Type == provider.EventText {
						text <- struct{}{}
					}
					return nil
				})
			}()
			<-m.Waiting()
			if tt.detail == provider.DetailStalled {
				<-text
			}
			clock.Advance(provider.DefaultIdleTimeout)
			<-done
			pe := asError(t, err)
			if pe.Kind != provider.ErrTimeout || pe.Detail != tt.detail || pe.Message != tt.msg {
				t.Errorf("got %q %q %q", pe.Kind, pe.Detail, pe.Message)
			}
			if tt.detail == provider.DetailStalled && resp.Text != "Par" {
				t.Errorf("kept %q", resp.Text)
			}
		})
	}
}

// A web page answering with 200 says the base URL is wrong, instead of
// "the stream ended before a finish_reason" as if something had arrived.
func TestWebPageAtBaseURL(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><html><body>Welcome to nginx!</body></html>"))
	}))
	t.Cleanup(page.Close)
	_, err := onModel(t, page.URL, "gpt-4.1", nil).Stream(t.Context(), userRequest(), nil)
	pe := asError(t, err)
	if pe.Detail != provider.DetailNotAPI || !strings.Contains(pe.Message, "answered with a web page") || strings.Contains(pe.Message, "what arrived is kept") {
		t.Errorf("got %+v", pe)
	}
}

// finish_reason length is a length stop.
func TestLengthStop(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("Par"), providertest.MaxTokens())
	resp, err := onModel(t, m.BaseURL(), "gpt-4.1", nil).Stream(t.Context(), userRequest(), nil)
	if err != nil || resp.StopReason != provider.StopMaxTokens {
		t.Errorf("%+v %v", resp, err)
	}
}

// The model list says what each model can do and its window where the
// server says so.
func TestListModelsAbilities(t *testing.T) {
	tools := []provider.Ability{provider.AbilityTools, provider.AbilityVision, provider.AbilityThinking}
	for _, kind := range []providertest.ServerKind{providertest.OpenRouter, providertest.LMStudio} {
		m := providertest.NewModel(t, providertest.OpenAI, providertest.WithServer(kind),
			providertest.WithModels(provider.ModelInfo{ID: "a", ContextWindow: 131072, Abilities: tools}, provider.ModelInfo{ID: "b", ContextWindow: 8192}))
		got, err := onModel(t, m.BaseURL(), "a", nil).ListModels(t.Context())
		if err != nil || len(got) != 2 {
			t.Fatalf("%s: %+v %v", kind, got, err)
		}
		if !got[0].Can(provider.AbilityTools) || !got[0].Can(provider.AbilityVision) || got[0].ContextWindow != 131072 || got[1].Abilities == nil || got[1].Can(provider.AbilityTools) {
			t.Errorf("%s: %+v", kind, got)
		}
	}
	m := providertest.NewModel(t, providertest.OpenAI)
	got, err := onModel(t, m.BaseURL(), "a", nil).ListModels(t.Context())
	if err != nil || got[0].Abilities != nil || got[0].ContextWindow != 0 {
		t.Errorf("a plain server: %+v %v", got, err)
	}
}
