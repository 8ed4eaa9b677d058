package ollama

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// Progress is one step of a download, as /api/pull reports it.
type Progress struct {
	// Status is the server's word for the step: "pulling manifest",
	// "pulling 6a0746a1ec1a", "verifying sha256 digest", "success".
	Status string
	// Digest names the layer being downloaded, when one is.
	Digest string
	// Total and Completed are the layer's bytes, when known.
	Total, Completed int64
}

// Pull downloads model into the server's store, calling fn with each step
// (on the calling goroutine). Cancelling ctx stops the download (the
// server keeps what it has, and a later pull resumes). A failure is a
// *provider.Error: an unknown model is ErrNotFound.
func (p *Provider) Pull(ctx context.Context, model string, fn func(Progress)) error {
	stream := true
	cls := p.classifier(model)
	var x wire.Exchange
	err := p.client.Pull(wire.WithExchange(ctx, &x), &api.PullRequest{Model: model, Stream: &stream}, func(r api.ProgressResponse) error {
		if fn != nil {
			fn(Progress{Status: r.Status, Digest: r.Digest, Total: r.Total, Completed: r.Completed})
		}
		return nil
	})
	if err == nil && ctx.Err() != nil {
		// The client ends a stream the context cut short as if it were
		// complete (it never reads the scanner's error): a cancelled
		// download is not a downloaded model.
		return fmt.Errorf("download %s: %w", model, ctx.Err())
	}
	if err == nil {
		p.mu.Lock()
		delete(p.shows, model)
		p.mu.Unlock()
		return nil
	}
	pe := p.classify(ctx, cls, err, &x)
	if strings.Contains(strings.ToLower(pe.Message), "file does not exist") {
		// How the registry says it has no such model.
		pe.Kind = provider.ErrNotFound
		pe.Message = "Ollama's library has no model " + model + ": check the name (https://ollama.com/library)."
		pe.Detail = ""
	}
	return pe
}

// Detect reports whether an Ollama server answers at base (its root, or
// the /v1 base of its OpenAI-compatible endpoint), returning its version.
// client may be nil. It waits at most wire.DiscoveryTimeout.
func Detect(ctx context.Context, base string, client *http.Client) (string, error) {
	root, _, err := Root(base)
	if err != nil {
		return "", err
	}
	if client == nil {
		client = wire.HTTPClient(nil, provider.Timeouts{})
	}
	var v struct {
		Version string `json:"version"`
	}
	if err := wire.GetJSON(ctx, client, root+"/api/version", nil, &v); err != nil {
		return "", err
	}
	return v.Version, nil
}
