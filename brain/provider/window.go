package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// WindowSource says where a context window figure came from.
type WindowSource string

const (
	// WindowConfig: contextWindow in config.json, which overrides the rest.
	WindowConfig WindowSource = "config"
	// WindowServer: the server said (Window.From names how).
	WindowServer WindowSource = "server"
	// WindowKnown: Wrasse's table of well-known models (KnownWindow).
	WindowKnown WindowSource = "known"
	// WindowDefault: nothing said; a fallback that may be wrong.
	WindowDefault WindowSource = "default"
)

// Window is a model's context window in tokens and where the figure
// came from; the status gauge shows both.
type Window struct {
	Tokens int          `json:"tokens"`
	Source WindowSource `json:"source"`
	// From names the figure's origin for people: "Ollama /api/show",
	// "LM Studio /api/v0/models", "vLLM max_model_len", "config.json".
	From string `json:"from,omitempty"`
}

// String renders the window for people: "131,072 tokens (Ollama /api/show)".
func (w Window) String() string {
	from := w.From
	if from == "" {
		from = string(w.Source)
	}
	return fmt.Sprintf("%s tokens (%s)", groupDigits(w.Tokens), from)
}

// WindowReader is implemented by providers that can learn a model's
// context window from their server (or know it). Results are cached per
// model for the provider's life, so a turn after the first costs no
// request. Prefer the ContextWindow function, which sees through wrappers.
type WindowReader interface {
	// ContextWindow returns model's window; ErrNoWindow when the server
	// does not say and the model is not a known one.
	ContextWindow(ctx context.Context, model string) (Window, error)
}

// ErrNoWindow reports a model whose context window nobody said.
var ErrNoWindow = errors.New("the server does not say how long this model's context window is")

// ContextWindow asks p, or a provider it wraps, for model's window.
func ContextWindow(ctx context.Context, p Provider, model string) (Window, error) {
	for p != nil {
		if r, ok := p.(WindowReader); ok {
			return r.ContextWindow(ctx, model)
		}
		u, ok := p.(Unwrapper)
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	return Window{}, ErrNoWindow
}

// knownWindows are the context windows of hosted models whose servers do
// not list them, by model name prefix (the longest matching prefix wins).
// Figures are the vendors' published ones.
var knownWindows = []struct {
	prefix string
	tokens int
}{
	{"gpt-3.5-turbo", 16385},
	{"gpt-4", 8192},
	{"gpt-4-turbo", 128000},
	{"gpt-4o", 128000},
	{"gpt-4.1", 1047576},
	{"gpt-4.5", 128000},
	{"gpt-5", 400000},
	{"o1", 200000},
	{"o1-mini", 128000},
	{"o3", 200000},
	{"o4-mini", 200000},
	{"chatgpt-4o", 128000},
	{"claude-", 200000},
	{"claude-2", 100000},
	{"deepseek-chat", 128000},
	{"deepseek-reasoner", 128000},
	{"gemini-1.5-pro", 2097152},
	{"gemini-1.5-flash", 1048576},
	{"gemini-2", 1048576},
	{"llama-3.1-8b-instant", 131072},
	{"llama-3.3-70b-versatile", 131072},
}

// KnownWindow returns the context window of a well-known hosted model
// (OpenAI, Anthropic, DeepSeek, Gemini, Groq's Llama), matching the name
// without a vendor prefix ("openai/gpt-4o" is gpt-4o).
func KnownWindow(model string) (int, bool) {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best, tokens := 0, 0
	for _, k := range knownWindows {
		if strings.HasPrefix(name, k.prefix) && len(k.prefix) > best {
			best, tokens = len(k.prefix), k.tokens
		}
	}
	return tokens, best > 0
}

// groupDigits renders n with thousands separators: 131072 → "131,072".
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
