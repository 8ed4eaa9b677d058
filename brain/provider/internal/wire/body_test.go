package wire

import (
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestParseErrorBody(t *testing.T) {
	tests := []struct {
		name string
		body string
		want APIError
	}{
		{"openai", `{"error":{"message":"Bad key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			APIError{Type: "invalid_request_error", Code: "invalid_api_key", Message: "Bad key"}},
		{"anthropic envelope", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}`,
			APIError{Type: "overloaded_error", Message: "Overloaded"}},
		{"ollama string", `{"error":"model 'x' not found"}`, APIError{Message: "model 'x' not found"}},
		{"numeric code", `{"error":{"code":502,"message":"Provider returned error"}}`, APIError{Code: "502", Message: "Provider returned error"}},
		{"top-level vllm", `{"object":"error","message":"too long","type":"BadRequestError","code":400}`,
			APIError{Type: "BadRequestError", Code: "400", Message: "too long"}},
		{"fastapi detail", `{"detail":"Not Found"}`, APIError{Message: "Not Found"}},
		{"plain text", "  upstream connect error\n\tor disconnect  ", APIError{Message: "upstream connect error or disconnect"}},
		{"empty", "", APIError{}},
		{"json array", `[1,2]`, APIError{Message: "[1,2]"}},
		{"null error", `{"error":null,"message":"m"}`, APIError{Message: "m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseErrorBody([]byte(tt.body)); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseErrorBodyClipsLongMessages(t *testing.T) {
	got := ParseErrorBody([]byte(`{"error":"` + strings.Repeat("é", 1000) + `"}`))
	if n := utf8.RuneCountInString(got.Message); n != maxMessage+1 || !strings.HasSuffix(got.Message, "…") {
		t.Errorf("clipped to %d runes: %q…", n, got.Message[:20])
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"ms wins", map[string]string{"Retry-After": "7", "Retry-After-Ms": "250"}, 250 * time.Millisecond},
		{"bad ms falls back", map[string]string{"Retry-After": "2", "Retry-After-Ms": "soon"}, 2 * time.Second},
		{"http date", map[string]string{"Retry-After": "Mon, 10 Mar 2025 12:00:30 GMT"}, 30 * time.Second},
		{"past date", map[string]string{"Retry-After": "Mon, 10 Mar 2025 11:00:00 GMT"}, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0},
		{"garbage", map[string]string{"Retry-After": "later"}, 0},
		{"huge capped", map[string]string{"Retry-After": "1e30"}, maxRetryAfterHeader},
		{"NaN", map[string]string{"Retry-After": "NaN"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			if got := ParseRetryAfter(h, now); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := []struct {
		in      string
		secrets []string
		want    string
	}{
		{"key sk-abcdefgh12345 twice sk-abcdefgh12345", []string{"sk-abcdefgh12345"}, "key [redacted] twice [redacted]"},
		{"start ollama serve", []string{"ollama"}, "start ollama serve"}, // placeholder, too short to be a secret
		{"nothing", []string{""}, "nothing"},
		{"a 12345678 b", []string{"", "12345678"}, "a [redacted] b"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in, tt.secrets...); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzParseErrorBody(f *testing.F) {
	for _, s := range []string{
		`{"error":{"message":"m","type":"t","code":"c"}}`,
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
		`{"error":"x"}`, `{"detail":"d"}`, `{"error":{"code":1e999}}`, "<html>", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := ParseErrorBody(body)
		if utf8.RuneCountInString(got.Message) > maxMessage+1 {
			t.Errorf("message not clipped: %d runes", utf8.RuneCountInString(got.Message))
		}
		if got.Type == "error" {
			t.Errorf("envelope type leaked: %+v", got)
		}
	})
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"7", "1.5", "-1", "Mon, 10 Mar 2025 12:00:30 GMT", "1e400", "NaN", "Inf", ""} {
		f.Add(s, "")
		f.Add("", s)
	}
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, retryAfter, retryAfterMs string) {
		h := http.Header{"Retry-After": {retryAfter}, "Retry-After-Ms": {retryAfterMs}}
		if got := ParseRetryAfter(h, now); got < 0 || got > maxRetryAfterHeader {
			t.Errorf("ParseRetryAfter(%q, %q) = %v out of range", retryAfter, retryAfterMs, got)
		}
	})
}
