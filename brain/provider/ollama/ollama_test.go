package ollama_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

var t0 = time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)

func newProvider(t *testing.T, base string, mod ...func(*ollama.Config)) *ollama.Provider {
	t.Helper()
	cfg := ollama.Config{BaseURL: base, Model: "llama3.1:8b"}
	for _, m := range mod {
		m(&cfg)
	}
	p, err := ollama.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

// recorder collects events, statuses apart.
type recorder struct {
	events   []provider.Event
	statuses []provider.Status
	notices  []string
}

func (r *recorder) on(ev provider.Event) error {
	switch ev.Type {
	case provider.EventStatus:
		r.statuses = append(r.statuses, *ev.Status)
	case provider.EventNotice:
		r.notices = append(r.notices, ev.Text)
	default:
		r.events = append(r.events, ev)
	}
	return nil
}

func (r *recorder) of(typ provider.EventType) string {
	var b strings.Builder
	for _, ev := range r.events {
		if ev.Type == typ {
			b.WriteString(ev.Text)
		}
	}
	return b.String()
}

func calc() provider.Tool {
	return provider.Tool{Name: "calc_eval", Description: "Evaluate an arithmetic expression.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"expression":{"type":"string","description":"e.g. 6*7"}},"required":["expression"]}`)}
}

func request(msgs ...provider.Message) provider.Request {
	if len(msgs) == 0 {
		msgs = []provider.Message{{Role: provider.RoleUser, Content: "what is 6*7?"}}
	}
	return provider.Request{System: "You are Wrasse.", Messages: msgs, Tools: []provider.Tool{calc()}}
}

func asError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	return pe
}

// A turn over the native API: text streams, the request carries num_ctx
// sized to it, keep_alive, truncate:false and the tools as schemas.
func TestStreamText(t *testing.T) {
	o := providertest.NewOllama(t)
	o.Reply(providertest.Text("The answer ", "is 42."), providertest.Usage(120, 9))
	p := newProvider(t, o.URL())
	var rec recorder
	resp, err := p.Stream(t.Context(), request(), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "The answer is 42." || resp.StopReason != provider.StopEnd || resp.Usage != (provider.Usage{InputTokens: 120, OutputTokens: 9}) {
		t.Errorf("response %+v", resp)
	}
	if rec.of(provider.EventText) != resp.Text {
		t.Errorf("streamed %q", rec.of(provider.EventText))
	}
	if len(rec.statuses) == 0 || rec.statuses[0].Phase != provider.PhaseConnecting || rec.statuses[0].Message != "connecting to Ollama…" {
		t.Errorf("statuses %+v, want connecting to Ollama first", rec.statuses)
	}
	req := o.Requests()[0]
	if req.Endpoint != "/api/chat" || req.NumCtx != 8192 || req.KeepAlive != "30m0s" || req.Truncate == nil || *req.Truncate {
		t.Errorf("request: endpoint %s num_ctx %d keep_alive %q truncate %v", req.Endpoint, req.NumCtx, req.KeepAlive, req.Truncate)
	}
	if req.System != "You are Wrasse." || !reflect.DeepEqual(req.ToolNames(), []string{"calc_eval"}) || req.Think != nil {
		t.Errorf("system %q tools %v think %v", req.System, req.ToolNames(), req.Think)
	}
	var schema map[string]any
	if err := json.Unmarshal(req.Tools[0].Parameters, &schema); err != nil || schema["required"] == nil {
		t.Errorf("schema %s", req.Tools[0].Parameters)
	}
	if req.Seen.Cut() || !req.Seen.SawSystem("You are Wrasse.") || !req.Seen.SawTool("calc_eval") {
		t.Errorf("the model did not see the whole request: %+v", req.Seen)
	}
}

// Tool calls arrive whole with object arguments; past calls go back as
// objects, results as tool messages naming their tool.
func TestStreamToolCalls(t *testing.T) {
	o := providertest.NewOllama(t)
	o.Reply(providertest.ToolCall("calc_eval", `{"expression":"6*7"}`), providertest.ToolCall("calc_eval", `{"expression":"1+1"}`).WithID(""))
	o.Reply(providertest.Text("42"))
	p := newProvider(t, o.URL())
	var rec recorder
	resp, err := p.Stream(t.Context(), request(), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.ToolCall{{ID: "call_1", Name: "calc_eval", Arguments: json.RawMessage(`{"expression":"6*7"}`)},
		{ID: "call_2", Name: "calc_eval", Arguments: json.RawMessage(`{"expression":"1+1"}`)}}
	if resp.StopReason != provider.StopToolUse || !reflect.DeepEqual(resp.ToolCalls, want) {
		t.Fatalf("calls %+v stop %q", resp.ToolCalls, resp.StopReason)
	}
	history := []provider.Message{{Role: provider.RoleUser, Content: "what is 6*7?"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{want[0], {ID: "bad", Name: "calc_eval", Arguments: json.RawMessage(`{"expr`)}}},
		{Role: provider.RoleTool, ToolCallID: "call_1", ToolName: "calc_eval", Content: "42"},
		{Role: provider.RoleTool, ToolCallID: "bad", ToolName: "calc_eval", Content: "arguments are not JSON", IsError: true}}
	if _, err := p.Stream(t.Context(), request(history...), nil); err != nil {
		t.Fatal(err)
	}
	sent := o.Requests()[1].Messages
	if got := sent[1].ToolCalls; len(got) != 2 || got[0].Arguments != `{"expression":"6*7"}` || got[1].Arguments != `{}` {
		t.Errorf("past calls sent as %+v", got)
	}
	if sent[2].Role != "tool" || sent[2].Content != "42" || sent[3].Content != "Error: arguments are not JSON" {
		t.Errorf("results sent as %+v", sent[2:])
	}
}

// Reasoning arrives apart from the answer; the per-model setting turns it
// on or off where the model thinks, and a model that does not is never
// sent think (Ollama would refuse the request).
func TestThinking(t *testing.T) {
	qwen := providertest.OllamaModel{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, Family: "qwen3"}
	oss := providertest.OllamaModel{Name: "gpt-oss:20b", Capabilities: []string{"completion", "tools", "thinking"}, Family: "gptoss"}
	plain := providertest.OllamaModel{Name: "llama3.1:8b"}
	tests := []struct {
		name     string
		model    string
		mode     provider.ThinkingMode
		think    any
		thinking string
	}{
		{"auto asks a thinking model to think apart", "qwen3:8b", provider.ThinkAuto, true, "Six sevens."},
		{"off", "qwen3:8b", provider.ThinkOff, false, ""},
		{"high on a model without levels", "qwen3:8b", provider.ThinkHigh, true, "Six sevens."},
		{"gpt-oss takes levels", "gpt-oss:20b", provider.ThinkHigh, "high", "Six sevens."},
		{"gpt-oss cannot stop", "gpt-oss:20b", provider.ThinkOff, "low", "Six sevens."},
		{"a model that does not think", "llama3.1:8b", provider.ThinkOn, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := providertest.NewOllama(t, providertest.WithOllamaModels(qwen, oss, plain))
			o.Reply(providertest.Thinking("Six ", "sevens."), providertest.Text("42"))
			p := newProvider(t, o.URL(), func(c *ollama.Config) {
				c.Model = tt.model
				c.Thinking = func(string) provider.ThinkingMode { return tt.mode }
			})
			var rec recorder
			resp, err := p.Stream(t.Context(), request(), rec.on)
			if err != nil {
				t.Fatal(err)
			}
			if got := o.Requests()[0].Think; got != tt.think {
				t.Errorf("think sent %v, want %v", got, tt.think)
			}
			if rec.of(provider.EventThinking) != tt.thinking || resp.Text != "42" {
				t.Errorf("thinking %q text %q, want %q and 42", rec.of(provider.EventThinking), resp.Text, tt.thinking)
			}
			if tt.thinking != "" {
				if len(resp.Thinking) != 1 || resp.Thinking[0].Text != tt.thinking {
					t.Errorf("response thinking %+v", resp.Thinking)
				}
				if !hasPhase(rec.statuses, provider.PhaseThinking) {
					t.Errorf("no thinking status in %+v", rec.statuses)
				}
			}
		})
	}
}

func hasPhase(sts []provider.Status, ph provider.Phase) bool {
	for _, s := range sts {
		if s.Phase == ph {
			return true
		}
	}
	return false
}

// A model Ollama lists without tools answers without tool schemas (it
// would refuse them), and the person is told why.
func TestModelWithoutTools(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "llama2:7b", Capabilities: []string{"completion"}}))
	o.Reply(providertest.Text("Hi."))
	p := newProvider(t, o.URL(), func(c *ollama.Config) { c.Model = "llama2:7b" })
	var rec recorder
	if _, err := p.Stream(t.Context(), request(), rec.on); err != nil {
		t.Fatal(err)
	}
	if n := len(o.Requests()[0].Tools); n != 0 {
		t.Errorf("%d tools sent to a model without tools", n)
	}
	if len(rec.notices) != 1 || !strings.Contains(rec.notices[0], "llama2:7b cannot call tools") {
		t.Errorf("notices %q", rec.notices)
	}
}

// An embedding model cannot chat: said at once, no chat request sent.
func TestEmbeddingModel(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "nomic-embed-text", Capabilities: []string{"embedding"}}))
	p := newProvider(t, o.URL(), func(c *ollama.Config) { c.Model = "nomic-embed-text" })
	_, err := p.Stream(t.Context(), request(), nil)
	if pe := asError(t, err); pe.Kind != provider.ErrBadRequest || !strings.Contains(pe.Message, "embedding model") || len(o.Requests()) != 0 {
		t.Errorf("got %v after %d requests", err, len(o.Requests()))
	}
}

// A reply cut at the length limit says so: done_reason length.
func TestLengthStop(t *testing.T) {
	o := providertest.NewOllama(t)
	o.Reply(providertest.Text("The first part"), providertest.MaxTokens())
	p := newProvider(t, o.URL())
	resp, err := p.Stream(t.Context(), provider.Request{Messages: request().Messages, MaxTokens: 64}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != provider.StopMaxTokens {
		t.Errorf("stop %q, want %q", resp.StopReason, provider.StopMaxTokens)
	}
	if got := o.Requests()[0].MaxTokens; got != 64 {
		t.Errorf("num_predict %d", got)
	}
}

// num_ctx follows the request up in doubling steps, never above the
// model's maximum or the configured window, and never back down: the
// model is loaded once for a conversation that stays within a step.
func TestNumCtx(t *testing.T) {
	small := providertest.OllamaModel{Name: "phi3:mini", ContextLength: 12000}
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "llama3.1:8b"}, small))
	p := newProvider(t, o.URL())
	long := strings.Repeat("word ", 12000) // 60,000 bytes: 20,000 tokens at 3 bytes each
	steps := []struct {
		model string
		text  string
		want  int
	}{
		{"llama3.1:8b", "short", 8192},
		{"llama3.1:8b", "short again", 8192},
		{"llama3.1:8b", long, 32768},
		{"llama3.1:8b", "short", 32768}, // not back down: that would reload the model
		{"phi3:mini", long, 12000},      // the model's own maximum
	}
	for i, s := range steps {
		o.Reply(providertest.Text("ok"))
		if _, err := p.Stream(t.Context(), provider.Request{Model: s.model, Messages: []provider.Message{{Role: provider.RoleUser, Content: s.text}}}, nil); err != nil && s.model != "phi3:mini" {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := o.Requests()[i].NumCtx; got != s.want {
			t.Errorf("step %d: num_ctx %d, want %d", i, got, s.want)
		}
	}
	if got := o.Loads(); got != 3 {
		t.Errorf("loads %d, want 3 (8192, 32768 for llama3.1, 12000 for phi3)", got)
	}
	capped := newProvider(t, o.URL(), func(c *ollama.Config) { c.ContextWindow = 16384 })
	o.Reply(providertest.Text("ok"))
	_, _ = capped.Stream(t.Context(), provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: long}}}, nil)
	if got := o.Requests()[len(o.Requests())-1].NumCtx; got != 16384 {
		t.Errorf("num_ctx %d with contextWindow 16384", got)
	}
}

// A prompt longer than the model's context is refused by Ollama (truncate
// is false), never cut: the failure is a context-length one the agent
// answers by fitting tighter.
func TestTooLongRefused(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "tiny", ContextLength: 2048}))
	p := newProvider(t, o.URL(), func(c *ollama.Config) { c.Model = "tiny" })
	_, err := p.Stream(t.Context(), provider.Request{System: "You are Wrasse.",
		Messages: []provider.Message{{Role: provider.RoleUser, Content: strings.Repeat("x", 20000)}}}, nil)
	if pe := asError(t, err); pe.Kind != provider.ErrContextLength {
		t.Errorf("got %v, want a context-length error", err)
	}
}

// The window is the model's own maximum from /api/show, asked once per
// model; contextWindow in the config overrides it without a request.
func TestContextWindow(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "llama3.1:8b", ContextLength: 131072}))
	p := newProvider(t, o.URL())
	for range 3 {
		w, err := p.ContextWindow(t.Context(), "llama3.1:8b")
		if err != nil || w != (provider.Window{Tokens: 131072, Source: provider.WindowServer, From: "Ollama /api/show"}) {
			t.Fatalf("window %+v, %v", w, err)
		}
	}
	o.Reply(providertest.Text("ok"))
	if _, err := p.Stream(t.Context(), request(), nil); err != nil {
		t.Fatal(err)
	}
	if o.ShowRequests() != 1 || p.ShowRequests() != 1 {
		t.Errorf("/api/show asked %d times, want once", o.ShowRequests())
	}
	over := newProvider(t, o.URL(), func(c *ollama.Config) { c.ContextWindow = 8192 })
	if w, err := over.ContextWindow(t.Context(), ""); err != nil || w.Tokens != 8192 || w.Source != provider.WindowConfig {
		t.Errorf("override: %+v %v", w, err)
	}
	if _, err := p.ContextWindow(t.Context(), "missing"); provider.KindOf(err) != provider.ErrNotFound {
		t.Errorf("missing model: %v", err)
	}
}

// The model list says what each model can do and its window.
func TestListModels(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(
		providertest.OllamaModel{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960},
		providertest.OllamaModel{Name: "llava:7b", Capabilities: []string{"completion", "vision"}, ContextLength: 32768},
		providertest.OllamaModel{Name: "nomic-embed-text:latest", Capabilities: []string{"embedding"}, ContextLength: 2048}))
	got, err := newProvider(t, o.URL()).ListModels(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.ModelInfo{
		{ID: "llava:7b", DisplayName: "llava:7b", Abilities: []provider.Ability{provider.AbilityVision}, ContextWindow: 32768, Size: 4920753328, Details: "8.0B Q4_K_M"},
		{ID: "nomic-embed-text:latest", DisplayName: "nomic-embed-text:latest", Abilities: []provider.Ability{provider.AbilityEmbedding}, ContextWindow: 2048, Size: 4920753328, Details: "8.0B Q4_K_M"},
		{ID: "qwen3:8b", DisplayName: "qwen3:8b", Abilities: []provider.Ability{provider.AbilityTools, provider.AbilityThinking}, ContextWindow: 40960, Size: 4920753328, Details: "8.0B Q4_K_M"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// Pull reports each step; a name the library does not have is ErrNotFound.
func TestPull(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithPullable(providertest.OllamaModel{Name: "qwen3:8b"}, 5_200_000_000))
	p := newProvider(t, o.URL())
	var steps []ollama.Progress
	if err := p.Pull(t.Context(), "qwen3:8b", func(pr ollama.Progress) { steps = append(steps, pr) }); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 7 || steps[0].Status != "pulling manifest" || steps[3].Completed != 5_200_000_000 || steps[6].Status != "success" {
		t.Errorf("steps %+v", steps)
	}
	if _, err := p.ContextWindow(t.Context(), "qwen3:8b"); err != nil {
		t.Errorf("the pulled model is not there: %v", err)
	}
	err := p.Pull(t.Context(), "no-such-model", nil)
	if pe := asError(t, err); pe.Kind != provider.ErrNotFound || !strings.Contains(pe.Message, "no model no-such-model") {
		t.Errorf("unknown model: %v", err)
	}
}

// Nothing listens: the failure is immediate, local and not retried, with
// the advice to start Ollama on the default address.
func TestRefused(t *testing.T) {
	p := newProvider(t, providertest.ClosedURL(t))
	_, err := p.Stream(t.Context(), request(), nil)
	pe := asError(t, err)
	if pe.Kind != provider.ErrUnavailable || pe.Detail != provider.DetailRefused || !pe.Local || pe.Retryable() {
		t.Errorf("got %+v", pe)
	}
}

// An unknown model is ErrNotFound naming it.
func TestModelNotFound(t *testing.T) {
	o := providertest.NewOllama(t)
	_, err := newProvider(t, o.URL(), func(c *ollama.Config) { c.Model = "mistral" }).Stream(t.Context(), request(), nil)
	if pe := asError(t, err); pe.Kind != provider.ErrNotFound || !strings.Contains(pe.Message, `"mistral"`) {
		t.Errorf("got %v", err)
	}
}

// A web page at the base URL is said to be one.
func TestWebPage(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!DOCTYPE html><html><head><title>Router</title></head><body>Login</body></html>"))
	}))
	t.Cleanup(page.Close)
	_, err := newProvider(t, page.URL).Stream(t.Context(), request(), nil)
	pe := asError(t, err)
	if pe.Detail != provider.DetailNotAPI || !strings.Contains(pe.Message, "web page") {
		t.Errorf("got %+v", pe)
	}
}

// stream runs p.Stream in the background, signalling the first text.
func stream(t *testing.T, p *ollama.Provider, req provider.Request) (firstText <-chan struct{}, done <-chan struct{}, rec *recorder, result func() (*provider.Response, error)) {
	t.Helper()
	first, fin := make(chan struct{}), make(chan struct{})
	rec = &recorder{}
	var resp *provider.Response
	var err error
	seen := false
	go func() {
		defer close(fin)
		resp, err = p.Stream(context.Background(), req, func(ev provider.Event) error {
			_ = rec.on(ev)
			if ev.Type == provider.EventText && !seen {
				seen = true
				close(first)
			}
			return nil
		})
	}()
	return first, fin, rec, func() (*provider.Response, error) { return resp, err }
}

// A stream that stops sending ends after the idle timeout with a note
// saying so, keeping what arrived; nothing is retried.
func TestStall(t *testing.T) {
	o := providertest.NewOllama(t)
	o.Reply(providertest.Text("Hel"), providertest.Hold())
	clock := providertest.NewClock(t0)
	p := newProvider(t, o.URL(), func(c *ollama.Config) { c.Clock = clock })
	first, done, rec, result := stream(t, p, request())
	<-first
	clock.Advance(59 * time.Second)
	select {
	case <-done:
		t.Fatal("ended before the idle timeout")
	default:
	}
	clock.Advance(time.Second)
	<-done
	resp, err := result()
	pe := asError(t, err)
	if pe.Kind != provider.ErrTimeout || pe.Detail != provider.DetailStalled || pe.Retryable() ||
		pe.Message != "the model stopped sending for 60 s; try again." {
		t.Errorf("got %+v", pe)
	}
	if resp.Text != "Hel" {
		t.Errorf("kept %q", resp.Text)
	}
	if !hasPhase(rec.statuses, provider.PhaseStalled) {
		t.Errorf("no stalled status: %+v", rec.statuses)
	}
}

// Before its first token Ollama may be loading the model: after a second
// the provider asks /api/ps, says it is loading, and waits the load
// timeout (5 min), not the idle one.
func TestLoadingThenNoStart(t *testing.T) {
	clock := providertest.NewClock(t0)
	o := providertest.NewOllama(t, providertest.WithOllamaClock(clock))
	o.Reply(providertest.Hold())
	p := newProvider(t, o.URL(), func(c *ollama.Config) { c.Clock = clock })
	_, done, rec, result := stream(t, p, request())
	<-o.Waiting()
	clock.Advance(time.Second)
	if !hasPhase(rec.statuses, provider.PhaseLoading) {
		t.Fatalf("no loading status after a second: %+v", rec.statuses)
	}
	if got := rec.statuses[len(rec.statuses)-1]; got.Message != "loading llama3.1:8b into memory…" || !got.Since.Equal(t0.Add(time.Second)) {
		t.Errorf("status %+v", got)
	}
	clock.Advance(2 * time.Minute)
	select {
	case <-done:
		t.Fatal("a loading model was given up on after 2 minutes")
	default:
	}
	clock.Advance(3 * time.Minute)
	<-done
	_, err := result()
	if pe := asError(t, err); pe.Detail != provider.DetailNoStart || !strings.Contains(pe.Message, "did not start answering within 5 min;") {
		t.Errorf("got %+v", pe)
	}
}

// A loaded model that is slow to start is reading the prompt.
func TestReadingPrompt(t *testing.T) {
	clock := providertest.NewClock(t0)
	o := providertest.NewOllama(t, providertest.WithOllamaClock(clock))
	o.SetLoaded(8192, "llama3.1:8b")
	o.Reply(providertest.Hold())
	p := newProvider(t, o.URL(), func(c *ollama.Config) { c.Clock = clock })
	_, done, rec, _ := stream(t, p, request())
	<-o.Waiting()
	clock.Advance(time.Second)
	if last := rec.statuses[len(rec.statuses)-1]; last.Phase != provider.PhaseWaiting || last.Message != "llama3.1:8b is reading the prompt…" {
		t.Errorf("statuses %+v", rec.statuses)
	}
	clock.Advance(5 * time.Minute)
	<-done
}

// The last line (done) completes the answer even when the server keeps
// the connection open.
func TestDoneWithoutClose(t *testing.T) {
	o := providertest.NewOllama(t)
	o.Reply(providertest.Text("42"), providertest.Linger())
	p := newProvider(t, o.URL())
	resp, err := p.Stream(t.Context(), request(), nil)
	if err != nil || resp.Text != "42" {
		t.Fatalf("%+v %v", resp, err)
	}
}

// Ollama's own errors mid-stream and HTTP errors are classified.
func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		part   providertest.Part
		kind   provider.ErrorKind
		detail provider.ErrorDetail
	}{
		{"500", providertest.Status(500, "llama runner process has terminated: exit status 2"), provider.ErrUnavailable, provider.DetailServer},
		{"503 overloaded", providertest.Status(503, "server busy, please try again.  maximum pending requests exceeded"), provider.ErrOverloaded, ""},
		{"502 proxy page", providertest.Status(502, "<html><head><title>502 Bad Gateway</title></head></html>"), provider.ErrUnavailable, provider.DetailServer},
		{"404 page", providertest.Status(404, "<!DOCTYPE html><html><title>Not Found</title></html>"), provider.ErrBadStream, provider.DetailNotAPI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := providertest.NewOllama(t)
			o.Reply(tt.part)
			_, err := newProvider(t, o.URL()).Stream(t.Context(), request(), nil)
			if pe := asError(t, err); pe.Kind != tt.kind || pe.Detail != tt.detail {
				t.Errorf("got %q %q (%v), want %q %q", pe.Kind, pe.Detail, err, tt.kind, tt.detail)
			}
		})
	}
}

// A base URL given with /v1 (the OpenAI-compatible endpoint's) still
// reaches the native API.
func TestRootDropsV1(t *testing.T) {
	root, _, err := ollama.Root("http://localhost:11434/v1/")
	if err != nil || root != "http://localhost:11434" {
		t.Errorf("Root = %q, %v", root, err)
	}
	if _, _, err := ollama.Root("localhost:11434"); err == nil {
		t.Error("a URL without a scheme was accepted")
	}
	o := providertest.NewOllama(t)
	if v, err := ollama.Detect(t.Context(), o.V1(), nil); err != nil || v != "0.17.4" {
		t.Errorf("Detect = %q, %v", v, err)
	}
	if _, err := ollama.Detect(t.Context(), providertest.ClosedURL(t), nil); err == nil {
		t.Error("Detect found a server where none runs")
	}
}

// Images a tool returned go to a model that sees, with the result they
// belong to; a model that does not see reads a description instead.
func TestImages(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	history := []provider.Message{{Role: provider.RoleUser, Content: "look"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "screenshot", Arguments: json.RawMessage(`{}`)}}},
		{Role: provider.RoleTool, ToolCallID: "c1", ToolName: "screenshot", Content: "taken", Images: []provider.Image{{MIMEType: "image/png", Data: png}}}}
	for _, tt := range []struct {
		caps   []string
		images int
	}{{[]string{"completion", "vision"}, 1}, {[]string{"completion"}, 0}} {
		o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "m", Capabilities: tt.caps}))
		o.Reply(providertest.Text("a cat"))
		if _, err := newProvider(t, o.URL(), func(c *ollama.Config) { c.Model = "m" }).Stream(t.Context(), provider.Request{Messages: history}, nil); err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Messages []struct {
				Role    string   `json:"role"`
				Content string   `json:"content"`
				Images  []string `json:"images"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(o.Requests()[0].Body, &sent); err != nil {
			t.Fatal(err)
		}
		tool := sent.Messages[2]
		if tool.Role != "tool" || len(tool.Images) != tt.images {
			t.Errorf("%v: tool message %+v", tt.caps, tool)
		}
		if tt.images == 0 && !strings.Contains(tool.Content, "image") {
			t.Errorf("%v: no description of the image: %q", tt.caps, tool.Content)
		}
	}
}

// Images the person attached go in their message's images (base64) to a
// model that sees; one that does not reads a description in its text.
func TestUserMessageImages(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	history := []provider.Message{{Role: provider.RoleUser, Content: "what is this?", Images: []provider.Image{{MIMEType: "image/png", Data: png}}}}
	for _, tt := range []struct {
		caps    []string
		images  []string
		content string
	}{
		{[]string{"completion", "vision"}, []string{base64.StdEncoding.EncodeToString(png)}, "what is this?"},
		{[]string{"completion"}, nil, "what is this?\n[image attachment (image/png, 12 bytes): you cannot see it; tell the user this model cannot read images]"},
	} {
		o := providertest.NewOllama(t, providertest.WithOllamaModels(providertest.OllamaModel{Name: "m", Capabilities: tt.caps}))
		o.Reply(providertest.Text("a cat"))
		if _, err := newProvider(t, o.URL(), func(c *ollama.Config) { c.Model = "m" }).Stream(t.Context(), provider.Request{Messages: history}, nil); err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Messages []struct {
				Role    string   `json:"role"`
				Content string   `json:"content"`
				Images  []string `json:"images"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(o.Requests()[0].Body, &sent); err != nil {
			t.Fatal(err)
		}
		user := sent.Messages[0]
		if user.Role != "user" || user.Content != tt.content || !slices.Equal(user.Images, tt.images) {
			t.Errorf("%v: user message %+v; want content %q, images %v", tt.caps, user, tt.content, tt.images)
		}
	}
}
