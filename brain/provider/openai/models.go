package openai

import (
	"context"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// ListModels returns the models the server lists (GET /models), sorted by
// ID; DisplayName is the ID, as the API has no other name. See
// provider.ModelLister.
func (p *Provider) ListModels(ctx context.Context) ([]provider.ModelInfo, error) {
	var x wire.Exchange
	pager := p.models.ListAutoPaging(ctx, option.WithMiddleware(x.Middleware))
	return wire.ListModels(ctx, p.log, wire.NewClassifier(p.name, p.baseURL, p.apiKey, ""), &x, pager,
		func(m sdk.Model) provider.ModelInfo { return provider.ModelInfo{ID: m.ID} })
}
