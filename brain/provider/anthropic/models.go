package anthropic

import (
	"context"
	"errors"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// ListModels returns the models the API lists (GET /v1/models, every
// page), sorted by ID, with their display names, context windows
// (max_input_tokens) and abilities. See provider.ModelLister.
func (p *Provider) ListModels(ctx context.Context) ([]provider.ModelInfo, error) {
	var x wire.Exchange
	pager := p.models.ListAutoPaging(ctx, sdk.ModelListParams{}, option.WithMiddleware(x.Middleware))
	return wire.ListModels(ctx, p.log, wire.NewClassifier(p.name, p.baseURL, p.apiKey, ""), &x, pager, modelInfo)
}

// modelInfo maps the API's description of a model. Every Claude model
// calls tools; the capabilities say the rest, when the API sends them.
func modelInfo(m sdk.ModelInfo) provider.ModelInfo {
	mi := provider.ModelInfo{ID: m.ID, DisplayName: m.DisplayName, ContextWindow: int(m.MaxInputTokens)}
	if m.JSON.Capabilities.Valid() {
		mi.Abilities = []provider.Ability{provider.AbilityTools}
		if m.Capabilities.ImageInput.Supported {
			mi.Abilities = append(mi.Abilities, provider.AbilityVision)
		}
		if m.Capabilities.Thinking.Supported {
			mi.Abilities = append(mi.Abilities, provider.AbilityThinking)
		}
	}
	return mi
}

// ContextWindow returns model's context window: max_input_tokens from
// GET /v1/models/{model}, else the published figure. See
// provider.WindowReader.
func (p *Provider) ContextWindow(ctx context.Context, model string) (provider.Window, error) {
	if model == "" {
		model = p.model
	}
	return p.windows.Get(ctx, model, func(ctx context.Context) (provider.Window, error) {
		ctx, cancel := context.WithTimeout(ctx, wire.DiscoveryTimeout)
		defer cancel()
		info, err := p.models.Get(ctx, model, sdk.ModelGetParams{})
		if err == nil && info.MaxInputTokens > 0 {
			return provider.Window{Tokens: int(info.MaxInputTokens), Source: provider.WindowServer, From: "Anthropic /v1/models max_input_tokens"}, nil
		}
		if n, ok := provider.KnownWindow(model); ok {
			return provider.Window{Tokens: n, Source: provider.WindowKnown, From: "published figure for " + model}, nil
		}
		var ae *sdk.Error
		if err != nil && !errors.As(err, &ae) && ctx.Err() == nil {
			// The server could not be reached: ask again later.
			return provider.Window{}, wire.NewClassifier(p.name, p.baseURL, p.apiKey, model).Transport(err, false)
		}
		return provider.Window{}, provider.ErrNoWindow
	})
}

// WindowDiscoveries returns how many discoveries the provider ran.
func (p *Provider) WindowDiscoveries() int { return p.windows.Discoveries() }

var _ provider.WindowReader = (*Provider)(nil)
