package openai

import (
	"context"
	"encoding/json"
	"slices"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// ListModels returns the models the server lists (GET /models), sorted by
// ID; DisplayName is the ID, as the API has no other name. What a server
// adds to the list is read too: the window (vLLM's max_model_len,
// OpenRouter's context_length) and OpenRouter's abilities
// (supported_parameters, input_modalities). A server on this computer
// that serves LM Studio's /api/v0/models adds its types, capabilities and
// windows. See provider.ModelLister.
func (p *Provider) ListModels(ctx context.Context) ([]provider.ModelInfo, error) {
	var x wire.Exchange
	pager := p.models.ListAutoPaging(ctx, option.WithMiddleware(x.Middleware))
	models, err := wire.ListModels(ctx, p.log, wire.NewClassifier(p.name, p.baseURL, p.apiKey, ""), &x, pager, listedModel)
	if err != nil || !p.local {
		return models, err
	}
	p.addLMStudio(ctx, models)
	return models, nil
}

// listedModel reads one entry of the model list.
func listedModel(m sdk.Model) provider.ModelInfo {
	mi := provider.ModelInfo{ID: m.ID}
	if w, ok := listedWindow(m); ok {
		mi.ContextWindow = w.Tokens
	}
	var params []string
	if raw, ok := m.JSON.ExtraFields["supported_parameters"]; ok && json.Unmarshal([]byte(raw.Raw()), &params) == nil {
		mi.Abilities = []provider.Ability{}
		if slices.Contains(params, "tools") {
			mi.Abilities = append(mi.Abilities, provider.AbilityTools)
		}
		var arch struct {
			In []string `json:"input_modalities"`
		}
		if raw, ok := m.JSON.ExtraFields["architecture"]; ok && json.Unmarshal([]byte(raw.Raw()), &arch) == nil && slices.Contains(arch.In, "image") {
			mi.Abilities = append(mi.Abilities, provider.AbilityVision)
		}
		if slices.Contains(params, "reasoning") {
			mi.Abilities = append(mi.Abilities, provider.AbilityThinking)
		}
	}
	return mi
}

// addLMStudio fills in what LM Studio's own list says about models, when
// the server is LM Studio.
func (p *Provider) addLMStudio(ctx context.Context, models []provider.ModelInfo) {
	var list struct {
		Data []struct {
			ID           string   `json:"id"`
			Type         string   `json:"type"`
			Capabilities []string `json:"capabilities"`
			Max          int      `json:"max_context_length"`
			Loaded       int      `json:"loaded_context_length"`
		} `json:"data"`
	}
	if wire.GetJSON(ctx, p.http, serverRoot(p.base)+"/api/v0/models", p.authHeader(), &list) != nil {
		return
	}
	for _, d := range list.Data {
		i := slices.IndexFunc(models, func(m provider.ModelInfo) bool { return m.ID == d.ID })
		if i < 0 {
			continue
		}
		m := &models[i]
		m.Abilities = []provider.Ability{}
		if slices.Contains(d.Capabilities, "tool_use") {
			m.Abilities = append(m.Abilities, provider.AbilityTools)
		}
		switch d.Type {
		case "vlm":
			m.Abilities = append(m.Abilities, provider.AbilityVision)
		case "embeddings":
			m.Abilities = append(m.Abilities, provider.AbilityEmbedding)
		}
		m.ContextWindow = d.Max
		if d.Loaded > 0 {
			m.ContextWindow = d.Loaded
		}
	}
}
