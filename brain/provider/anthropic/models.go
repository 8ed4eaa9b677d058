package anthropic

import (
	"context"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// ListModels returns the models the API lists (GET /v1/models, every
// page), sorted by ID, with their display names. See
// provider.ModelLister.
func (p *Provider) ListModels(ctx context.Context) ([]provider.ModelInfo, error) {
	var x wire.Exchange
	pager := p.models.ListAutoPaging(ctx, sdk.ModelListParams{}, option.WithMiddleware(x.Middleware))
	return wire.ListModels(ctx, p.log, wire.NewClassifier(p.name, p.baseURL, p.apiKey, ""), &x, pager,
		func(m sdk.ModelInfo) provider.ModelInfo {
			return provider.ModelInfo{ID: m.ID, DisplayName: m.DisplayName}
		})
}
