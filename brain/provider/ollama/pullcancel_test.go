package ollama_test

import (
	"context"
	"errors"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// A download cancelled in the middle is an error, not a downloaded model
// (Ollama's client returns nil for a stream its context cut short), and
// the model is not there.
func TestPullCancelled(t *testing.T) {
	gate := make(chan struct{}) // never opened: the download waits after its first bytes
	o := providertest.NewOllama(t, providertest.WithPullGate(gate),
		providertest.WithPullable(providertest.OllamaModel{Name: "qwen3:8b"}, 5_200_000_000))
	p := newProvider(t, o.URL())
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	err := p.Pull(ctx, "qwen3:8b", func(pr ollama.Progress) {
		if pr.Total > 0 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled download returned %v", err)
	}
	if _, err := p.ContextWindow(t.Context(), "qwen3:8b"); err == nil {
		t.Error("the model is there after a cancelled download")
	}
}
