package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func testClassifier() *Classifier {
	return &Classifier{Provider: "openai", BaseURL: "http://localhost:11434/v1", Model: "llama3.2",
		Secrets: []string{"sk-secret-123456789"}, Now: func() time.Time { return time.Unix(0, 0) }}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func postErr(err error) error {
	return &url.Error{Op: "Post", URL: "http://localhost:11434/v1/chat/completions", Err: err}
}

func TestTransport(t *testing.T) {
	refused := postErr(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
	tests := []struct {
		name      string
		err       error
		responded bool
		kind      provider.ErrorKind
		contains  string
	}{
		{"refused", refused, false, provider.ErrUnavailable, "no model answered at http://localhost:11434/v1 (connection refused): start Ollama"},
		{"dns", postErr(&net.OpError{Op: "dial", Err: &net.DNSError{Name: "nohost.invalid", IsNotFound: true}}), false, provider.ErrUnavailable, `host "nohost.invalid" not found`},
		{"dial timeout", postErr(&net.OpError{Op: "dial", Err: timeoutErr{}}), false, provider.ErrTimeout, "took too long"},
		{"reset before response", postErr(&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}), false, provider.ErrNetwork, "connection to http://localhost:11434/v1 failed"},
		{"reset mid-stream", &net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, true, provider.ErrNetwork, "connection"},
		{"cut mid-event", io.ErrUnexpectedEOF, true, provider.ErrBadStream, "closed mid-event"},
		{"invalid json", &json.SyntaxError{Offset: 3}, true, provider.ErrBadStream, "not valid JSON"},
		{"odd stream error", errors.New("bufio.Scanner: token too long"), true, provider.ErrBadStream, "could not be read"},
		{"request not built", errors.New("requestconfig: base url is not set"), false, provider.ErrBadRequest, "could not send the request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pe := testClassifier().Transport(tt.err, tt.responded)
			if pe.Kind != tt.kind || !strings.Contains(pe.Message, tt.contains) {
				t.Errorf("got %q %q, want %q containing %q", pe.Kind, pe.Message, tt.kind, tt.contains)
			}
			if !errors.Is(pe, tt.err) {
				t.Errorf("cause not wrapped")
			}
		})
	}
}

// The Ollama hint is for the default local Ollama only; another endpoint
// is told to check its server.
func TestTransportHintFollowsEndpoint(t *testing.T) {
	refused := postErr(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
	dns := postErr(&net.OpError{Op: "dial", Err: &net.DNSError{Name: "llm.invalid", IsNotFound: true}})
	tests := []struct {
		base   string
		err    error
		ollama bool
	}{
		{"http://localhost:11434/v1", refused, true},
		{"http://localhost:11434/v1/", refused, true},
		{"http://127.0.0.1:11434", refused, true},
		{"http://[::1]:11434/v1", refused, true},
		{"http://localhost:11434/v1", dns, true},
		{"https://api.openai.com/v1", refused, false},
		{"http://localhost:8080/v1", refused, false},
		{"http://127.0.0.1:1234/v1", refused, false},
		{"https://localhost:11434/v1", refused, false},
		{"http://gpu-box:11434/v1", refused, false},
		{"https://llm.invalid/v1", dns, false},
		{"https://api.anthropic.com", refused, false},
	}
	for _, tt := range tests {
		c := testClassifier()
		c.BaseURL = tt.base
		pe := c.Transport(tt.err, false)
		if pe.Kind != provider.ErrUnavailable || !strings.Contains(pe.Message, "no model answered at "+tt.base) {
			t.Errorf("%s: %q %q", tt.base, pe.Kind, pe.Message)
		}
		if got := strings.Contains(pe.Message, "start Ollama"); got != tt.ollama {
			t.Errorf("%s: Ollama hint = %v, want %v: %q", tt.base, got, tt.ollama, pe.Message)
		}
		if !tt.ollama && strings.Contains(strings.ToLower(pe.Message), "ollama") {
			t.Errorf("%s: mentions Ollama: %q", tt.base, pe.Message)
		}
		if !strings.Contains(pe.Message, "model settings") || strings.Contains(pe.Message, "wrasse ") {
			t.Errorf("%s: no way to choose another model: %q", tt.base, pe.Message)
		}
		if tt.err == refused && !tt.ollama && !strings.Contains(pe.Message, "check that the server there is running") {
			t.Errorf("%s: no advice to check the server: %q", tt.base, pe.Message)
		}
	}
}

func TestContext(t *testing.T) {
	c := testClassifier()
	if c.Context(t.Context(), nil) != nil {
		t.Error("live context classified as an error")
	}
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	if pe := c.Context(canceled, context.Canceled); pe.Kind != provider.ErrCanceled || !errors.Is(pe, context.Canceled) {
		t.Errorf("canceled: %v", pe)
	}
	expired, cancel2 := context.WithDeadline(t.Context(), time.Unix(0, 0))
	defer cancel2()
	if pe := c.Context(expired, nil); pe.Kind != provider.ErrTimeout {
		t.Errorf("deadline: %v", pe)
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		status int
		body   string
		kind   provider.ErrorKind
	}{
		{401, `{"error":"unauthorized"}`, provider.ErrAuth},
		{403, `{}`, provider.ErrAuth},
		{404, `{"error":"model 'llama3.2' not found"}`, provider.ErrNotFound},
		{408, ``, provider.ErrTimeout},
		{413, `{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}`, provider.ErrContextLength},
		{422, `{"detail":"This model's maximum context length is 4096 tokens"}`, provider.ErrContextLength},
		{400, `{"error":{"message":"Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens"}}`, provider.ErrContextLength},
		{400, `{"error":{"message":"unknown field"}}`, provider.ErrBadRequest},
		{429, `{"error":{"type":"insufficient_quota"}}`, provider.ErrBadRequest},
		{400, `{"type":"error","error":{"type":"billing_error","message":"Your credit balance is too low"}}`, provider.ErrBadRequest},
		{429, ``, provider.ErrRateLimit},
		{503, ``, provider.ErrOverloaded},
		{529, ``, provider.ErrOverloaded},
		{500, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, provider.ErrOverloaded},
		{502, `Bad Gateway`, provider.ErrUnavailable},
		{504, ``, provider.ErrTimeout},
		{418, ``, provider.ErrBadRequest},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d %s", tt.status, tt.body), func(t *testing.T) {
			pe := testClassifier().Status(tt.status, nil, []byte(tt.body), nil)
			if pe.Kind != tt.kind || pe.Status != tt.status {
				t.Errorf("got %q %d, want %q (%s)", pe.Kind, pe.Status, tt.kind, pe.Message)
			}
		})
	}
}

func TestStatusRedactsAndQuotes(t *testing.T) {
	h := http.Header{"Retry-After": {"2"}}
	pe := testClassifier().Status(429, h, []byte(`{"error":{"message":"key sk-secret-123456789 is throttled","type":"requests"}}`), errors.New("raw sk-secret-123456789"))
	if strings.Contains(pe.Error(), "sk-secret") || strings.Contains(pe.Err.Error(), "sk-secret") {
		t.Errorf("secret leaked: %v / %v", pe, pe.Err)
	}
	want := "openai (rate_limit, HTTP 429): openai is limiting how fast requests may be sent (server said: key [redacted] is throttled); try again in 2s."
	if pe.Error() != want || pe.RetryAfter != 2*time.Second {
		t.Errorf("got  %q (%v)\nwant %q", pe.Error(), pe.RetryAfter, want)
	}
}

func TestEvent(t *testing.T) {
	tests := []struct {
		body string
		kind provider.ErrorKind
	}{
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, provider.ErrOverloaded},
		{`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, provider.ErrRateLimit},
		{`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`, provider.ErrUnavailable},
		{`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 300000 tokens"}}`, provider.ErrContextLength},
		{`{"error":{"code":502,"message":"Provider returned error"}}`, provider.ErrUnavailable},
		{`{"error":{"code":429,"message":"Rate limit exceeded: free-models-per-day"}}`, provider.ErrRateLimit},
		{`{"error":{"message":"something broke"}}`, provider.ErrUnavailable},
	}
	for _, tt := range tests {
		if pe := testClassifier().Event([]byte(tt.body), nil); pe.Kind != tt.kind || pe.Status != 0 {
			t.Errorf("Event(%s) = %q status %d, want %q", tt.body, pe.Kind, pe.Status, tt.kind)
		}
	}
}

// Each failure says what happened in its own words, as a sentence, with
// the detail its hint depends on.
func TestFailureDetails(t *testing.T) {
	refused := postErr(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
	c := testClassifier()
	html := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	tests := []struct {
		name   string
		pe     *provider.Error
		kind   provider.ErrorKind
		detail provider.ErrorDetail
		local  bool
		msg    string
	}{
		{"refused", c.Transport(refused, false), provider.ErrUnavailable, provider.DetailRefused, true, "(connection refused)"},
		{"dns", c.Transport(postErr(&net.OpError{Op: "dial", Err: &net.DNSError{Name: "x.invalid", IsNotFound: true}}), false),
			provider.ErrUnavailable, provider.DetailHostNotFound, false, `host "x.invalid" not found`},
		{"500", c.Status(500, nil, []byte(`{"error":"boom"}`), nil), provider.ErrUnavailable, provider.DetailServer, false, "server error; try again in a moment (server said: boom)."},
		{"page 404", c.Status(404, html, []byte("<html><title>404</title></html>"), nil), provider.ErrBadStream, provider.DetailNotAPI, false, "answered with a web page (HTML), not a model API"},
		{"proxy 502 page", c.Status(502, html, []byte("<html><head><title>502 Bad Gateway</title></head></html>"), nil), provider.ErrUnavailable, provider.DetailServer, false, `its page says "502 Bad Gateway"`},
		{"stalled", c.Expired(&Expired{Kind: ExpiredStalled, After: time.Minute}, true), provider.ErrTimeout, provider.DetailStalled, false, "the model stopped sending for 60 s; try again."},
		{"stalled before text", c.Expired(&Expired{Kind: ExpiredStalled, After: time.Minute}, false), provider.ErrTimeout, provider.DetailStalled, false, "the model stopped sending for 60 s; try again."},
		{"no start", c.Expired(&Expired{Kind: ExpiredNoStart, After: 5 * time.Minute}, false), provider.ErrTimeout, provider.DetailNoStart, false, "did not start answering within 5 min"},
		{"nothing arrived", c.BadStream("the stream ended before a finish_reason", false, nil), provider.ErrBadStream, "", false, "broke off before anything arrived (the stream ended before a finish_reason); try again."},
		{"bad port", c.Transport(postErr(&net.OpError{Op: "dial", Net: "tcp", Err: &net.AddrError{Err: "invalid port", Addr: "99999"}}), false),
			provider.ErrBadRequest, provider.DetailBadURL, false, "has no usable address (invalid port)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.pe.Kind != tt.kind || tt.pe.Detail != tt.detail || tt.pe.Local != tt.local || !strings.Contains(tt.pe.Message, tt.msg) {
				t.Errorf("got %q %q local=%v %q", tt.pe.Kind, tt.pe.Detail, tt.pe.Local, tt.pe.Message)
			}
			if !strings.HasSuffix(tt.pe.Message, ".") {
				t.Errorf("not a sentence: %q", tt.pe.Message)
			}
			// Only a refused key points at the key (issue 24); what the
			// turn kept is the turn's to say, once.
			if strings.Contains(strings.ToLower(tt.pe.Message), "api key") || strings.Contains(tt.pe.Message, "kept") {
				t.Errorf("names the API key or what was kept: %q", tt.pe.Message)
			}
		})
	}
}

// A refused key names the environment variable of the provider it was
// refused by, not every provider's.
func TestAuthNamesItsProvidersKey(t *testing.T) {
	for prov, env := range map[string]string{"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "ollama": "OPENAI_API_KEY"} {
		c := testClassifier()
		c.Provider = prov
		pe := c.Status(401, nil, []byte(`{"error":{"message":"bad key"}}`), nil)
		if pe.Kind != provider.ErrAuth || !strings.Contains(pe.Message, env) || strings.Contains(pe.Message, "/") {
			t.Errorf("%s: %q %q, want it to name %s alone", prov, pe.Kind, pe.Message, env)
		}
	}
}

func TestIsLocalAndServerName(t *testing.T) {
	for base, want := range map[string]bool{"http://localhost:11434": true, "http://127.0.0.1:1234/v1": true, "http://[::1]:8080": true,
		"http://box.localhost:8000": true, "https://api.openai.com/v1": false, "http://192.168.1.5:11434": false, "::bad": false} {
		if IsLocal(base) != want {
			t.Errorf("IsLocal(%q) = %v", base, !want)
		}
	}
	for base, want := range map[string]string{"http://localhost:11434": "Ollama", "https://api.openai.com/v1": "OpenAI", "http://127.0.0.1:1234/v1": "LM Studio",
		"https://openrouter.ai/api/v1": "OpenRouter", "http://gpu-box:8000/v1": "gpu-box:8000", "https://api.anthropic.com": "Anthropic"} {
		if got := ServerName(base); got != want {
			t.Errorf("ServerName(%q) = %q, want %q", base, got, want)
		}
	}
}
