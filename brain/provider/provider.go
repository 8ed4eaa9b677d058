package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Role of a message in a conversation.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries one tool result (ToolCallID says which call).
	RoleTool Role = "tool"
)

// Message is one entry of the history sent to a model. The system prompt is
// not a message: it travels in Request.System.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID and ToolName identify the call a RoleTool message answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	// IsError marks a tool result that reports a failure.
	IsError bool `json:"isError,omitempty"`
	// ToolRefs name the tools a RoleTool result made callable (a capability
	// it loaded). A provider with deferred tools sends them as references,
	// so loading changes nothing earlier in the request; others ignore them.
	ToolRefs []string `json:"toolRefs,omitempty"`
	// Images are pictures a tool result carries (RoleTool) or the person
	// attached to their message (RoleUser); see images.go for how a
	// provider sends or describes them.
	Images []Image `json:"images,omitempty"`
	// Thinking is the reasoning an assistant message began with. It is
	// never answer text: a provider whose API wants it back (Anthropic's
	// signed blocks within a tool-use turn) sends it in its own form, the
	// others leave it out.
	Thinking []ThinkingBlock `json:"thinking,omitempty"`
}

// ToolCall is one call the model asked for.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the JSON the model wrote (may be invalid JSON: the caller
	// reports that back to the model rather than failing the turn).
	Arguments json.RawMessage `json:"arguments"`
}

// Tool is a tool schema offered to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	// Loadable marks a tool of a capability the conversation loaded (not
	// core or pinned): one a provider with deferred tools takes from
	// Request.Deferrable instead.
	Loadable bool `json:"loadable,omitempty"`
}

// Request is one model request.
type Request struct {
	Model    string
	System   string
	Messages []Message
	// Tools are the tools callable now: core and pinned first in a fixed
	// order, then the loaded capabilities' in the order they were loaded.
	Tools []Tool
	// Deferrable are every tool the conversation may load, in a fixed
	// order that loading does not move. A provider that supports deferred
	// tools declares these as deferred (made callable by Message.ToolRefs)
	// and sends only Tools that are not Loadable beside them; others ignore
	// Deferrable and send Tools.
	Deferrable []Tool
	MaxTokens  int
	// EstimatedTokens is the request's size (system prompt, tools and
	// messages) as the agent estimated it when fitting it, 0 when unknown:
	// a provider that sizes its context to the request (Ollama's num_ctx)
	// takes it instead of counting again.
	EstimatedTokens int
}

// Usage is token accounting for one response.
type Usage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	// CachedTokens are input tokens served from the provider's prompt cache.
	CachedTokens int `json:"cachedTokens,omitempty"`
	// CacheWriteTokens are input tokens the provider wrote to its prompt
	// cache (Anthropic reports them; OpenAI caches without saying).
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
}

// EventType says what a stream event carries.
type EventType string

const (
	// EventText carries a piece of assistant text (Text).
	EventText EventType = "text"
	// EventToolCall carries one complete tool call (ToolCall), emitted when
	// its arguments have fully arrived.
	EventToolCall EventType = "tool_call"
	// EventUsage carries token usage (Usage).
	EventUsage EventType = "usage"
	// EventThinking carries a piece of the model's reasoning (Text): shown
	// apart from the answer, kept, never sent back as answer text.
	EventThinking EventType = "thinking"
	// EventThinkingBlock ends a block of reasoning that must travel back
	// unchanged (Block: Anthropic's signature, or a redacted block's
	// data), after the EventThinking pieces of its text.
	EventThinkingBlock EventType = "thinking_block"
	// EventStatus says what the request is doing while no answer arrives
	// (Status): connecting, loading the model, retrying, thinking. It is
	// for people only and may come from another goroutine (see Provider).
	EventStatus EventType = "status"
	// EventNotice carries a sentence for the person about this request
	// (Text), not part of the answer: "llama2 cannot use tools, so it
	// answers without them".
	EventNotice EventType = "notice"
)

// Event is one streamed piece of a response.
type Event struct {
	Type     EventType
	Text     string
	ToolCall *ToolCall
	Usage    *Usage
	Block    *ThinkingBlock
	Status   *Status
}

// Stop reasons of a Response, normalised across providers.
const (
	// StopEnd: the model finished its answer.
	StopEnd = "end"
	// StopToolUse: the model asked for tool calls.
	StopToolUse = "tool_use"
	// StopMaxTokens: the answer was cut at a length limit (OpenAI's
	// finish_reason "length", Ollama's done_reason "length", Anthropic's
	// stop_reason "max_tokens"): it is incomplete, and a front end offers
	// to continue it.
	StopMaxTokens = "max_tokens"
)

// Response is a whole assistant response, assembled from the stream.
type Response struct {
	Text      string
	ToolCalls []ToolCall
	Usage     Usage
	// Thinking is the reasoning that came with the answer, one block per
	// block the server sent (or one for servers without blocks).
	Thinking []ThinkingBlock
	// StopReason is the provider's reason, normalised: StopEnd,
	// StopToolUse or StopMaxTokens (or the server's own word).
	StopReason string
}

// Provider streams one model response. Implementations call onEvent in
// order and never concurrently; every event but EventStatus comes on the
// calling goroutine (a status may come from a timer's, while the request
// waits), and none comes after Stream returned. An error from onEvent
// aborts the stream and is returned. On failure the returned error is an
// *Error, and the partial Response (text so far) is returned alongside it
// so nothing said is lost.
type Provider interface {
	Name() string
	Stream(ctx context.Context, req Request, onEvent func(Event) error) (*Response, error)
}

// ErrorKind classifies provider failures so the conversation can explain them.
type ErrorKind string

const (
	ErrAuth          ErrorKind = "auth"
	ErrRateLimit     ErrorKind = "rate_limit"
	ErrOverloaded    ErrorKind = "overloaded"
	ErrContextLength ErrorKind = "context_length"
	ErrNetwork       ErrorKind = "network"
	ErrTimeout       ErrorKind = "timeout"
	ErrBadStream     ErrorKind = "bad_stream"
	ErrBadRequest    ErrorKind = "bad_request"
	ErrNotFound      ErrorKind = "not_found"
	ErrUnavailable   ErrorKind = "unavailable"
	ErrCanceled      ErrorKind = "canceled"
)

// Error is a normalised provider failure.
type Error struct {
	Kind ErrorKind
	// Provider is the provider's name ("openai", "anthropic").
	Provider string
	// Status is the HTTP status, when there was one.
	Status int
	// Message is a plain sentence for the user, saying what to do.
	Message string
	// RetryAfter is the server's requested wait, when it sent one.
	RetryAfter time.Duration
	// Detail narrows Kind where the fix differs (a refused connection and
	// a server error are both ErrUnavailable); "" when nothing more is known.
	Detail ErrorDetail
	// Local reports that the server is on this computer (a loopback
	// address): nothing there to wait for when it refuses.
	Local bool
	// Waited is how long a timeout waited (DetailStalled, DetailNoStart),
	// so the hint can suggest a longer one.
	Waited time.Duration
	Err    error
}

// ErrorDetail says more about a failure than its kind, for the hint that
// goes with it.
type ErrorDetail string

const (
	// DetailRefused: nothing listens at the base URL's address.
	DetailRefused ErrorDetail = "refused"
	// DetailHostNotFound: the base URL's host name does not resolve.
	DetailHostNotFound ErrorDetail = "host_not_found"
	// DetailNotAPI: a web page (HTML) answered instead of a model API, so
	// the base URL points at the wrong place.
	DetailNotAPI ErrorDetail = "not_api"
	// DetailStalled: the answer stopped arriving for the idle timeout.
	DetailStalled ErrorDetail = "stalled"
	// DetailNoStart: the server did not start answering in the time
	// allowed.
	DetailNoStart ErrorDetail = "no_start"
	// DetailServer: the server answered with a 5xx error of its own.
	DetailServer ErrorDetail = "server"
	// DetailBadURL: the base URL cannot be used for a request.
	DetailBadURL ErrorDetail = "bad_url"
)

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%s (%s, HTTP %d): %s", e.Provider, e.Kind, e.Status, e.Message)
	}
	return fmt.Sprintf("%s (%s): %s", e.Provider, e.Kind, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether trying again later may succeed. A server on
// this computer that refused the connection is not running: waiting will
// not start it. A stream that stalled is not retried either: the person
// decides, with the note saying how long it waited.
func (e *Error) Retryable() bool {
	if e.Detail == DetailRefused && e.Local || e.Detail == DetailStalled || e.Detail == DetailNoStart || e.Detail == DetailNotAPI {
		return false
	}
	switch e.Kind {
	case ErrRateLimit, ErrOverloaded, ErrNetwork, ErrTimeout, ErrUnavailable:
		return true
	}
	return false
}

// KindOf returns the ErrorKind of err, or "" when it is not an *Error.
func KindOf(err error) ErrorKind {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return ""
}
