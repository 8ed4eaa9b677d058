package openai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testKey = "sk-test-5e1f0c9a7b3d2468aceg"

func fixture(t *testing.T, name string) []byte {
	return providertest.File(t, filepath.Join("testdata", name))
}

func newProvider(t *testing.T, url string, mod func(*openai.Config)) *openai.Provider {
	t.Helper()
	cfg := openai.Config{BaseURL: url + "/v1", APIKey: testKey, Model: "gpt-4.1", Logger: slog.New(slog.DiscardHandler)}
	if mod != nil {
		mod(&cfg)
	}
	p, err := openai.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

// recorder collects events; statuses apart, since they say how the
// request waited, not what it answered.
type recorder struct {
	events   []provider.Event
	statuses []provider.Status
}

func (r *recorder) on(ev provider.Event) error {
	if ev.Type == provider.EventStatus {
		r.statuses = append(r.statuses, *ev.Status)
		return nil
	}
	r.events = append(r.events, ev)
	return nil
}

func (r *recorder) text() string {
	var b strings.Builder
	for _, ev := range r.events {
		if ev.Type == provider.EventText {
			b.WriteString(ev.Text)
		}
	}
	return b.String()
}

func (r *recorder) types() []provider.EventType {
	var out []provider.EventType
	for _, ev := range r.events {
		out = append(out, ev.Type)
	}
	return out
}

func userRequest() provider.Request {
	return provider.Request{System: "You are Wrasse.", Messages: []provider.Message{{Role: provider.RoleUser, Content: "Capital of France?"}}}
}

func asError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	return pe
}

func TestStreamText(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")})
	p := newProvider(t, srv.URL(), nil)
	var rec recorder
	resp, err := p.Stream(t.Context(), userRequest(), rec.on)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	want := "Hello! The capital of France is Paris."
	if resp.Text != want || rec.text() != want {
		t.Errorf("text = %q, events %q; want %q", resp.Text, rec.text(), want)
	}
	wantTypes := []provider.EventType{"text", "text", "text", "text", "text", "usage"}
	if got := rec.types(); !reflect.DeepEqual(got, wantTypes) {
		t.Errorf("event types = %v, want %v", got, wantTypes)
	}
	wantUsage := provider.Usage{InputTokens: 1843, OutputTokens: 12, CachedTokens: 1536}
	if resp.Usage != wantUsage || *rec.events[len(rec.events)-1].Usage != wantUsage {
		t.Errorf("usage = %+v, want %+v", resp.Usage, wantUsage)
	}
	if resp.StopReason != "end" {
		t.Errorf("stop = %q, want end", resp.StopReason)
	}
}

func TestStreamToolCalls(t *testing.T) {
	tests := []struct {
		file      string
		text      string
		calls     []provider.ToolCall
		stop      string
		usage     provider.Usage
		wantTypes []provider.EventType
	}{
		{
			file: "tool_calls_interleaved.sse",
			text: "Let me check both.",
			calls: []provider.ToolCall{
				{ID: "call_weather_01", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris", "unit": "c"}`)},
				{ID: "call_time_02", Name: "get_time", Arguments: json.RawMessage(`{"tz": "Europe/Paris"}`)},
				{ID: "call_list_03", Name: "list_files", Arguments: json.RawMessage(`{}`)},
			},
			stop:      "tool_use",
			usage:     provider.Usage{InputTokens: 920, OutputTokens: 64},
			wantTypes: []provider.EventType{"text", "tool_call", "tool_call", "tool_call", "usage"},
		},
		{
			// Whole calls at index 0 told apart by id, one without an id
			// and with invalid JSON (kept raw), finish_reason "stop".
			file: "tool_calls_same_index.sse",
			calls: []provider.ToolCall{
				{ID: "call_a1", Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.txt"}`)},
				{ID: "call_b2", Name: "read_file", Arguments: json.RawMessage(`{"path":"todo.md"}`)},
				{ID: "call_2", Name: "search", Arguments: json.RawMessage(`{"q": "unterminated`)},
			},
			stop:      "tool_use",
			usage:     provider.Usage{InputTokens: 310, OutputTokens: 41},
			wantTypes: []provider.EventType{"tool_call", "tool_call", "tool_call", "usage"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, tt.file)})
			p := newProvider(t, srv.URL(), nil)
			var rec recorder
			resp, err := p.Stream(t.Context(), userRequest(), rec.on)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if resp.Text != tt.text {
				t.Errorf("text = %q, want %q", resp.Text, tt.text)
			}
			if !reflect.DeepEqual(resp.ToolCalls, tt.calls) {
				t.Errorf("calls:\n got %s\nwant %s", show(resp.ToolCalls), show(tt.calls))
			}
			var evCalls []provider.ToolCall
			for _, ev := range rec.events {
				if ev.Type == provider.EventToolCall {
					evCalls = append(evCalls, *ev.ToolCall)
				}
			}
			if !reflect.DeepEqual(evCalls, tt.calls) {
				t.Errorf("tool_call events:\n got %s\nwant %s", show(evCalls), show(tt.calls))
			}
			if got := rec.types(); !reflect.DeepEqual(got, tt.wantTypes) {
				t.Errorf("event types = %v, want %v", got, tt.wantTypes)
			}
			if resp.StopReason != tt.stop || resp.Usage != tt.usage {
				t.Errorf("stop %q usage %+v; want %q %+v", resp.StopReason, resp.Usage, tt.stop, tt.usage)
			}
		})
	}
}

func show(calls []provider.ToolCall) string {
	var b strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&b, "[%s %s %s] ", c.ID, c.Name, c.Arguments)
	}
	return b.String()
}

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		file       string
		header     map[string]string
		ct         string
		model      string
		kind       provider.ErrorKind
		retryable  bool
		retryAfter time.Duration
		contains   []string
	}{
		{name: "401 bad key", status: 401, file: "401.json", kind: provider.ErrAuth,
			contains: []string{"refused the API key", "model settings", "HTTP 401"}},
		{name: "403", status: 403, file: "401.json", kind: provider.ErrAuth},
		{name: "404 unknown model", status: 404, file: "404_model.json", model: "gpt-9-ultra", kind: provider.ErrNotFound,
			contains: []string{`model "gpt-9-ultra" was not found`, "check the model name", "does not exist"}},
		{name: "404 ollama model", status: 404, file: "404_ollama.json", model: "llama9", kind: provider.ErrNotFound,
			contains: []string{`"llama9"`, "ollama pull llama9", "try pulling it first"}},
		{name: "400 context length", status: 400, file: "400_context.json", kind: provider.ErrContextLength,
			contains: []string{"too long", "new conversation", "maximum context length is 128000"}},
		{name: "400 llama.cpp context", status: 400, file: "400_llamacpp_context.json", kind: provider.ErrContextLength},
		{name: "400 bad request", status: 400, file: "400_bad_request.json", kind: provider.ErrBadRequest,
			contains: []string{"rejected the request", "Invalid schema for function 'get_weather'"}},
		{name: "400 ollama string error", status: 400, file: "400_ollama_plain.json", kind: provider.ErrBadRequest,
			contains: []string{"cannot unmarshal string"}},
		{name: "429 retry-after", status: 429, file: "429.json", header: map[string]string{"Retry-After": "7"},
			kind: provider.ErrRateLimit, retryable: true, retryAfter: 7 * time.Second, contains: []string{"try again in 7s"}},
		{name: "429 retry-after-ms", status: 429, file: "429.json", header: map[string]string{"Retry-After-Ms": "1500", "Retry-After": "2"},
			kind: provider.ErrRateLimit, retryable: true, retryAfter: 1500 * time.Millisecond},
		{name: "429 out of quota", status: 429, file: "429_quota.json", kind: provider.ErrBadRequest,
			contains: []string{"out of quota", "billing"}},
		{name: "503 overloaded", status: 503, file: "503.json", kind: provider.ErrOverloaded, retryable: true,
			contains: []string{"overloaded"}},
		{name: "500", status: 500, file: "500.json", kind: provider.ErrUnavailable, retryable: true,
			contains: []string{"server error"}},
		{name: "502 html from a proxy", status: 502, file: "502.html", ct: "text/html", kind: provider.ErrUnavailable, retryable: true,
			contains: []string{"502 Bad Gateway"}},
		{name: "504", status: 504, file: "500.json", kind: provider.ErrTimeout, retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Status: tt.status, Header: tt.header, ContentType: tt.ct,
				Body: fixture(t, filepath.Join("errors", tt.file))})
			p := newProvider(t, srv.URL(), func(c *openai.Config) {
				if tt.model != "" {
					c.Model = tt.model
				}
			})
			var rec recorder
			resp, err := p.Stream(t.Context(), userRequest(), rec.on)
			pe := asError(t, err)
			if pe.Kind != tt.kind || pe.Status != tt.status || pe.Provider != "openai" {
				t.Errorf("got kind %q status %d provider %q, want %q %d openai (%v)", pe.Kind, pe.Status, pe.Provider, tt.kind, tt.status, err)
			}
			if pe.Retryable() != tt.retryable {
				t.Errorf("Retryable = %v, want %v", pe.Retryable(), tt.retryable)
			}
			if pe.RetryAfter != tt.retryAfter {
				t.Errorf("RetryAfter = %v, want %v", pe.RetryAfter, tt.retryAfter)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if strings.Contains(fmt.Sprintf("%v %+v", err, errors.Unwrap(err)), testKey) {
				t.Errorf("error text leaks the API key: %v", err)
			}
			if resp == nil || len(rec.events) != 0 {
				t.Errorf("resp %v, events %v: want an empty response and no events", resp, rec.events)
			}
		})
	}
}

func TestRetryAfterThenSuccess(t *testing.T) {
	srv := providertest.NewServer(t,
		providertest.Raw{Status: 429, Header: map[string]string{"Retry-After": "7"}, Body: fixture(t, "errors/429.json")},
		providertest.Raw{Body: fixture(t, "text.sse")},
	)
	var slept []time.Duration
	p := provider.WithRetry(newProvider(t, srv.URL(), nil), provider.RetryOptions{
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil },
	})
	var rec recorder
	resp, err := p.Stream(t.Context(), userRequest(), rec.on)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if !reflect.DeepEqual(slept, []time.Duration{7 * time.Second}) {
		t.Errorf("slept %v, want [7s] from Retry-After", slept)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !bytes.Equal(reqs[0].Body, reqs[1].Body) {
		t.Errorf("want 2 identical requests, got %d", len(reqs))
	}
	if resp.Text != "Hello! The capital of France is Paris." || rec.text() != resp.Text {
		t.Errorf("text %q / events %q", resp.Text, rec.text())
	}
}

func TestOverloadRetriedWithBackoff(t *testing.T) {
	srv := providertest.NewServer(t,
		providertest.Raw{Status: 503, Body: fixture(t, "errors/503.json")},
		providertest.Raw{Status: 500, Body: fixture(t, "errors/500.json")},
		providertest.Raw{Body: fixture(t, "text.sse")},
	)
	var slept []time.Duration
	p := provider.WithRetry(newProvider(t, srv.URL(), nil), provider.RetryOptions{
		Rand:  fixedRand(0.5),
		Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil },
	})
	if _, err := p.Stream(t.Context(), userRequest(), nil); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	// Equal jitter on 1s then 2s with rand 0.5: 0.75s, 1.5s.
	want := []time.Duration{750 * time.Millisecond, 1500 * time.Millisecond}
	if !reflect.DeepEqual(slept, want) {
		t.Errorf("slept %v, want %v", slept, want)
	}
}

type fixedRand float64

func (f fixedRand) Float64() float64 { return float64(f) }

// A password in the base URL never reaches a message.
func TestBaseURLPasswordMasked(t *testing.T) {
	closed := strings.TrimPrefix(providertest.ClosedURL(t), "http://")
	p := newProvider(t, "", func(c *openai.Config) { c.BaseURL = "http://proxyuser:hunter2-secret@" + closed + "/v1" })
	_, err := p.Stream(t.Context(), userRequest(), nil)
	if provider.KindOf(err) != provider.ErrUnavailable {
		t.Fatalf("kind = %q (%v)", provider.KindOf(err), err)
	}
	if msg := fmt.Sprintf("%v %v", err, errors.Unwrap(err)); strings.Contains(msg, "hunter2") || !strings.Contains(msg, "proxyuser:xxxxx@") {
		t.Errorf("message should mask the password: %s", msg)
	}
}

// One Provider serves several conversations at once.
func TestConcurrentStreams(t *testing.T) {
	const n = 4
	replies := make([]providertest.Raw, n)
	for i := range replies {
		replies[i] = providertest.Raw{Body: fixture(t, "tool_calls_interleaved.sse")}
	}
	srv := providertest.NewServer(t, replies...)
	p := provider.WithRetry(newProvider(t, srv.URL(), nil), provider.RetryOptions{})
	errs := make(chan error, n)
	for range n {
		go func() {
			resp, err := p.Stream(t.Context(), userRequest(), nil)
			if err == nil && len(resp.ToolCalls) != 3 {
				err = fmt.Errorf("%d calls", len(resp.ToolCalls))
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestBadStream(t *testing.T) {
	tests := []struct {
		file    string
		kind    provider.ErrorKind
		partial string
		detail  string
	}{
		{file: "malformed.sse", kind: provider.ErrBadStream, partial: "Partial answer", detail: "not valid JSON"},
		{file: "truncated.sse", kind: provider.ErrBadStream, partial: "The first half", detail: "ended before a finish_reason"},
		{file: "midstream_error.sse", kind: provider.ErrUnavailable, detail: "Provider returned error"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, tt.file)})
			p := newProvider(t, srv.URL(), nil)
			var rec recorder
			resp, err := p.Stream(t.Context(), userRequest(), rec.on)
			pe := asError(t, err)
			if pe.Kind != tt.kind {
				t.Errorf("kind = %q, want %q (%v)", pe.Kind, tt.kind, err)
			}
			if !strings.Contains(pe.Message, tt.detail) {
				t.Errorf("message %q lacks %q", pe.Message, tt.detail)
			}
			if resp.Text != tt.partial || rec.text() != tt.partial {
				t.Errorf("partial text = %q (events %q), want %q", resp.Text, rec.text(), tt.partial)
			}
		})
	}
}

// A failure after text was shown is never retried: that would show it twice.
func TestNoRetryAfterText(t *testing.T) {
	srv := providertest.NewServer(t,
		providertest.Raw{Body: fixture(t, "midstream_error.sse")}, // nothing shown: retried
		providertest.Raw{Body: append(fixture(t, "first_piece.sse"), fixture(t, "midstream_error.sse")...)},
	)
	sleeps := 0
	p := provider.WithRetry(newProvider(t, srv.URL(), nil), provider.RetryOptions{
		Sleep: func(context.Context, time.Duration) error { sleeps++; return nil },
	})
	var rec recorder
	resp, err := p.Stream(t.Context(), userRequest(), rec.on)
	if provider.KindOf(err) != provider.ErrUnavailable {
		t.Fatalf("kind = %q (%v)", provider.KindOf(err), err)
	}
	if n := len(srv.Requests()); n != 2 || sleeps != 1 {
		t.Errorf("requests %d sleeps %d, want 2 and 1", n, sleeps)
	}
	if resp.Text != "Thinking" || rec.text() != "Thinking" {
		t.Errorf("text %q events %q, want Thinking once", resp.Text, rec.text())
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		cfg     openai.Config
		wantErr bool
		name    string
	}{
		{cfg: openai.Config{}, name: "openai"},
		{cfg: openai.Config{Name: "ollama", BaseURL: openai.OllamaBaseURL}, name: "ollama"},
		{cfg: openai.Config{BaseURL: "localhost:11434"}, wantErr: true},
		{cfg: openai.Config{BaseURL: "ftp://x/v1"}, wantErr: true},
		{cfg: openai.Config{BaseURL: "http://"}, wantErr: true},
	}
	for _, tt := range tests {
		p, err := openai.New(tt.cfg)
		if tt.wantErr {
			if !errors.Is(err, openai.ErrConfig) {
				t.Errorf("New(%+v) err = %v, want ErrConfig", tt.cfg, err)
			}
			continue
		}
		if err != nil || p.Name() != tt.name {
			t.Errorf("New(%+v) = %v, %v; want name %q", tt.cfg, p, err, tt.name)
		}
	}
}

// The request the server receives, compared with a golden file.
func TestRequestEncoding(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")})
	p := newProvider(t, srv.URL(), func(c *openai.Config) {
		c.Headers = map[string]string{"X-Title": "Wrasse", "HTTP-Referer": "https://wrasse.app"}
	})
	req := provider.Request{
		Model:     "gpt-4.1-mini",
		System:    "You are Wrasse.",
		MaxTokens: 4096,
		Messages: []provider.Message{
			{Role: provider.RoleUser, Content: "Weather in Paris, and list my files?"},
			{Role: provider.RoleAssistant, Content: "Checking.", ToolCalls: []provider.ToolCall{
				{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
				{ID: "call_2", Name: "list_files", Arguments: nil},
			}},
			{Role: provider.RoleTool, ToolCallID: "call_1", ToolName: "get_weather", Content: "18°C, cloudy"},
			{Role: provider.RoleTool, ToolCallID: "call_2", ToolName: "list_files", Content: "permission denied", IsError: true},
			{Role: provider.RoleAssistant}, // empty: dropped
			{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
				{ID: "call_3", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Par`)},
			}},
			{Role: provider.RoleTool, ToolCallID: "call_3", Content: "Error: arguments are not valid JSON", IsError: true},
			{Role: provider.RoleUser, Content: "Thanks"},
		},
		Tools: []provider.Tool{
			{Name: "get_weather", Description: "Current weather for a city.",
				Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","maxLength":100}},"required":["city"],"additionalProperties":false}`)},
			{Name: "list_files", Description: "List files.", Parameters: nil},
		},
	}
	if _, err := p.Stream(t.Context(), req, nil); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	got := srv.Requests()[0]
	if got.Method != "POST" || got.Path != "/v1/chat/completions" {
		t.Errorf("%s %s, want POST /v1/chat/completions", got.Method, got.Path)
	}
	for k, want := range map[string]string{
		"Authorization": "Bearer " + testKey,
		"Content-Type":  "application/json",
		"X-Title":       "Wrasse",
		"Http-Referer":  "https://wrasse.app",
	} {
		if v := got.Header.Get(k); v != want {
			t.Errorf("header %s = %q, want %q", k, v, want)
		}
	}
	golden(t, "testdata/request.golden.json", got.Body)
}

func TestLegacyMaxTokens(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")}, providertest.Raw{Body: fixture(t, "text.sse")})
	for _, legacy := range []bool{false, true} {
		p := newProvider(t, srv.URL(), func(c *openai.Config) { c.LegacyMaxTokens = legacy; c.APIKey = "" })
		req := userRequest()
		req.MaxTokens = 100
		if _, err := p.Stream(t.Context(), req, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	var modern, legacy map[string]any
	_ = json.Unmarshal(reqs[0].Body, &modern)
	_ = json.Unmarshal(reqs[1].Body, &legacy)
	if modern["max_completion_tokens"] != 100.0 || modern["max_tokens"] != nil {
		t.Errorf("modern request: %s", reqs[0].Body)
	}
	if legacy["max_tokens"] != 100.0 || legacy["max_completion_tokens"] != nil {
		t.Errorf("legacy request: %s", reqs[1].Body)
	}
	if h := reqs[0].Header.Get("Authorization"); h != "" {
		t.Errorf("no key configured, yet Authorization = %q", h)
	}
}

// golden compares JSON by value, stored indented; -update rewrites it.
func golden(t *testing.T, path string, gotJSON []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(gotJSON, &v); err != nil {
		t.Fatalf("request is not JSON: %v\n%s", err, gotJSON)
	}
	got, _ := json.MarshalIndent(v, "", "  ")
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("request differs from %s:\n got %s\nwant %s", path, got, want)
	}
}
