package anthropic_test

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
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testKey = "sk-ant-test-9d8c7b6a5f4e3d2c1b0a"

func fixture(t *testing.T, name string) []byte {
	return providertest.File(t, filepath.Join("testdata", name))
}

func newProvider(t *testing.T, url string, mod func(*anthropic.Config)) *anthropic.Provider {
	t.Helper()
	cfg := anthropic.Config{BaseURL: url, APIKey: testKey, Model: "claude-sonnet-4-5", Logger: slog.New(slog.DiscardHandler)}
	if mod != nil {
		mod(&cfg)
	}
	p, err := anthropic.New(cfg)
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

func show(calls []provider.ToolCall) string {
	var b strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&b, "[%s %s %s] ", c.ID, c.Name, c.Arguments)
	}
	return b.String()
}

func TestStream(t *testing.T) {
	tests := []struct {
		file      string
		text      string
		calls     []provider.ToolCall
		stop      string
		usage     provider.Usage
		wantTypes []provider.EventType
	}{
		{
			file: "text.sse",
			text: "Hello! The capital of France is Paris.",
			stop: "end",
			// 25 uncached + 2048 read from the cache.
			usage:     provider.Usage{InputTokens: 2073, OutputTokens: 15, CachedTokens: 2048},
			wantTypes: []provider.EventType{"text", "text", "text", "text", "text", "usage"},
		},
		{
			file: "tool_use.sse",
			text: "Let me check both.",
			calls: []provider.ToolCall{
				{ID: "toolu_01A09q90qw90lq917835lq9", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris", "unit": "c"}`)},
				{ID: "toolu_01B7xk2Pq4Rr8Zz1Yy3Ww5Vv", Name: "get_time", Arguments: json.RawMessage(`{"tz": "Europe/Paris"}`)},
				{ID: "toolu_01C4nN6Mm8Ll0Kk2Jj4Hh6Gg", Name: "list_files", Arguments: json.RawMessage(`{}`)},
			},
			stop: "tool_use",
			// 412 uncached + 1830 written to the cache.
			usage:     provider.Usage{InputTokens: 2242, OutputTokens: 89, CacheWriteTokens: 1830},
			wantTypes: []provider.EventType{"text", "tool_call", "tool_call", "tool_call", "usage"},
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
			if resp.Text != tt.text || rec.text() != tt.text {
				t.Errorf("text = %q (events %q), want %q", resp.Text, rec.text(), tt.text)
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
			if last := rec.events[len(rec.events)-1]; last.Usage == nil || *last.Usage != tt.usage {
				t.Errorf("last event %+v, want usage %+v", last, tt.usage)
			}
		})
	}
}

// message_delta on newer API versions repeats the input counts; they win.
func TestUsageFromMessageDelta(t *testing.T) {
	body := strings.Replace(string(fixture(t, "text.sse")),
		`"usage":{"output_tokens":15}`,
		`"usage":{"input_tokens":30,"cache_creation_input_tokens":0,"cache_read_input_tokens":4000,"output_tokens":15}`, 1)
	srv := providertest.NewServer(t, providertest.Raw{Body: []byte(body)})
	resp, err := newProvider(t, srv.URL(), nil).Stream(t.Context(), userRequest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := provider.Usage{InputTokens: 4030, OutputTokens: 15, CachedTokens: 4000}
	if resp.Usage != want {
		t.Errorf("usage %+v, want %+v", resp.Usage, want)
	}
}

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		file       string
		header     map[string]string
		model      string
		kind       provider.ErrorKind
		retryable  bool
		retryAfter time.Duration
		contains   []string
	}{
		{name: "401", status: 401, file: "401.json", kind: provider.ErrAuth,
			contains: []string{"refused the API key", "model settings", "HTTP 401", "invalid x-api-key: [redacted]"}},
		{name: "403", status: 403, file: "403.json", kind: provider.ErrAuth},
		{name: "404 model", status: 404, file: "404_model.json", model: "claude-9-opus", kind: provider.ErrNotFound,
			contains: []string{`model "claude-9-opus" was not found`, "check the model name"}},
		{name: "400 prompt too long", status: 400, file: "400_context.json", kind: provider.ErrContextLength,
			contains: []string{"too long", "prompt is too long: 208310 tokens"}},
		{name: "413 request too large", status: 413, file: "413.json", kind: provider.ErrContextLength},
		{name: "400 bad request", status: 400, file: "400_bad_request.json", kind: provider.ErrBadRequest,
			contains: []string{"rejected the request", "valid dictionary"}},
		{name: "429", status: 429, file: "429.json", header: map[string]string{"retry-after": "3"},
			kind: provider.ErrRateLimit, retryable: true, retryAfter: 3 * time.Second, contains: []string{"try again in 3s"}},
		{name: "529 overloaded", status: 529, file: "529.json", kind: provider.ErrOverloaded, retryable: true,
			contains: []string{"overloaded"}},
		{name: "503", status: 503, file: "500.json", kind: provider.ErrOverloaded, retryable: true},
		{name: "500", status: 500, file: "500.json", kind: provider.ErrUnavailable, retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Status: tt.status, Header: tt.header, Body: fixture(t, filepath.Join("errors", tt.file))})
			p := newProvider(t, srv.URL(), func(c *anthropic.Config) {
				if tt.model != "" {
					c.Model = tt.model
				}
			})
			var rec recorder
			resp, err := p.Stream(t.Context(), userRequest(), rec.on)
			pe := asError(t, err)
			if pe.Kind != tt.kind || pe.Status != tt.status || pe.Provider != "anthropic" {
				t.Errorf("got kind %q status %d provider %q, want %q %d anthropic (%v)", pe.Kind, pe.Status, pe.Provider, tt.kind, tt.status, err)
			}
			if pe.Retryable() != tt.retryable || pe.RetryAfter != tt.retryAfter {
				t.Errorf("Retryable %v RetryAfter %v, want %v %v", pe.Retryable(), pe.RetryAfter, tt.retryable, tt.retryAfter)
			}
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if resp == nil || len(rec.events) != 0 {
				t.Errorf("resp %v, events %v: want an empty response and no events", resp, rec.events)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name  string
		first providertest.Raw
		slept []time.Duration
	}{
		{name: "429 waits Retry-After",
			first: providertest.Raw{Status: 429, Header: map[string]string{"retry-after": "3"}, Body: fixture(t, "errors/429.json")},
			slept: []time.Duration{3 * time.Second}},
		{name: "529 backs off with jitter",
			first: providertest.Raw{Status: 529, Body: fixture(t, "errors/529.json")},
			slept: []time.Duration{750 * time.Millisecond}},
		{name: "overloaded before any text",
			first: providertest.Raw{Body: []byte("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")},
			slept: []time.Duration{750 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, tt.first, providertest.Raw{Body: fixture(t, "text.sse")})
			var slept []time.Duration
			p := provider.WithRetry(newProvider(t, srv.URL(), nil), provider.RetryOptions{
				Rand:  fixedRand(0.5),
				Sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil },
			})
			resp, err := p.Stream(t.Context(), userRequest(), nil)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if !reflect.DeepEqual(slept, tt.slept) {
				t.Errorf("slept %v, want %v", slept, tt.slept)
			}
			if resp.Text != "Hello! The capital of France is Paris." || len(srv.Requests()) != 2 {
				t.Errorf("text %q after %d requests", resp.Text, len(srv.Requests()))
			}
		})
	}
}

type fixedRand float64

func (f fixedRand) Float64() float64 { return float64(f) }

func TestBadStream(t *testing.T) {
	tests := []struct {
		file    string
		kind    provider.ErrorKind
		partial string
		detail  string
	}{
		{file: "malformed.sse", kind: provider.ErrBadStream, partial: "Partial answer", detail: "not valid JSON"},
		{file: "truncated.sse", kind: provider.ErrBadStream, partial: "The first half", detail: "ended before message_stop"},
		{file: "midstream_overloaded.sse", kind: provider.ErrOverloaded, partial: "I was say", detail: "overloaded"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			// Wrapped in WithRetry: text was shown, so nothing is retried.
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, tt.file)})
			p := provider.WithRetry(newProvider(t, srv.URL(), nil), provider.RetryOptions{
				Sleep: func(context.Context, time.Duration) error { t.Error("retried after text was shown"); return nil },
			})
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
				t.Errorf("partial = %q (events %q), want %q", resp.Text, rec.text(), tt.partial)
			}
		})
	}
}

// Cancelling during a retry wait ends it at once.
func TestCancelDuringRetryWait(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Raw{Status: 529, Body: fixture(t, "errors/529.json")})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// The default sleep (a real timer of about a second) is used; the cancel
	// comes from the logger's record of the retry, before the wait starts.
	p := provider.WithRetry(newProvider(t, srv.URL(), nil), provider.RetryOptions{
		Logger: slog.New(cancelHandler{cancel}),
	})
	_, err := p.Stream(ctx, userRequest(), nil)
	if provider.KindOf(err) != provider.ErrCanceled || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

type cancelHandler struct{ cancel context.CancelFunc }

func (h cancelHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h cancelHandler) Handle(context.Context, slog.Record) error {
	h.cancel()
	return nil
}
func (h cancelHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h cancelHandler) WithGroup(string) slog.Handler      { return h }

func TestNew(t *testing.T) {
	if _, err := anthropic.New(anthropic.Config{}); !errors.Is(err, anthropic.ErrNoAPIKey) {
		t.Errorf("no key for api.anthropic.com: err = %v, want ErrNoAPIKey", err)
	}
	if _, err := anthropic.New(anthropic.Config{BaseURL: "not a url", APIKey: "k"}); !errors.Is(err, anthropic.ErrConfig) {
		t.Errorf("bad URL: err = %v, want ErrConfig", err)
	}
	if _, err := anthropic.New(anthropic.Config{APIKey: "k", MaxTokens: -1}); !errors.Is(err, anthropic.ErrConfig) {
		t.Errorf("negative MaxTokens: err = %v, want ErrConfig", err)
	}
	p, err := anthropic.New(anthropic.Config{BaseURL: "http://127.0.0.1:9", Name: "gateway"})
	if err != nil || p.Name() != "gateway" {
		t.Errorf("gateway without key: %v, %v", p, err)
	}
}

func TestRequestEncoding(t *testing.T) {
	tests := []struct {
		name   string
		mod    func(*anthropic.Config)
		req    provider.Request
		golden string
		// header and raw are checked on the wire as well as the golden.
		header map[string]string
		raw    string
	}{
		{
			name:   "full conversation",
			golden: "request.golden.json",
			header: map[string]string{"Anthropic-Beta": "token-efficient-tools-2025-02-19"},
			// The schema goes out byte for byte (cache stability).
			raw: `"input_schema":{"type":"object","properties":{"city":{"type":"string","maxLength":100}},"required":["city"],"additionalProperties":false}`,
			mod: func(c *anthropic.Config) {
				c.Headers = map[string]string{"anthropic-beta": "token-efficient-tools-2025-02-19"}
			},
			req: provider.Request{
				Model:  "claude-haiku-4-5",
				System: "You are Wrasse.",
				Messages: []provider.Message{
					{Role: provider.RoleUser, Content: "Weather in Paris, and list my files?"},
					{Role: provider.RoleAssistant, Content: "Checking.", ToolCalls: []provider.ToolCall{
						{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
						{ID: "toolu_2", Name: "list_files", Arguments: nil},
					}},
					{Role: provider.RoleTool, ToolCallID: "toolu_1", ToolName: "get_weather", Content: "18°C, cloudy"},
					{Role: provider.RoleTool, ToolCallID: "toolu_2", ToolName: "list_files", Content: "permission denied", IsError: true},
					{Role: provider.RoleAssistant}, // empty: dropped
					{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
						{ID: "toolu_3", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Par`)},
					}},
					{Role: provider.RoleTool, ToolCallID: "toolu_3", Content: "", IsError: true},
					{Role: provider.RoleUser, Content: "Thanks"},
				},
				Tools: []provider.Tool{
					{Name: "get_weather", Description: "Current weather for a city.",
						Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","maxLength":100}},"required":["city"],"additionalProperties":false}`)},
					{Name: "list_files", Description: "List files."},
				},
			},
		},
		{
			name:   "user line while tools ran",
			golden: "request_interjection.golden.json",
			req: provider.Request{Messages: []provider.Message{
				{Role: provider.RoleUser, Content: "Read both files."},
				{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
					{ID: "toolu_a", Name: "read_file", Arguments: json.RawMessage(`{"path":"a"}`)},
					{ID: "toolu_b", Name: "read_file", Arguments: json.RawMessage(`{"path":"b"}`)},
				}},
				{Role: provider.RoleTool, ToolCallID: "toolu_a", Content: "A"},
				{Role: provider.RoleUser, Content: "Also, be brief."},
				{Role: provider.RoleTool, ToolCallID: "toolu_b", Content: "B"},
			}},
		},
		{
			name:   "defaults, no cache",
			golden: "request_nocache.golden.json",
			mod:    func(c *anthropic.Config) { c.DisablePromptCache = true; c.MaxTokens = 1024 },
			req:    userRequest(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Raw{Body: fixture(t, "text.sse")})
			if _, err := newProvider(t, srv.URL(), tt.mod).Stream(t.Context(), tt.req, nil); err != nil {
				t.Fatalf("Stream: %v", err)
			}
			got := srv.Requests()[0]
			if got.Method != "POST" || got.Path != "/v1/messages" {
				t.Errorf("%s %s, want POST /v1/messages", got.Method, got.Path)
			}
			for k, want := range map[string]string{
				"X-Api-Key":         testKey,
				"Anthropic-Version": "2023-06-01",
				"Content-Type":      "application/json",
			} {
				if v := got.Header.Get(k); v != want {
					t.Errorf("header %s = %q, want %q", k, v, want)
				}
			}
			for k, want := range tt.header {
				if v := got.Header.Get(k); v != want {
					t.Errorf("header %s = %q, want %q", k, v, want)
				}
			}
			if !bytes.Contains(got.Body, []byte(tt.raw)) {
				t.Errorf("body lacks %s:\n%s", tt.raw, got.Body)
			}
			if got.Header.Get("Authorization") != "" {
				t.Errorf("unexpected Authorization header")
			}
			golden(t, filepath.Join("testdata", tt.golden), got.Body)
		})
	}
}

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
