package providertest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Request is one request a fake received. Server fills Method, Path, Header
// and Body; Model also decodes a chat request's JSON into the fields below,
// the same way whichever the format, so a test asserts what was sent
// without knowing the wire shape.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte

	// JSON is the decoded body of a chat request, for assertions on the
	// wire shape itself.
	JSON map[string]any
	// Model is the model the request named.
	Model string
	// System is the system prompt: Anthropic's system parameter, or the
	// system messages of an OpenAI request (joined by blank lines; they are
	// not in Messages).
	System string
	// Messages is the conversation sent, system prompt excluded.
	Messages []Message
	// Tools are the tools offered, in order.
	Tools []Tool
	// MaxTokens is the answer cap the request set (max_completion_tokens,
	// max_tokens), 0 for none.
	MaxTokens int
	// Stream reports whether the request asked for a stream.
	Stream bool
	// Breakpoints say where an Anthropic request put cache_control, in
	// order: "tool:NAME", "system", "message:N" (N counts the API's
	// messages from 0).
	Breakpoints []string
	// ThinkingBudget is an Anthropic request's thinking.budget_tokens (0:
	// thinking not enabled).
	ThinkingBudget int
	// ReasoningEffort is an OpenAI request's reasoning_effort.
	ReasoningEffort string
}

// Message is one message of a recorded request.
type Message struct {
	// Role is "user", "assistant" or "tool" (a tool result; Anthropic's
	// tool_result blocks become one Message each).
	Role    string
	Content string
	// ToolCalls are an assistant message's calls.
	ToolCalls []Call
	// ToolCallID names the call a "tool" message answers.
	ToolCallID string
	// IsError is Anthropic's is_error flag on a tool result (OpenAI's wire
	// has none).
	IsError bool
	// Thinking are the thinking and redacted_thinking blocks an Anthropic
	// assistant message carried back, in order (Ollama's thinking field
	// as one block).
	Thinking []provider.ThinkingBlock
	// ToolRefs are the tool_reference blocks of an Anthropic tool result.
	ToolRefs []string
}

// Call is a tool call in a recorded request.
type Call struct {
	ID   string
	Name string
	// Arguments is the JSON as sent.
	Arguments string
}

// Tool is a tool offered in a recorded request.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema as sent (OpenAI's parameters,
	// Anthropic's input_schema).
	Parameters json.RawMessage
	// Deferred is Anthropic's defer_loading.
	Deferred bool
}

// ToolNames returns the names of the tools offered.
func (r Request) ToolNames() []string {
	out := make([]string, 0, len(r.Tools))
	for _, t := range r.Tools {
		out = append(out, t.Name)
	}
	return out
}

// LastMessage returns the last message sent, or a zero Message.
func (r Request) LastMessage() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// textOf reads content that is a string, null, or a list of blocks of
// which the text ones count.
func textOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type == "text" {
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}

type openAIRequest struct {
	Model               string `json:"model"`
	ReasoningEffort     string `json:"reasoning_effort"`
	MaxTokens           int    `json:"max_tokens"`
	MaxCompletionTokens int    `json:"max_completion_tokens"`
	Stream              bool   `json:"stream"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// decodeOpenAI fills r from a Chat Completions body; includeUsage reports
// stream_options.include_usage.
func decodeOpenAI(r *Request) (includeUsage bool, err error) {
	var in openAIRequest
	if err := json.Unmarshal(r.Body, &in); err != nil {
		return false, err
	}
	r.Model, r.Stream, r.ReasoningEffort = in.Model, in.Stream, in.ReasoningEffort
	r.MaxTokens = max(in.MaxTokens, in.MaxCompletionTokens)
	var system []string
	for _, m := range in.Messages {
		switch m.Role {
		case "system", "developer":
			system = append(system, textOf(m.Content))
		case "tool":
			r.Messages = append(r.Messages, Message{Role: "tool", Content: textOf(m.Content), ToolCallID: m.ToolCallID})
		default:
			msg := Message{Role: m.Role, Content: textOf(m.Content)}
			for _, c := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, Call{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
			}
			r.Messages = append(r.Messages, msg)
		}
	}
	r.System = strings.Join(system, "\n\n")
	for _, t := range in.Tools {
		r.Tools = append(r.Tools, Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return in.StreamOptions.IncludeUsage, nil
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	// CacheControl is a breakpoint on the block.
	CacheControl json.RawMessage `json:"cache_control"`
}

type anthropicRequest struct {
	Model     string `json:"model"`
	MaxTokens int    `json:"max_tokens"`
	Thinking  struct {
		Type         string `json:"type"`
		BudgetTokens int    `json:"budget_tokens"`
	} `json:"thinking"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"input_schema"`
		DeferLoading bool            `json:"defer_loading"`
		CacheControl json.RawMessage `json:"cache_control"`
	} `json:"tools"`
}

// decodeAnthropic fills r from a Messages body.
func decodeAnthropic(r *Request) error {
	var in anthropicRequest
	if err := json.Unmarshal(r.Body, &in); err != nil {
		return err
	}
	r.Model, r.Stream, r.MaxTokens = in.Model, in.Stream, in.MaxTokens
	if in.Thinking.Type == "enabled" {
		r.ThinkingBudget = in.Thinking.BudgetTokens
	}
	r.System = textOf(in.System)
	for _, t := range in.Tools {
		if len(t.CacheControl) > 0 && string(t.CacheControl) != "null" {
			r.Breakpoints = append(r.Breakpoints, "tool:"+t.Name)
		}
	}
	var sysBlocks []anthropicBlock
	if json.Unmarshal(in.System, &sysBlocks) == nil && slices.ContainsFunc(sysBlocks, func(b anthropicBlock) bool { return b.marked() }) {
		r.Breakpoints = append(r.Breakpoints, "system")
	}
	for i, m := range in.Messages {
		var marks []anthropicBlock
		if json.Unmarshal(m.Content, &marks) == nil && slices.ContainsFunc(marks, func(b anthropicBlock) bool { return b.marked() }) {
			r.Breakpoints = append(r.Breakpoints, "message:"+strconv.Itoa(i))
		}
	}
	for _, m := range in.Messages {
		var blocks []anthropicBlock
		if json.Unmarshal(m.Content, &blocks) != nil {
			r.Messages = append(r.Messages, Message{Role: m.Role, Content: textOf(m.Content)})
			continue
		}
		// Text and calls gather into one message of the role; each tool
		// result is a message of its own, in the order sent.
		var cur *Message
		flush := func() {
			if cur != nil {
				r.Messages = append(r.Messages, *cur)
				cur = nil
			}
		}
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				flush()
				r.Messages = append(r.Messages, Message{Role: "tool", Content: textOf(b.Content), ToolCallID: b.ToolUseID, IsError: b.IsError,
					ToolRefs: toolRefsOf(b.Content)})
				continue
			case "text", "tool_use", "thinking", "redacted_thinking":
			default:
				continue
			}
			if cur == nil {
				cur = &Message{Role: m.Role}
			}
			switch b.Type {
			case "thinking":
				cur.Thinking = append(cur.Thinking, provider.ThinkingBlock{Text: b.Thinking, Signature: b.Signature})
				continue
			case "redacted_thinking":
				cur.Thinking = append(cur.Thinking, provider.ThinkingBlock{Redacted: b.Data})
				continue
			}
			if b.Type == "text" {
				cur.Content += b.Text
			} else {
				args := b.Input
				var buf bytes.Buffer
				if json.Compact(&buf, args) == nil {
					args = buf.Bytes()
				}
				cur.ToolCalls = append(cur.ToolCalls, Call{ID: b.ID, Name: b.Name, Arguments: string(args)})
			}
		}
		flush()
	}
	for _, t := range in.Tools {
		r.Tools = append(r.Tools, Tool{Name: t.Name, Description: t.Description, Parameters: t.InputSchema, Deferred: t.DeferLoading})
	}
	return nil
}

func (b anthropicBlock) marked() bool {
	return len(b.CacheControl) > 0 && string(b.CacheControl) != "null"
}

// toolRefsOf lists the tool_reference blocks of a tool result's content.
func toolRefsOf(raw json.RawMessage) []string {
	var blocks []struct {
		Type     string `json:"type"`
		ToolName string `json:"tool_name"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "tool_reference" {
			out = append(out, b.ToolName)
		}
	}
	return out
}
