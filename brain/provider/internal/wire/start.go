package wire

import (
	"context"
	"log/slog"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Call is what every provider's Stream starts from: the model to use, the
// classifier for its errors and the builder of its response.
type Call struct {
	Model string
	Cls   *Classifier
	B     *Builder
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

// NewClassifier returns the classifier for a request that is not a Stream
// (a model listing): model is "" when the request names none.
func NewClassifier(name, baseURL, apiKey, model string) *Classifier {
	return &Classifier{Provider: name, BaseURL: baseURL, Model: model, Secrets: []string{apiKey}, Now: time.Now}
}
