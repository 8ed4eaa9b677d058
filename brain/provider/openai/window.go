package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// Context windows. OpenAI-compatible servers say a model's window in
// places of their own, tried in this order:
//
//   - a hosted API whose models Wrasse knows (OpenAI, Anthropic's, Groq,
//     DeepSeek, Gemini): the published figure, no request;
//   - the model list (GET /models): vLLM's max_model_len, OpenRouter's
//     context_length;
//   - Ollama (port 11434, or /api/version answers): its /v1 endpoint runs
//     every request in the server's default context, 4,096 tokens unless
//     the model is loaded with more (/api/ps), whatever the model could
//     take, and cuts longer prompts from the start;
//   - llama.cpp's /props: default_generation_settings.n_ctx, the context
//     each request gets;
//   - LM Studio's /api/v0/models/{model}: the loaded context length, else
//     max_context_length;
//   - the known models again by name (a gateway serving gpt-4o).
//
// Each answer is kept for the provider's life (wire.WindowCache).

type windowCache = *wire.WindowCache

func newWindowCache(clock provider.Clock) windowCache { return wire.NewWindowCache(clock) }

// OllamaDefaultContext is the context Ollama's OpenAI-compatible endpoint
// gives a request when the server's operator set none
// (OLLAMA_CONTEXT_LENGTH): it ignores num_ctx.
const OllamaDefaultContext = 4096

// ContextWindow returns model's context window. See provider.WindowReader.
func (p *Provider) ContextWindow(ctx context.Context, model string) (provider.Window, error) {
	if model == "" {
		model = p.model
	}
	return p.windows.Get(ctx, model, func(ctx context.Context) (provider.Window, error) {
		return p.discoverWindow(ctx, model)
	})
}

// WindowDiscoveries returns how many discoveries the provider ran (one per
// model at most, unless a server was down): for tests and wrasse-bench.
func (p *Provider) WindowDiscoveries() int { return p.windows.Discoveries() }

func (p *Provider) discoverWindow(ctx context.Context, model string) (provider.Window, error) {
	if hosted(p.baseURL) {
		if n, ok := provider.KnownWindow(model); ok {
			return provider.Window{Tokens: n, Source: provider.WindowKnown, From: "published figure for " + model}, nil
		}
	}
	var lastErr error
	if w, ok, err := p.windowFromList(ctx, model); ok {
		return w, nil
	} else if err != nil {
		lastErr = err
	}
	root := serverRoot(p.base)
	if w, ok := p.ollamaWindow(ctx, root, model); ok {
		return w, nil
	}
	var props struct {
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if wire.GetJSON(ctx, p.http, root+"/props", p.authHeader(), &props) == nil && props.Settings.NCtx > 0 {
		return provider.Window{Tokens: props.Settings.NCtx, Source: provider.WindowServer, From: "llama.cpp /props n_ctx"}, nil
	}
	var lms struct {
		Loaded int `json:"loaded_context_length"`
		Max    int `json:"max_context_length"`
	}
	if wire.GetJSON(ctx, p.http, root+"/api/v0/models/"+url.PathEscape(model), p.authHeader(), &lms) == nil {
		if lms.Loaded > 0 {
			return provider.Window{Tokens: lms.Loaded, Source: provider.WindowServer, From: "LM Studio loaded_context_length"}, nil
		}
		if lms.Max > 0 {
			return provider.Window{Tokens: lms.Max, Source: provider.WindowServer, From: "LM Studio /api/v0/models max_context_length"}, nil
		}
	}
	if n, ok := provider.KnownWindow(model); ok {
		return provider.Window{Tokens: n, Source: provider.WindowKnown, From: "published figure for " + model}, nil
	}
	if lastErr != nil && ctx.Err() == nil {
		var pe *provider.Error
		if errors.As(lastErr, &pe) && (pe.Kind == provider.ErrUnavailable || pe.Kind == provider.ErrNetwork || pe.Kind == provider.ErrTimeout) {
			return provider.Window{}, lastErr
		}
	}
	return provider.Window{}, provider.ErrNoWindow
}

// windowFromList looks for model in GET /models and reads the window a
// server puts there; err is set when the list could not be had.
func (p *Provider) windowFromList(ctx context.Context, model string) (provider.Window, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, wire.DiscoveryTimeout)
	defer cancel()
	pager := p.models.ListAutoPaging(ctx)
	for n := 0; n < wire.MaxModels && pager.Next(); n++ {
		m := pager.Current()
		if m.ID != model {
			continue
		}
		if w, ok := listedWindow(m); ok {
			return w, true, nil
		}
		return provider.Window{}, false, nil
	}
	if err := pager.Err(); err != nil {
		return provider.Window{}, false, p.classifyList(ctx, err)
	}
	return provider.Window{}, false, nil
}

// classifyList turns a list failure into a *provider.Error.
func (p *Provider) classifyList(ctx context.Context, err error) error {
	cls := wire.NewClassifier(p.name, p.baseURL, p.apiKey, "")
	if perr := cls.Context(ctx, err); perr != nil {
		return perr
	}
	var ae *sdk.Error
	if errors.As(err, &ae) {
		return cls.Status(ae.StatusCode, nil, []byte(ae.RawJSON()), err)
	}
	return cls.Transport(err, false)
}

// listedWindow reads the window fields servers add to a model listing:
// vLLM's max_model_len, OpenRouter's context_length.
func listedWindow(m sdk.Model) (provider.Window, bool) {
	for _, f := range []struct{ field, from string }{
		{"max_model_len", "vLLM /models max_model_len"},
		{"context_length", "/models context_length"},
		{"max_context_length", "/models max_context_length"},
	} {
		raw, ok := m.JSON.ExtraFields[f.field]
		if !ok {
			continue
		}
		var n int
		if json.Unmarshal([]byte(raw.Raw()), &n) == nil && n > 0 {
			return provider.Window{Tokens: n, Source: provider.WindowServer, From: f.from}, true
		}
	}
	return provider.Window{}, false
}

// ollamaWindow recognises Ollama behind the base URL and returns the
// context its /v1 endpoint gives model: the loaded runner's, else the
// server default.
func (p *Provider) ollamaWindow(ctx context.Context, root, model string) (provider.Window, bool) {
	u, err := url.Parse(root)
	if err != nil {
		return provider.Window{}, false
	}
	var version struct {
		Version string `json:"version"`
	}
	if u.Port() != "11434" && wire.GetJSON(ctx, p.http, root+"/api/version", nil, &version) != nil {
		return provider.Window{}, false
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if err := wire.GetJSON(ctx, p.http, root+"/api/ps", nil, &ps); err != nil && u.Port() != "11434" {
		return provider.Window{}, false
	}
	for _, m := range ps.Models {
		if (m.Name == model || m.Model == model || strings.TrimSuffix(m.Name, ":latest") == model) && m.ContextLength > 0 {
			return provider.Window{Tokens: m.ContextLength, Source: provider.WindowServer,
				From: "Ollama /v1 (the loaded model's context; the endpoint ignores num_ctx)"}, true
		}
	}
	return provider.Window{Tokens: OllamaDefaultContext, Source: provider.WindowServer,
		From: "Ollama /v1 (server default context; the endpoint ignores num_ctx)"}, true
}

// authHeader is the key as a bearer token, for requests the SDK does not
// send.
func (p *Provider) authHeader() http.Header {
	h := http.Header{}
	if p.apiKey != "" {
		h.Set("Authorization", "Bearer "+p.apiKey)
	}
	return h
}

// serverRoot is base without a trailing /v1: where llama.cpp, LM Studio
// and Ollama serve their own endpoints.
func serverRoot(base string) string {
	return strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1")
}

// hosted reports a hosted API whose models' windows are published and
// whose model list does not say them.
func hosted(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Hostname()) {
	case "api.openai.com", "api.deepseek.com", "api.groq.com", "generativelanguage.googleapis.com", "api.anthropic.com":
		return true
	}
	return false
}

var _ provider.WindowReader = (*Provider)(nil)
