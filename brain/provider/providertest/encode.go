package providertest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Format is a wire format a Model speaks.
type Format string

const (
	// OpenAI is Chat Completions: POST /v1/chat/completions streaming
	// "data:" chunks ending in "data: [DONE]".
	OpenAI Format = "openai"
	// Anthropic is Messages: POST /v1/messages streaming named events from
	// message_start to message_stop.
	Anthropic Format = "anthropic"
)

// The delta fields OpenAI-compatible servers stream reasoning in.
const (
	// ReasoningContent is DeepSeek's, vLLM's, llama.cpp's and LM Studio's.
	ReasoningContent = "reasoning_content"
	// Reasoning is OpenRouter's and Ollama's /v1.
	Reasoning = "reasoning"
)

// stop reasons, before the format names them.
const (
	stopEnd   = "end"
	stopTools = "tool_use"
	stopMax   = "max_tokens"
)

// created is the fixed timestamp of every OpenAI chunk: responses are
// byte-stable across runs.
const created = 1741569952

// encoder turns a reply's parts into the chunks of one streamed response.
// Each chunk is written and flushed on its own.
type encoder interface {
	start() []string
	text(pieces []string) []string
	// thinking and redacted are reasoning; nil when the format has no
	// place for it.
	thinking(pieces []string) []string
	redacted(data string) []string
	call(id, name, args string) []string
	// finish ends the answer (its stop reason and usage); close ends the
	// stream itself ([DONE], message_stop), nil when nothing does.
	finish(stop string, u provider.Usage) []string
	close() []string
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("providertest: encode %T: %v", v, err))
	}
	return string(b)
}

// halves splits s in two at a rune boundary near its middle, as servers
// split arguments across deltas.
func halves(s string) []string {
	if s == "" {
		return nil
	}
	i := len(s) / 2
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if i == 0 {
		return []string{s}
	}
	return []string{s[:i], s[i:]}
}

type openAIEncoder struct {
	id, model    string
	includeUsage bool
	calls        int
	// reasoning is the delta field reasoning goes in (default
	// reasoning_content).
	reasoning string
}

func (e *openAIEncoder) chunk(delta any, finish string) string {
	var fin any
	if finish != "" {
		fin = finish
	}
	return "data: " + js(map[string]any{
		"id": e.id, "object": "chat.completion.chunk", "created": created, "model": e.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}},
	}) + "\n\n"
}

func (e *openAIEncoder) start() []string {
	return []string{e.chunk(map[string]any{"role": "assistant", "content": ""}, "")}
}

func (e *openAIEncoder) text(pieces []string) []string {
	var out []string
	for _, p := range pieces {
		out = append(out, e.chunk(map[string]any{"content": p}, ""))
	}
	return out
}

func (e *openAIEncoder) thinking(pieces []string) []string {
	field := e.reasoning
	if field == "" {
		field = ReasoningContent
	}
	var out []string
	for _, p := range pieces {
		out = append(out, e.chunk(map[string]any{field: p}, ""))
	}
	return out
}

func (e *openAIEncoder) redacted(string) []string { return nil }

func (e *openAIEncoder) call(id, name, args string) []string {
	i := e.calls
	e.calls++
	out := []string{e.chunk(map[string]any{"tool_calls": []any{map[string]any{
		"index": i, "id": id, "type": "function", "function": map[string]any{"name": name, "arguments": ""},
	}}}, "")}
	for _, h := range halves(args) {
		out = append(out, e.chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "function": map[string]any{"arguments": h},
		}}}, ""))
	}
	return out
}

func (e *openAIEncoder) close() []string { return []string{"data: [DONE]\n\n"} }

func (e *openAIEncoder) finish(stop string, u provider.Usage) []string {
	finish := map[string]string{stopEnd: "stop", stopTools: "tool_calls", stopMax: "length"}[stop]
	out := []string{e.chunk(map[string]any{}, finish)}
	if e.includeUsage {
		out = append(out, "data: "+js(map[string]any{
			"id": e.id, "object": "chat.completion.chunk", "created": created, "model": e.model, "choices": []any{},
			"usage": map[string]any{
				"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens, "total_tokens": u.InputTokens + u.OutputTokens,
				"prompt_tokens_details": map[string]any{"cached_tokens": u.CachedTokens},
			},
		})+"\n\n")
	}
	return out
}

type anthropicEncoder struct {
	id, model string
	usage     provider.Usage
	index     int
}

// Signature is the signature the Anthropic fake gives a thinking block
// with text: a request that sends the block back must carry it, as the
// real API checks its own.
func Signature(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sig-" + base64.StdEncoding.EncodeToString(sum[:18])
}

func event(name string, data any) string {
	return "event: " + name + "\ndata: " + js(data) + "\n\n"
}

func (e *anthropicEncoder) start() []string {
	return []string{event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": e.id, "type": "message", "role": "assistant", "model": e.model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens":                e.usage.InputTokens - e.usage.CachedTokens - e.usage.CacheWriteTokens,
			"cache_read_input_tokens":     e.usage.CachedTokens,
			"cache_creation_input_tokens": e.usage.CacheWriteTokens,
			"output_tokens":               1,
		},
	}})}
}

func (e *anthropicEncoder) block(start map[string]any, deltas []map[string]any) []string {
	i := e.index
	e.index++
	out := []string{event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start})}
	for _, d := range deltas {
		out = append(out, event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}))
	}
	return append(out, event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}))
}

func (e *anthropicEncoder) text(pieces []string) []string {
	var deltas []map[string]any
	for _, p := range pieces {
		deltas = append(deltas, map[string]any{"type": "text_delta", "text": p})
	}
	return e.block(map[string]any{"type": "text", "text": ""}, deltas)
}

func (e *anthropicEncoder) thinking(pieces []string) []string {
	var deltas []map[string]any
	for _, p := range pieces {
		deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": p})
	}
	deltas = append(deltas, map[string]any{"type": "signature_delta", "signature": Signature(strings.Join(pieces, ""))})
	return e.block(map[string]any{"type": "thinking", "thinking": "", "signature": ""}, deltas)
}

func (e *anthropicEncoder) redacted(data string) []string {
	return e.block(map[string]any{"type": "redacted_thinking", "data": data}, nil)
}

func (e *anthropicEncoder) call(id, name, args string) []string {
	var deltas []map[string]any
	for _, h := range halves(args) {
		deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": h})
	}
	return e.block(map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}, deltas)
}

func (e *anthropicEncoder) finish(stop string, u provider.Usage) []string {
	reason := map[string]string{stopEnd: "end_turn", stopTools: "tool_use", stopMax: "max_tokens"}[stop]
	return []string{
		event("message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": reason, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": u.OutputTokens}}),
	}
}

func (e *anthropicEncoder) close() []string {
	return []string{event("message_stop", map[string]any{"type": "message_stop"})}
}

// errorType is the error type (and OpenAI code) a real server sends with
// status, and a sentence like the one it sends.
func errorType(f Format, status int) (typ, code, msg string) {
	msg = http.StatusText(status)
	switch status {
	case http.StatusBadRequest:
		typ = "invalid_request_error"
	case http.StatusUnauthorized:
		typ, code, msg = "authentication_error", "invalid_api_key", "invalid x-api-key"
		if f == OpenAI {
			typ, msg = "invalid_request_error", "Incorrect API key provided."
		}
	case http.StatusForbidden:
		typ, msg = "permission_error", "Your API key does not have permission to use the specified resource."
	case http.StatusNotFound:
		typ, code, msg = "not_found_error", "model_not_found", "model not found"
		if f == OpenAI {
			typ = "invalid_request_error"
		}
	case http.StatusRequestEntityTooLarge:
		typ, msg = "request_too_large", "Request exceeds the maximum allowed number of bytes."
	case http.StatusTooManyRequests:
		typ, code, msg = "rate_limit_error", "rate_limit_exceeded", "Rate limit reached for requests."
		if f == OpenAI {
			typ = "requests"
		}
	case 529:
		typ, msg = "overloaded_error", "Overloaded"
	case http.StatusGatewayTimeout:
		typ = "timeout_error"
	default:
		typ = "api_error"
		if f == OpenAI {
			typ = "server_error"
		}
	}
	return typ, code, msg
}

// errorBody is the JSON error body f's servers send for status with msg
// ("" for the usual sentence).
func errorBody(f Format, status int, msg string) string {
	typ, code, def := errorType(f, status)
	if msg == "" {
		msg = def
	}
	if f == Anthropic {
		return js(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
	}
	var c any
	if code != "" {
		c = code
	}
	return js(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": c}})
}
