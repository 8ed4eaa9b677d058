package provider

import (
	"context"
	"fmt"
)

// ModelInfo is one model a server offers.
type ModelInfo struct {
	// ID is what Request.Model names.
	ID string `json:"id"`
	// DisplayName is the server's name for people ("Claude Sonnet 4.5");
	// the ID when the server gives none (OpenAI-compatible servers).
	DisplayName string `json:"displayName"`
}

// ModelLister is implemented by providers whose server lists its models
// (both the openai and anthropic providers). Prefer the ListModels
// function, which also sees through wrappers such as WithRetry.
type ModelLister interface {
	// ListModels returns the models, sorted by ID. On failure the error is
	// an *Error, classified like a Stream failure.
	ListModels(ctx context.Context) ([]ModelInfo, error)
}

// Unwrapper is implemented by providers that wrap another (WithRetry).
type Unwrapper interface {
	Unwrap() Provider
}

// ListModels lists p's models when p, or a provider it wraps, is a
// ModelLister; otherwise it returns ErrNoModelList.
func ListModels(ctx context.Context, p Provider) ([]ModelInfo, error) {
	for p != nil {
		if l, ok := p.(ModelLister); ok {
			return l.ListModels(ctx)
		}
		u, ok := p.(Unwrapper)
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	if p == nil {
		return nil, fmt.Errorf("list models: %w", ErrNoProvider)
	}
	return nil, fmt.Errorf("%s: %w", p.Name(), ErrNoModelList)
}
