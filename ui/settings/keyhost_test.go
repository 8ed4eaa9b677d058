package settings

import (
	"errors"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Saving a base URL on another host asks before the stored key goes
// there: keeping it saves the URL and leaves the key with its host (the
// page says the model cannot be asked); sending it binds it.
func TestModelSaveAsksBeforeTheKeyMoves(t *testing.T) {
	h := newHarness(t, nil)
	home := providertest.NewModel(t, providertest.OpenAI)
	other := providertest.NewModel(t, providertest.OpenAI)
	if _, err := h.core.SetConfig("baseURL", home.BaseURL()); err != nil {
		t.Fatal(err)
	}
	if err := h.core.SetAPIKey("openai", "sk-stored-0123456789"); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	fill(p, "openai", other.BaseURL(), "m", "", "")
	h.tap("Save")
	to := assistant.KeyHost(other.BaseURL())
	if !strings.Contains(h.screenText(), "Send your OpenAI key to "+to+"?") {
		t.Fatalf("no question on screen:\n%s", h.screenText())
	}
	if h.core.Config().BaseURL != home.BaseURL() {
		t.Fatal("saved before the question was answered")
	}
	h.tap("Keep it for " + assistant.KeyHost(home.BaseURL()))
	if h.core.Config().BaseURL != other.BaseURL() || !errors.Is(h.core.ModelProblem(), assistant.ErrKeyHost) {
		t.Fatalf("kept: base URL %s, problem %v", h.core.Config().BaseURL, h.core.ModelProblem())
	}
	if !strings.Contains(p.outcome.Text(), "nothing was sent") {
		t.Errorf("outcome %q", p.outcome.Text())
	}
	h.tap("Save")
	h.tap("Send the key")
	if err := h.core.ModelProblem(); err != nil {
		t.Fatalf("after sending: %v", err)
	}
	if !strings.Contains(p.outcome.Text(), "Your key is now sent to "+to) {
		t.Errorf("outcome %q", p.outcome.Text())
	}
	// A key typed with the new URL is for it: no question.
	fill(p, "openai", home.BaseURL(), "m", "", "sk-typed-0123456789")
	h.tap("Save")
	if err := h.core.ModelProblem(); err != nil || !strings.HasPrefix(p.outcome.Text(), "Saved.") {
		t.Fatalf("a typed key: %v, %q", err, p.outcome.Text())
	}
}
