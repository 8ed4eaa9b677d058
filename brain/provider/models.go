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
	// Abilities are what the server says the model can do; nil when it
	// does not say (then nothing is known, not nothing possible).
	Abilities []Ability `json:"abilities,omitempty"`
	// ContextWindow is the model's window in tokens as the server lists
	// it; 0 when it does not.
	ContextWindow int `json:"contextWindow,omitempty"`
	// Size is the model's size on disk in bytes (local servers); 0 unknown.
	Size int64 `json:"size,omitempty"`
	// Details are the server's short facts for people: "8.0B Q4_K_M".
	Details string `json:"details,omitempty"`
}

// Ability is something a model can do.
type Ability string

const (
	// AbilityTools: the model calls tools.
	AbilityTools Ability = "tools"
	// AbilityVision: the model reads images.
	AbilityVision Ability = "vision"
	// AbilityThinking: the model reasons before answering, apart from the
	// answer.
	AbilityThinking Ability = "thinking"
	// AbilityEmbedding: the model makes embeddings, not chat.
	AbilityEmbedding Ability = "embedding"
)

// Can reports whether the server says the model has ability a.
func (m ModelInfo) Can(a Ability) bool {
	for _, x := range m.Abilities {
		if x == a {
			return true
		}
	}
	return false
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
