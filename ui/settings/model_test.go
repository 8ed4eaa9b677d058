package settings

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// fill types the form's fields afresh.
func fill(p *modelPage, provider, baseURL, model, window, key string) {
	p.provider.SetSelected(provider)
	for _, f := range []struct {
		set  func(string)
		text string
	}{{p.baseURL.SetText, baseURL}, {p.model.SetText, model}, {p.window.SetText, window}, {p.key.SetText, key}} {
		f.set(f.text)
	}
}

func TestModelSaveValidation(t *testing.T) {
	tests := []struct {
		name    string
		baseURL string
		window  string
		errs    map[string]string
	}{
		{"a bad base URL", "ftp://example.com", "8192", map[string]string{"baseURL": "baseURL must be an http or https URL"}},
		{"a base URL without a host", "http://", "", map[string]string{"baseURL": "baseURL must be"}},
		{"a context window that is no number", "", "lots", map[string]string{"contextWindow": "contextWindow must be a whole number"}},
		{"both", "localhost:1234", "-5", map[string]string{"baseURL": "baseURL must be", "contextWindow": "whole number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.s.Show(hint.PageModel, "")
			p := h.s.model
			fill(p, "openai", tt.baseURL, "m", tt.window, "")
			h.tap("Save")
			for key, e := range p.errs {
				want, bad := tt.errs[key]
				switch {
				case bad && (!e.Visible() || !strings.Contains(e.Text, want)):
					t.Errorf("%s: error %v %q, want %q", key, e.Visible(), e.Text, want)
				case !bad && e.Visible():
					t.Errorf("%s shows an error: %q", key, e.Text)
				}
			}
			if !strings.Contains(p.outcome.Text(), "Nothing was saved") {
				t.Errorf("outcome %q", p.outcome.Text())
			}
			if got := h.core.Config(); got.BaseURL != "" || got.Model != "" {
				t.Errorf("an invalid form was saved: %+v", got)
			}
		})
	}
}

func TestModelSaveStoresConfigAndKey(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	if !strings.HasPrefix(p.keyStatus.Text, "No key is stored") {
		t.Errorf("key status %q", p.keyStatus.Text)
	}
	fill(p, "anthropic", "https://gateway.example.com", "claude-x", "200000", "sk-secret-123456")
	h.tap("Save")
	cfg := h.core.Config()
	if cfg.Provider != "anthropic" || cfg.BaseURL != "https://gateway.example.com" || cfg.Model != "claude-x" || cfg.ContextWindow != 200000 {
		t.Errorf("saved %+v", cfg)
	}
	if !h.core.HasSecret(assistant.SecretAnthropic) {
		t.Fatal("the key was not stored")
	}
	if p.key.Text != "" {
		t.Error("the key stays in the field after saving")
	}
	if !strings.HasPrefix(p.keyStatus.Text, "A key is stored for anthropic") || strings.Contains(h.screenText(), "sk-secret") {
		t.Errorf("key status %q (the screen must never show the key)", p.keyStatus.Text)
	}
	if !strings.HasPrefix(p.outcome.Text(), "Saved.") {
		t.Errorf("outcome %q", p.outcome.Text())
	}
	h.tap("Forget stored key")
	if h.core.HasSecret(assistant.SecretAnthropic) {
		t.Error("Forget kept the key")
	}
}

func TestModelTestAndList(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI, providertest.WithAPIKey("right-key"),
		providertest.WithModels(provider.ModelInfo{ID: "alpha"}, provider.ModelInfo{ID: "beta"}))
	tests := []struct {
		name  string
		key   string
		reply bool
		want  string
	}{
		{"the model answers", "right-key", true, "Connected: the model alpha answered in"},
		{"a wrong key", "wrong-key", false, "The server refused the API key."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			p := h.s.model
			fill(p, "openai", m.BaseURL(), "alpha", "", tt.key)
			if tt.reply {
				m.Reply(providertest.Text("OK"))
			}
			h.tap("Test")
			if !strings.Contains(p.outcome.Text(), tt.want) {
				t.Errorf("outcome %q, want %q", p.outcome.Text(), tt.want)
			}
			if !tt.reply && p.outcome.label.Importance != widget.DangerImportance {
				t.Errorf("a refused key reads as %q, not as an error", p.outcome.Text())
			}
			if !tt.reply && !p.outcome.fix.Visible() {
				t.Error("a refused key offers no way to the field")
			}
			if tt.reply {
				// The page was never saved: Test used the form.
				if h.core.Config().BaseURL != "" {
					t.Error("Test saved the form")
				}
				p.loadModels()
				if got := strings.Join(p.Models(), ","); got != "alpha,beta" {
					t.Errorf("model list %q (%s)", got, p.listNote.Text)
				}
			}
		})
	}
}

// An unreachable server is reported in words, and the list says the
// model can still be typed.
func TestModelUnreachable(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI)
	base := m.BaseURL()
	m.Close()
	h := newHarness(t, nil)
	p := h.s.model
	fill(p, "openai", base, "alpha", "", "")
	h.tap("Test")
	if p.outcome.Text() == "" || strings.HasPrefix(p.outcome.Text(), "Connected") {
		t.Errorf("outcome %q", p.outcome.Text())
	}
	p.loadModels()
	if !strings.Contains(p.listNote.Text, "You can still type a model name") {
		t.Errorf("list note %q", p.listNote.Text)
	}
	// The picker stays a free entry.
	p.model.SetText("")
	test.Type(p.model, "my-model")
	if p.model.Text != "my-model" {
		t.Errorf("model entry %q", p.model.Text)
	}
}
