package ollama

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// modelFacts is what /api/show says about a model.
type modelFacts struct {
	caps []model.Capability
	// maxCtx is model_info.<arch>.context_length, 0 when absent.
	maxCtx int
	family string
	// details are "8.0B Q4_K_M".
	details string
}

func (f *modelFacts) can(c model.Capability) bool { return slices.Contains(f.caps, c) }

// abilities maps the capabilities onto provider.Abilities.
func (f *modelFacts) abilities() []provider.Ability {
	out := []provider.Ability{}
	for _, c := range []struct {
		cap model.Capability
		a   provider.Ability
	}{{model.CapabilityTools, provider.AbilityTools}, {model.CapabilityVision, provider.AbilityVision},
		{model.CapabilityThinking, provider.AbilityThinking}, {model.CapabilityEmbedding, provider.AbilityEmbedding}} {
		if f.can(c.cap) {
			out = append(out, c.a)
		}
	}
	return out
}

// show returns /api/show's facts about name, asked once per model for the
// provider's life (a failure is not kept).
func (p *Provider) show(ctx context.Context, name string) (*modelFacts, error) {
	p.mu.Lock()
	f, ok := p.shows[name]
	p.mu.Unlock()
	if ok {
		return f, nil
	}
	ctx, cancel := context.WithTimeout(ctx, wire.DiscoveryTimeout)
	defer cancel()
	p.mu.Lock()
	p.showRequests++
	p.mu.Unlock()
	var x wire.Exchange
	res, err := p.client.Show(wire.WithExchange(ctx, &x), &api.ShowRequest{Model: name})
	if err != nil {
		return nil, p.classify(ctx, p.classifier(name), err, &x)
	}
	f = factsOf(res)
	p.mu.Lock()
	p.shows[name] = f
	p.mu.Unlock()
	return f, nil
}

// factsOf reads a show response.
func factsOf(res *api.ShowResponse) *modelFacts {
	f := &modelFacts{caps: res.Capabilities, family: res.Details.Family}
	arch, _ := res.ModelInfo["general.architecture"].(string)
	if n, ok := number(res.ModelInfo[arch+".context_length"]); ok && arch != "" {
		f.maxCtx = n
	} else {
		// An architecture key Wrasse did not guess: any context_length.
		for k, v := range res.ModelInfo {
			if strings.HasSuffix(k, ".context_length") {
				if n, ok := number(v); ok {
					f.maxCtx = n
					break
				}
			}
		}
	}
	f.details = strings.TrimSpace(res.Details.ParameterSize + " " + res.Details.QuantizationLevel)
	return f
}

func number(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		return int(n), n > 0
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil && i > 0
	case int:
		return n, n > 0
	}
	return 0, false
}

// ShowRequests returns how many /api/show requests the provider sent: for
// tests and wrasse-bench.
func (p *Provider) ShowRequests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.showRequests
}

// ContextWindow returns model's window: the configured contextWindow,
// else the model's own maximum from /api/show. See provider.WindowReader.
func (p *Provider) ContextWindow(ctx context.Context, name string) (provider.Window, error) {
	if name == "" {
		name = p.model
	}
	if p.window > 0 {
		return provider.Window{Tokens: p.window, Source: provider.WindowConfig, From: "contextWindow in config.json"}, nil
	}
	f, err := p.show(ctx, name)
	if err != nil {
		return provider.Window{}, err
	}
	if f.maxCtx <= 0 {
		return provider.Window{}, provider.ErrNoWindow
	}
	return provider.Window{Tokens: f.maxCtx, Source: provider.WindowServer, From: "Ollama /api/show"}, nil
}

// ListModels returns the installed models (/api/tags), sorted by name,
// each with what /api/show says it can do and its window. See
// provider.ModelLister.
func (p *Provider) ListModels(ctx context.Context) ([]provider.ModelInfo, error) {
	var x wire.Exchange
	res, err := p.client.List(wire.WithExchange(ctx, &x))
	if err != nil {
		return nil, p.classify(ctx, p.classifier(""), err, &x)
	}
	out := make([]provider.ModelInfo, 0, len(res.Models))
	for _, m := range res.Models {
		mi := provider.ModelInfo{ID: m.Name, DisplayName: m.Name, Size: m.Size,
			Details: strings.TrimSpace(m.Details.ParameterSize + " " + m.Details.QuantizationLevel)}
		if f, err := p.show(ctx, m.Name); err == nil {
			mi.Abilities, mi.ContextWindow = f.abilities(), f.maxCtx
		} else if ctx.Err() != nil {
			return nil, err
		}
		out = append(out, mi)
	}
	slices.SortFunc(out, func(a, b provider.ModelInfo) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// Loaded is a model the server holds in memory.
type Loaded struct {
	Name string
	// ContextLength is the num_ctx it was loaded with.
	ContextLength int
	// Size and VRAM are its memory in bytes, all and on the GPU.
	Size, VRAM int64
}

// Running lists the models the server holds in memory (/api/ps).
func (p *Provider) Running(ctx context.Context) ([]Loaded, error) {
	var x wire.Exchange
	res, err := p.client.ListRunning(wire.WithExchange(ctx, &x))
	if err != nil {
		return nil, p.classify(ctx, p.classifier(""), err, &x)
	}
	out := make([]Loaded, 0, len(res.Models))
	for _, m := range res.Models {
		out = append(out, Loaded{Name: m.Name, ContextLength: m.ContextLength, Size: m.Size, VRAM: m.SizeVRAM})
	}
	return out, nil
}

// sameModel reports whether a name from the server is model, allowing
// for the ":latest" Ollama adds to a name without a tag.
func sameModel(a, b string) bool {
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return norm(a) == norm(b)
}

// Version returns the server's version (/api/version).
func (p *Provider) Version(ctx context.Context) (string, error) {
	var x wire.Exchange
	v, err := p.client.Version(wire.WithExchange(ctx, &x))
	if err != nil {
		return "", p.classify(ctx, p.classifier(""), err, &x)
	}
	return v, nil
}

// classify turns a client error into a *provider.Error; x is what the
// transport saw of the response (WithExchange).
func (p *Provider) classify(ctx context.Context, cls *wire.Classifier, err error, x *wire.Exchange) *provider.Error {
	if perr := cls.Context(ctx, err); perr != nil {
		return perr
	}
	responded, contentType := x.Responded(), x.ContentType()
	var se api.StatusError
	var ae api.AuthorizationError
	var urlErr *url.Error
	var netErr net.Error
	switch {
	case errors.As(err, &se):
		body, _ := json.Marshal(map[string]string{"error": se.ErrorMessage})
		if wire.IsHTML(contentType, x.Body) {
			body = x.Body
		}
		pe := cls.Status(se.StatusCode, x.Header, body, err)
		if tooLong(se.ErrorMessage) {
			// The runner refuses a prompt longer than num_ctx (truncate
			// was false), whatever status the server relays it with.
			pe.Kind = provider.ErrContextLength
		}
		return pe
	case errors.As(err, &ae):
		return cls.Status(ae.StatusCode, nil, nil, err)
	case errors.As(err, &urlErr), errors.As(err, &netErr):
		return cls.Transport(err, responded)
	}
	var syntax *json.SyntaxError
	switch {
	case wire.IsHTML(contentType, nil) || wire.IsHTML("", []byte(err.Error())):
		return cls.NotAPI(x.Status, err)
	case errors.As(err, &syntax):
		return cls.BadStream("an answer was not valid JSON", responded, err)
	case responded:
		// The server's own error, sent as a line of the stream.
		body, _ := json.Marshal(map[string]string{"error": err.Error()})
		pe := cls.Event(body, err)
		if tooLong(err.Error()) {
			pe.Kind = provider.ErrContextLength
		}
		return pe
	}
	return cls.Transport(err, responded)
}

// tooLong reports Ollama's refusal of a prompt longer than the context.
func tooLong(msg string) bool {
	return strings.Contains(strings.ToLower(msg), "exceeds the context length")
}

// modelNote is the notice for a model Ollama says cannot call tools.
func modelNote(name string) string {
	return fmt.Sprintf("%s cannot call tools (Ollama lists no tool support for it), so it answers without them. "+
		"For anything that needs actions, choose a model that can, such as llama3.1 or qwen3.", name)
}
