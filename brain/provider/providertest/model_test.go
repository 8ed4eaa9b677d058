package providertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

var formats = []providertest.Format{providertest.OpenAI, providertest.Anthropic}

// client is a real provider of m's format pointed at m.
func client(t *testing.T, m *providertest.Model, key string) provider.Provider {
	t.Helper()
	var p provider.Provider
	var err error
	if m.Format() == providertest.OpenAI {
		p, err = openai.New(openai.Config{BaseURL: m.BaseURL(), APIKey: key, Model: "test-model"})
	} else {
		p, err = anthropic.New(anthropic.Config{BaseURL: m.BaseURL(), APIKey: key, Model: "test-model"})
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func request() provider.Request {
	return provider.Request{System: "Be brief.", MaxTokens: 50, Messages: []provider.Message{
		{Role: provider.RoleUser, Content: "What is 6*7?"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c0", Name: "calc_eval", Arguments: json.RawMessage(`{"expression":"6*7"}`)}}},
		{Role: provider.RoleTool, ToolCallID: "c0", ToolName: "calc_eval", Content: "42", IsError: true},
		{Role: provider.RoleUser, Content: "And again?"},
	}, Tools: []provider.Tool{{Name: "calc_eval", Description: "Evaluates.", Parameters: json.RawMessage(`{"type":"object"}`)}}}
}

// tb is a testing.TB that records failures instead of failing, for the
// fake's own reports.
type tb struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (t *tb) Helper() {}
func (t *tb) Errorf(format string, args ...any) {
	t.mu.Lock()
	t.errors = append(t.errors, fmt.Sprintf(format, args...))
	t.mu.Unlock()
}
func (t *tb) Fatal(args ...any) { t.Errorf("%s", fmt.Sprint(args...)) }
func (t *tb) reported() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.errors...)
}

// Both formats decode, through the real SDKs, into the same response, and
// the request is recorded the same way.
func TestModelTurns(t *testing.T) {
	for _, f := range formats {
		t.Run(string(f), func(t *testing.T) {
			m := providertest.NewModel(t, f)
			m.Reply(providertest.Text("hel", "lo"), providertest.Usage(50, 7))
			m.Reply(providertest.Text("Let me work it out."),
				providertest.ToolCall("calc_eval", `{"expression":"6*7","note":"é—ü"}`),
				providertest.ToolCall("clock_now", "").WithID("mine"))
			m.Reply(providertest.Text("cut short"), providertest.MaxTokens())
			p := client(t, m, "k")

			var events []provider.EventType
			resp, err := p.Stream(t.Context(), request(), func(ev provider.Event) error {
				if ev.Type != provider.EventStatus {
					events = append(events, ev.Type)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "hello" || resp.StopReason != "end" || resp.Usage.InputTokens != 50 || resp.Usage.OutputTokens != 7 {
				t.Errorf("response %+v", resp)
			}
			if want := []provider.EventType{provider.EventText, provider.EventText, provider.EventUsage}; !reflect.DeepEqual(events, want) {
				t.Errorf("events %v, want %v", events, want)
			}

			resp, err = p.Stream(t.Context(), request(), nil)
			if err != nil {
				t.Fatal(err)
			}
			prefix := map[providertest.Format]string{providertest.OpenAI: "call_1", providertest.Anthropic: "toolu_1"}[f]
			want := []provider.ToolCall{
				{ID: prefix, Name: "calc_eval", Arguments: json.RawMessage(`{"expression":"6*7","note":"é—ü"}`)},
				{ID: "mine", Name: "clock_now", Arguments: json.RawMessage(`{}`)},
			}
			if resp.Text != "Let me work it out." || resp.StopReason != "tool_use" || !reflect.DeepEqual(resp.ToolCalls, want) {
				t.Errorf("response %+v", resp)
			}
			if resp.Usage != (provider.Usage{InputTokens: providertest.DefaultInputTokens, OutputTokens: providertest.DefaultOutputTokens}) {
				t.Errorf("usage %+v, want the default", resp.Usage)
			}

			resp, err = p.Stream(t.Context(), request(), nil)
			if err != nil || resp.StopReason != "max_tokens" || resp.Text != "cut short" {
				t.Errorf("max tokens: %+v, %v", resp, err)
			}
			if m.Pending() != 0 {
				t.Errorf("%d replies unplayed", m.Pending())
			}

			reqs := m.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if r.Model != "test-model" || r.System != "Be brief." || r.MaxTokens != 50 || !r.Stream || r.Method != http.MethodPost {
				t.Errorf("request %+v", r)
			}
			if got := r.ToolNames(); !reflect.DeepEqual(got, []string{"calc_eval"}) || string(r.Tools[0].Parameters) != `{"type":"object"}` || r.Tools[0].Description != "Evaluates." {
				t.Errorf("tools %+v", r.Tools)
			}
			wantMsgs := []providertest.Message{
				{Role: "user", Content: "What is 6*7?"},
				{Role: "assistant", ToolCalls: []providertest.Call{{ID: "c0", Name: "calc_eval", Arguments: `{"expression":"6*7"}`}}},
				{Role: "tool", ToolCallID: "c0", Content: "42", IsError: true},
				{Role: "user", Content: "And again?"},
			}
			if f == providertest.OpenAI {
				// No error flag on this wire: the provider says it in words.
				wantMsgs[2].IsError, wantMsgs[2].Content = false, "Error: 42"
			}
			if !reflect.DeepEqual(r.Messages, wantMsgs) {
				t.Errorf("messages\n got %+v\nwant %+v", r.Messages, wantMsgs)
			}
			if r.LastMessage().Content != "And again?" || r.JSON["model"] != "test-model" {
				t.Errorf("last message %+v, JSON model %v", r.LastMessage(), r.JSON["model"])
			}
		})
	}
}

func TestModelErrors(t *testing.T) {
	tests := []struct {
		name  string
		part  providertest.Part
		kind  provider.ErrorKind
		after time.Duration
	}{
		{"unauthorised", providertest.Status(401, ""), provider.ErrAuth, 0},
		{"forbidden", providertest.Status(403, ""), provider.ErrAuth, 0},
		{"model missing", providertest.Status(404, ""), provider.ErrNotFound, 0},
		{"rate limited", providertest.Status(429, "").WithHeader("Retry-After", "3"), provider.ErrRateLimit, 3 * time.Second},
		{"overloaded", providertest.Status(529, ""), provider.ErrOverloaded, 0},
		{"server error", providertest.Status(500, ""), provider.ErrUnavailable, 0},
		{"own body", providertest.Status(400, `{"error":"model requires more system memory"}`), provider.ErrBadRequest, 0},
	}
	for _, f := range formats {
		for _, tt := range tests {
			t.Run(string(f)+"/"+tt.name, func(t *testing.T) {
				m := providertest.NewModel(t, f)
				m.Reply(tt.part)
				_, err := client(t, m, "k").Stream(t.Context(), request(), nil)
				var pe *provider.Error
				if !errors.As(err, &pe) || pe.Kind != tt.kind || pe.RetryAfter != tt.after {
					t.Fatalf("err = %v (%+v), want kind %s retry after %s", err, pe, tt.kind, tt.after)
				}
			})
		}
	}
}

// A request beyond the script is answered at once with an error that
// says so, and the test is told.
func TestModelScriptRunsOut(t *testing.T) {
	for _, f := range formats {
		t.Run(string(f), func(t *testing.T) {
			rec := &tb{TB: t}
			m := providertest.NewModel(rec, f)
			_, err := client(t, m, "k").Stream(t.Context(), request(), nil)
			if provider.KindOf(err) != provider.ErrBadRequest || !strings.Contains(err.Error(), "script ran out") {
				t.Errorf("err = %v", err)
			}
			if got := rec.reported(); len(got) != 1 || !strings.Contains(got[0], "request 1") {
				t.Errorf("reported %q", got)
			}
		})
	}
}

func TestModelHoldWaitCut(t *testing.T) {
	for _, f := range formats {
		t.Run(string(f), func(t *testing.T) {
			m := providertest.NewModel(t, f)
			step := make(chan struct{})
			m.Reply(providertest.Text("first"), providertest.Wait(step), providertest.Text(" second"))
			m.Reply(providertest.Text("Thinking"), providertest.Hold())
			m.Reply(providertest.Text("half an"), providertest.Cut())
			p := client(t, m, "k")

			// Wait: the first piece arrives, then the rest once stepped.
			var mu sync.Mutex
			var got []string
			done := make(chan *provider.Response)
			go func() {
				resp, err := p.Stream(t.Context(), request(), func(ev provider.Event) error {
					if ev.Type == provider.EventText {
						mu.Lock()
						got = append(got, ev.Text)
						mu.Unlock()
					}
					return nil
				})
				if err != nil {
					t.Error(err)
				}
				done <- resp
			}()
			<-m.Waiting()
			step <- struct{}{}
			if resp := <-done; resp == nil || resp.Text != "first second" {
				t.Errorf("stepped response %+v", resp)
			}

			// Hold after text: the text arrives, then nothing until the
			// client leaves.
			ctx, cancel := context.WithCancel(t.Context())
			resp, err := p.Stream(ctx, request(), func(ev provider.Event) error {
				if ev.Type == provider.EventText {
					cancel()
				}
				return nil
			})
			if provider.KindOf(err) != provider.ErrCanceled || resp.Text != "Thinking" {
				t.Errorf("held after text: %q, %v", resp.Text, err)
			}
			// Hold first: not even the headers; cancel once it waits. The
			// earlier Hold may or may not have signalled, so use a fresh
			// fake.
			h := providertest.NewModel(t, f)
			h.Reply(providertest.Hold())
			ctx, cancel = context.WithCancel(t.Context())
			go func() { <-h.Waiting(); cancel() }()
			resp, err = client(t, h, "k").Stream(ctx, request(), nil)
			cancel()
			if provider.KindOf(err) != provider.ErrCanceled || resp.Text != "" {
				t.Errorf("held: %q, %v", resp.Text, err)
			}

			resp, err = p.Stream(t.Context(), request(), nil)
			if provider.KindOf(err) != provider.ErrBadStream || resp.Text != "half an" {
				t.Errorf("cut: %q, %v", resp.Text, err)
			}
		})
	}
}

// Hold is released when the fake closes, so a test never hangs on it.
func TestModelCloseReleasesHold(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Hold())
	p := client(t, m, "")
	go func() { <-m.Waiting(); m.Close() }()
	if _, err := p.Stream(t.Context(), request(), nil); err == nil {
		t.Fatal("held request succeeded after Close")
	}
	// Closed: nothing answers any more (refused, or a pooled connection
	// found closed).
	if _, err := p.Stream(t.Context(), request(), nil); provider.KindOf(err) != provider.ErrUnavailable && provider.KindOf(err) != provider.ErrNetwork {
		t.Errorf("after Close: %v, want unavailable or network", err)
	}
}

func TestModelKeyAndKnownModels(t *testing.T) {
	for _, f := range formats {
		t.Run(string(f), func(t *testing.T) {
			m := providertest.NewModel(t, f, providertest.WithAPIKey("right"), providertest.WithKnownModelsOnly(),
				providertest.WithModels(provider.ModelInfo{ID: "test-model"}))
			m.Reply(providertest.Text("ok"))
			if _, err := client(t, m, "wrong").Stream(t.Context(), request(), nil); provider.KindOf(err) != provider.ErrAuth {
				t.Errorf("wrong key: %v", err)
			}
			req := request()
			req.Model = "no-such-model"
			if _, err := client(t, m, "right").Stream(t.Context(), req, nil); provider.KindOf(err) != provider.ErrNotFound {
				t.Errorf("unknown model: %v", err)
			}
			if m.Pending() != 1 {
				t.Errorf("a refused request used a reply")
			}
			if resp, err := client(t, m, "right").Stream(t.Context(), request(), nil); err != nil || resp.Text != "ok" {
				t.Errorf("right key: %+v %v", resp, err)
			}
			if n := len(m.Requests()); n != 3 {
				t.Errorf("%d requests recorded, want 3", n)
			}
		})
	}
}

func get(t *testing.T, url string, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	return res.StatusCode, v
}

// GET /v1/models in both shapes, Anthropic's paged.
func TestModelList(t *testing.T) {
	models := []provider.ModelInfo{{ID: "b-model", DisplayName: "B"}, {ID: "a-model"}, {ID: "c-model", DisplayName: "C"}}
	m := providertest.NewModel(t, providertest.OpenAI, providertest.WithModels(models...))
	code, v := get(t, m.URL()+"/v1/models", nil)
	data, _ := v["data"].([]any)
	if code != 200 || len(data) != 3 || data[0].(map[string]any)["id"] != "b-model" || v["object"] != "list" {
		t.Errorf("openai list %d %v", code, v)
	}

	a := providertest.NewModel(t, providertest.Anthropic, providertest.WithModels(models...))
	code, v = get(t, a.URL()+"/v1/models?limit=2", nil)
	data, _ = v["data"].([]any)
	if code != 200 || len(data) != 2 || v["has_more"] != true || v["last_id"] != "a-model" || data[1].(map[string]any)["display_name"] != "a-model" {
		t.Errorf("anthropic first page %d %v", code, v)
	}
	code, v = get(t, a.URL()+"/v1/models?limit=2&after_id=a-model", nil)
	data, _ = v["data"].([]any)
	if code != 200 || len(data) != 1 || v["has_more"] != false || data[0].(map[string]any)["display_name"] != "C" {
		t.Errorf("anthropic second page %d %v", code, v)
	}

	a.FailModels(401, "")
	code, v = get(t, a.URL()+"/v1/models", nil)
	if inner, _ := v["error"].(map[string]any); code != 401 || inner["type"] != "authentication_error" {
		t.Errorf("failed list %d %v", code, v)
	}
	if n := len(a.ModelListRequests()); n != 3 || len(a.Requests()) != 0 {
		t.Errorf("%d list requests, %d chat requests", n, len(a.Requests()))
	}
}

// A smoke test can start the fake on its own listener and hand the URL to
// another process.
func TestModelOnListener(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := providertest.NewModel(t, providertest.Anthropic, providertest.WithListener(l))
	if m.URL() != "http://"+l.Addr().String() || m.BaseURL() != m.URL() {
		t.Errorf("URL %s BaseURL %s, listener %s", m.URL(), m.BaseURL(), l.Addr())
	}
	m.Reply(providertest.Text("hi"))
	if resp, err := client(t, m, "k").Stream(t.Context(), request(), nil); err != nil || resp.Text != "hi" {
		t.Errorf("%+v %v", resp, err)
	}

	addr := strings.TrimPrefix(providertest.ClosedURL(t), "http://")
	o := providertest.NewModel(t, providertest.OpenAI, providertest.WithAddr(addr))
	if o.BaseURL() != "http://"+addr+"/v1" {
		t.Errorf("BaseURL %s, want on %s", o.BaseURL(), addr)
	}
}

func TestModelConcurrent(t *testing.T) {
	const n = 8
	for _, f := range formats {
		t.Run(string(f), func(t *testing.T) {
			m := providertest.NewModel(t, f)
			for i := range n {
				m.Reply(providertest.Text(fmt.Sprint(i)), providertest.ToolCall("t", `{}`))
			}
			p := client(t, m, "k")
			var wg sync.WaitGroup
			seen := make(chan string, n)
			for range n {
				wg.Go(func() {
					resp, err := p.Stream(t.Context(), request(), nil)
					if err != nil {
						t.Error(err)
						return
					}
					seen <- resp.Text
				})
			}
			wg.Wait()
			close(seen)
			got := map[string]bool{}
			for s := range seen {
				got[s] = true
			}
			if len(got) != n || len(m.Requests()) != n {
				t.Errorf("answers %v, %d requests", got, len(m.Requests()))
			}
		})
	}
}

func TestModelChunkDelay(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI, providertest.WithChunkDelay(time.Millisecond))
	m.Reply(providertest.Text("a", "b", "c"))
	if resp, err := client(t, m, "").Stream(t.Context(), request(), nil); err != nil || resp.Text != "abc" {
		t.Errorf("%+v %v", resp, err)
	}
}

func TestReplyRejectsBadScripts(t *testing.T) {
	tests := []struct {
		name  string
		parts []providertest.Part
	}{
		{"text then status", []providertest.Part{providertest.Text("a"), providertest.Status(500, "")}},
		{"after hold", []providertest.Part{providertest.Hold(), providertest.Text("a")}},
		{"after cut", []providertest.Part{providertest.Cut(), providertest.Text("a")}},
		{"fail over http", []providertest.Part{providertest.Fail(errors.New("x"))}},
		{"not an error status", []providertest.Part{providertest.Status(200, "")}},
		{"zero part", []providertest.Part{{}}},
		{"wait without channel", []providertest.Part{providertest.Wait(nil)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &tb{TB: t}
			m := providertest.NewModel(rec, providertest.OpenAI)
			m.Reply(tt.parts...)
			if got := rec.reported(); len(got) != 1 || !strings.Contains(got[0], "invalid Reply") || m.Pending() != 0 {
				t.Errorf("reported %q, pending %d", got, m.Pending())
			}
		})
	}
}
