package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// APIError is what an error body says, whatever its shape.
type APIError struct {
	// Type is the error class ("invalid_request_error", "overloaded_error").
	Type string
	// Code is the machine code ("context_length_exceeded"), numbers as text.
	Code string
	// Message is the server's sentence, trimmed.
	Message string
}

// maxMessage bounds the server sentence quoted back to the user.
const maxMessage = 300

// ParseErrorBody reads the error shapes seen in the wild:
//
//	{"error":{"message":"…","type":"…","code":"…"}}         OpenAI, OpenRouter, vLLM, LM Studio, llama.cpp
//	{"type":"error","error":{"type":"…","message":"…"}}      Anthropic
//	{"error":"…"}                                            Ollama
//	{"message":"…","type":"…","code":400}                    older vLLM, other servers
//	{"detail":"…"}                                           FastAPI-based servers
//	anything else                                            the text itself
func ParseErrorBody(body []byte) APIError {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return APIError{}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return APIError{Message: clip(string(body))}
	}
	out := fields(top)
	if raw, ok := top["error"]; ok {
		var inner map[string]json.RawMessage
		var s string
		switch {
		case json.Unmarshal(raw, &inner) == nil && inner != nil:
			in := fields(inner)
			// The inner object is the real error; the outer "type":"error"
			// of Anthropic's envelope says nothing.
			out = APIError{
				Type:    firstNonEmpty(in.Type, nonEnvelope(out.Type)),
				Code:    firstNonEmpty(in.Code, out.Code),
				Message: firstNonEmpty(in.Message, out.Message),
			}
		case json.Unmarshal(raw, &s) == nil:
			out.Message = firstNonEmpty(clip(s), out.Message)
		}
	}
	if out.Message == "" {
		var detail string
		if raw, ok := top["detail"]; ok && json.Unmarshal(raw, &detail) == nil {
			out.Message = clip(detail)
		}
	}
	out.Type = nonEnvelope(out.Type)
	return out
}

func nonEnvelope(t string) string {
	if t == "error" {
		return ""
	}
	return t
}

func fields(m map[string]json.RawMessage) APIError {
	return APIError{
		Type:    scalar(m["type"]),
		Code:    scalar(m["code"]),
		Message: clip(scalar(m["message"])),
	}
}

// scalar renders a JSON string or number as text; anything else is "".
func scalar(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// clip trims s and cuts it to maxMessage runes so a server page cannot flood
// the conversation.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxMessage {
		return s
	}
	r := []rune(s)
	return string(r[:maxMessage]) + "…"
}

// maxRetryAfterHeader bounds parsed waits so absurd values cannot overflow.
const maxRetryAfterHeader = 24 * time.Hour

// ParseRetryAfter reads the wait a server asked for: retry-after-ms
// (milliseconds, OpenAI) first, then Retry-After as seconds or an HTTP date
// (RFC 9110). now turns a date into a duration. It returns 0 when there is no
// usable header.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return toDuration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return toDuration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return toDuration(float64(t.Sub(now)))
	}
	return 0
}

func toDuration(ns float64) time.Duration {
	if math.IsNaN(ns) || ns <= 0 {
		return 0
	}
	if ns >= float64(maxRetryAfterHeader) {
		return maxRetryAfterHeader
	}
	return time.Duration(ns)
}

// minSecret is the shortest value treated as a secret. Shorter strings are
// placeholders such as "ollama" or "none" that local servers ignore, and
// blanking them out would garble ordinary words in messages.
const minSecret = 8

// Redacted replaces what stands in for a secret.
const Redacted = "[redacted]"

// Redact removes every secret from s.
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= minSecret {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
	}
	return s
}
