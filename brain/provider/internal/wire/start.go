package wire

import (
	"context"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Call is what every provider's Stream starts from: the model to use, the
// classifier for its errors and the builder of its response.
type Call struct {
	Model string
	Cls   *Classifier
	B     *Builder
	// W watches the request once Watch started it.
	W *Watch
}

// Start resolves the model (the request's, else the provider's default)
// and prepares a Call. With no model at all it returns the Call and the
// error to hand back, so the caller returns B.Response() with it.
func Start(name, baseURL, apiKey, reqModel, defModel string, onEvent func(provider.Event) error) (*Call, *provider.Error) {
	model := reqModel
	if model == "" {
		model = defModel
	}
	c := &Call{
		Model: model,
		Cls:   NewClassifier(name, baseURL, apiKey, model),
		B:     NewBuilder(onEvent),
	}
	if model == "" {
		return c, &provider.Error{Kind: provider.ErrBadRequest, Provider: name,
			Message: "no model is chosen: choose one in the model settings"}
	}
	return c, nil
}

// BadParams is the error for a request the SDK's parameters could not hold.
func BadParams(name string, err error) *provider.Error {
	return &provider.Error{Kind: provider.ErrBadRequest, Provider: name,
		Message: "could not build the request: " + err.Error(), Err: err}
}

// Done closes a successful stream: it finishes the response with the
// provider's stop reason and logs its usage (never its content).
func (c *Call) Done(ctx context.Context, log *slog.Logger, stop string) (*provider.Response, error) {
	if err := c.B.Finish(stop); err != nil {
		return Fail(ctx, log, c.B, c.Cls, err)
	}
	resp := c.B.Response()
	log.DebugContext(ctx, "model response", "model", c.Model, "stop", resp.StopReason,
		"input_tokens", resp.Usage.InputTokens, "output_tokens", resp.Usage.OutputTokens,
		"cached_tokens", resp.Usage.CachedTokens, "tool_calls", len(resp.ToolCalls))
	return resp, nil
}

// ServerName names the server at base for statuses: "Ollama",
// "OpenAI", "LM Studio", else its host ("gpu-box:8000").
func ServerName(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Host == "" {
		return "the server"
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "api.openai.com":
		return "OpenAI"
	case host == "api.anthropic.com":
		return "Anthropic"
	case host == "openrouter.ai":
		return "OpenRouter"
	case host == "api.groq.com":
		return "Groq"
	case host == "api.deepseek.com":
		return "DeepSeek"
	case host == "api.mistral.ai":
		return "Mistral"
	case strings.HasSuffix(host, "generativelanguage.googleapis.com"):
		return "Gemini"
	case u.Port() == "11434":
		return "Ollama"
	case IsLocal(base) && u.Port() == "1234":
		return "LM Studio"
	}
	return u.Host
}

// NewClassifier returns the classifier for a request that is not a Stream
// (a model listing): model is "" when the request names none.
func NewClassifier(name, baseURL, apiKey, model string) *Classifier {
	return &Classifier{Provider: name, BaseURL: baseURL, Model: model, Secrets: []string{apiKey}, Now: time.Now}
}

// Watch starts watching the call's request (see NewWatch) and returns the
// context to send it with. Stop the Watch (c.W.Stop) when the call ends.
func (c *Call) Watch(ctx context.Context, cfg WatchConfig) context.Context {
	cfg.Builder = c.B
	if cfg.Model == "" {
		cfg.Model = c.Model
	}
	wctx, w := NewWatch(ctx, cfg)
	c.W = w
	return wctx
}

// Fired returns the error to end the call with when its Watch ended the
// request (a stall, no start, a status the caller refused), or nil, also
// when the Watch found the stream complete (see Complete).
func (c *Call) Fired() error {
	if c.W == nil {
		return nil
	}
	switch e := c.W.Fired().(type) {
	case nil:
		return nil
	case *Expired:
		if e.Kind == ExpiredAfterFinish {
			return nil
		}
		return c.Cls.Expired(e, c.B.Shown())
	default:
		return e
	}
}

// Complete reports whether the Watch ended a stream that had given its
// finish reason, which makes it whole.
func (c *Call) Complete() bool { return c.W != nil && c.W.Complete() }
