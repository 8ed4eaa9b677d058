package wire

import (
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
		Cls:   &Classifier{Provider: name, BaseURL: baseURL, Model: model, Secrets: []string{apiKey}, Now: time.Now},
		B:     NewBuilder(onEvent),
	}
	if model == "" {
		return c, &provider.Error{Kind: provider.ErrBadRequest, Provider: name,
			Message: "no model is chosen: set one with `wrasse config set model NAME` or in config.json"}
	}
	return c, nil
}

// BadParams is the error for a request the SDK's parameters could not hold.
func BadParams(name string, err error) *provider.Error {
	return &provider.Error{Kind: provider.ErrBadRequest, Provider: name,
		Message: "could not build the request: " + err.Error(), Err: err}
}
