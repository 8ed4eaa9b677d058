package settings

import (
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Each provider shows its own URL, model and key state; what was typed
// for one comes back when it is chosen again and never shows under
// another.
func TestModelPageKeepsValuesPerProvider(t *testing.T) {
	h := newHarness(t, nil)
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model = "openai", "https://openrouter.ai/api/v1", "openai/gpt-4o"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := h.core.SetAPIKey("openai", "sk-or-0123456789"); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	type view struct{ url, model, key string }
	now := func() view { return view{p.baseURL.Text, p.model.Text, p.keyStatus.Text} }
	if got := now(); got.url != "https://openrouter.ai/api/v1" || got.model != "openai/gpt-4o" || !strings.HasPrefix(got.key, "A key is stored for openai") {
		t.Fatalf("as saved: %+v", got)
	}
	if p.Dirty() {
		t.Fatal("the page counts as edited as opened")
	}
	steps := []struct {
		name   string
		choose string
		typed  func()
		want   view
	}{
		{"anthropic shows its own, empty", "anthropic", func() { p.model.SetText("claude-opus-4") },
			view{"", "", "No key is stored. Anthropic needs one"}},
		{"ollama shows none of the others", "ollama", nil, view{"", "", "No key is stored; Ollama takes none."}},
		{"openai comes back as saved", "openai", nil, view{"https://openrouter.ai/api/v1", "openai/gpt-4o", "A key is stored for openai"}},
		{"anthropic comes back as typed", "anthropic", nil, view{"", "claude-opus-4", "No key is stored. Anthropic needs one"}},
	}
	for _, st := range steps {
		p.provider.SetSelected(st.choose)
		got := now()
		if got.url != st.want.url || got.model != st.want.model || !strings.HasPrefix(got.key, st.want.key) {
			t.Errorf("%s: %+v, want %+v", st.name, got, st.want)
		}
		if st.typed != nil {
			st.typed()
		}
	}
	if !p.Dirty() || !p.unsaved.Visible() {
		t.Error("another provider chosen does not count as an edit")
	}
	// Saving anthropic saves anthropic's values only.
	p.key.SetText("sk-ant-0123456789")
	h.tap("Save")
	if cfg := h.core.Config(); cfg.Provider != "anthropic" || cfg.BaseURL != "" || cfg.Model != "claude-opus-4" {
		t.Errorf("saved %+v", cfg)
	}
	if p.Dirty() || p.unsaved.Visible() {
		t.Error("still edited after saving")
	}
}

// Leaving the page with changes not saved asks: Keep editing goes back,
// Discard restores what is saved, Save saves.
func TestModelPageWarnsBeforeLeaving(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	leave := func() {
		t.Helper()
		h.s.Show(hint.PageFolders, "")
		if !strings.Contains(h.screenText(), "You changed the model settings without saving them.") {
			t.Fatalf("no question when leaving:\n%s", h.screenText())
		}
	}
	// Nothing changed: no question.
	h.s.Show(hint.PageFolders, "")
	if strings.Contains(h.screenText(), "without saving") {
		t.Fatal("a question with nothing changed")
	}
	h.s.Show(hint.PageModel, "")
	p.model.SetText("qwen3:8b")
	leave()
	h.tap("Keep editing")
	if h.s.Page() != hint.PageModel || p.model.Text != "qwen3:8b" {
		t.Errorf("Keep editing: page %s, model %q", h.s.Page(), p.model.Text)
	}
	leave()
	h.tap("Discard")
	if p.model.Text != "" || p.Dirty() || h.core.Config().Model != "" {
		t.Errorf("Discard: model %q, dirty %v, saved %q", p.model.Text, p.Dirty(), h.core.Config().Model)
	}
	h.s.Show(hint.PageModel, "")
	p.model.SetText("qwen3:8b")
	leave()
	h.tap("Save")
	if h.core.Config().Model != "qwen3:8b" {
		t.Errorf("Save from the question saved %q", h.core.Config().Model)
	}
	// Leaving the view (back to the chat) asks too.
	h.s.Show(hint.PageModel, "")
	p.model.SetText("llama3.2")
	h.s.left()
	if !strings.Contains(h.screenText(), "You changed the model settings without saving them.") {
		t.Error("no question when the settings close")
	}
}

// Save says so before saving a model Test just found missing, or one the
// server's list lacks; Cancel saves nothing.
func TestModelSaveAsksAboutAMissingModel(t *testing.T) {
	m := providertest.NewModel(t, providertest.OpenAI, providertest.WithKnownModelsOnly(),
		providertest.WithModels(provider.ModelInfo{ID: "alpha"}))
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	fill(p, "openai", m.BaseURL(), "ghost", "", "")
	h.tap("Test")
	if !strings.Contains(p.outcome.Text(), "ghost") {
		t.Fatalf("Test of a missing model: %q", p.outcome.Text())
	}
	h.tap("Save")
	if !strings.Contains(h.screenText(), "Test just reported that the server has no model ghost.") {
		t.Fatalf("no question before saving a missing model:\n%s", h.screenText())
	}
	h.tap("Cancel")
	if h.core.Config().Model != "" {
		t.Fatal("Cancel saved")
	}
	h.tap("Save")
	h.tap("Save anyway")
	if h.core.Config().Model != "ghost" {
		t.Fatalf("Save anyway saved %q", h.core.Config().Model)
	}
	// The server's list says so too.
	p.loadModels()
	p.model.SetText("phantom")
	h.tap("Save")
	if !strings.Contains(h.screenText(), "The server's list of models has no phantom.") {
		t.Fatalf("no question for a model the list lacks:\n%s", h.screenText())
	}
	h.tap("Cancel")
	// One that is listed saves at once.
	p.model.SetText("alpha")
	h.tap("Save")
	if h.core.Config().Model != "alpha" {
		t.Errorf("a listed model: saved %q", h.core.Config().Model)
	}
}

// On Ollama, a missing model can be saved and downloaded, with progress
// on the page; the list then has it.
func TestModelSaveAndDownload(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithPullable(providertest.OllamaModel{Name: "qwen3:8b",
		Capabilities: []string{"completion", "tools", "thinking"}}, 5_225_000_000))
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	fill(p, "ollama", o.URL(), "qwen3:8b", "", "")
	p.loadModels()
	h.tap("Save")
	h.tap("Save and download")
	if h.core.Config().Model != "qwen3:8b" {
		t.Fatalf("saved %q", h.core.Config().Model)
	}
	if p.pull.Running() || !strings.Contains(p.pull.detail.Text, "qwen3:8b is downloaded.") || p.pull.bar.Value != 1 {
		t.Errorf("download: running %v, %q, %.2f", p.pull.Running(), p.pull.detail.Text, p.pull.bar.Value)
	}
	if !listed(p.Models(), "qwen3:8b") || !strings.Contains(p.facts.Text, "tools · thinking") {
		t.Errorf("after the download the list is %v, facts %q", p.Models(), p.facts.Text)
	}
}

// The Thinking setting is per model; the budget is Anthropic's, checked.
func TestModelThinkingSetting(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	if p.budgetBox.Visible() {
		t.Error("the budget shows for Ollama")
	}
	fill(p, "ollama", "", "qwen3:8b", "", "")
	p.thinking.SetSelected("off")
	h.tap("Save")
	th := h.core.Config().Thinking
	if th.For("qwen3:8b") != "off" || th.For("llama3.1") != "auto" {
		t.Errorf("thinking saved as %v", th)
	}
	p.model.SetText("llama3.1")
	if p.thinking.Selected != "auto" {
		t.Errorf("another model shows %q", p.thinking.Selected)
	}
	p.model.SetText("qwen3:8b")
	if p.thinking.Selected != "off" {
		t.Errorf("the model's own setting shows as %q", p.thinking.Selected)
	}
	p.provider.SetSelected("anthropic")
	if !p.budgetBox.Visible() {
		t.Error("no budget for Anthropic")
	}
	p.model.SetText("claude-sonnet-4-5")
	p.thinking.SetSelected("on")
	p.budget.SetText("500")
	p.key.SetText("sk-ant-0123456789")
	h.tap("Save")
	if e := p.errs["thinkingBudget"]; !e.Visible() || !strings.Contains(e.Text, "at least 1024") {
		t.Errorf("a budget of 500: %v %q", e.Visible(), e.Text)
	}
	p.budget.SetText("8000")
	h.tap("Save")
	cfg := h.core.Config()
	if cfg.ThinkingBudget != 8000 || cfg.Thinking.For("claude-sonnet-4-5") != "on" || cfg.Thinking.For("qwen3:8b") != "off" {
		t.Errorf("saved %+v", cfg)
	}
	if !h.core.HasSecret(assistant.SecretAnthropic) {
		t.Error("the key was not stored")
	}
}

// A change saved elsewhere (the CLI, the first-run page) shows on a page
// that was only looked at, even after another provider was chosen and
// left again; what was typed for that other provider stays.
func TestModelPageFollowsConfigAfterLookingAround(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	saved := p.provider.Selected
	p.provider.SetSelected("anthropic")
	p.model.SetText("claude-opus-4")
	p.provider.SetSelected(saved)
	if p.Dirty() {
		t.Fatal("back on the saved provider counts as edited")
	}
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error {
		c.Model = "qwen3:8b"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p.ConfigChanged()
	if p.model.Text != "qwen3:8b" {
		t.Errorf("model shown %q after a change saved elsewhere, want qwen3:8b", p.model.Text)
	}
	p.provider.SetSelected("anthropic")
	if p.model.Text != "claude-opus-4" {
		t.Errorf("anthropic's typed model lost: %q", p.model.Text)
	}
}

// A provider openai pointed at Ollama (its /v1 endpoint cuts prompts to
// 4,096 tokens) is told so on the Model page and offered the switch,
// which keeps the base URL and the model.
func TestModelPageOffersOllamasOwnAPI(t *testing.T) {
	h := newHarness(t, nil)
	if _, err := h.core.UpdateConfig(func(c *workspace.Config) error {
		c.Provider, c.BaseURL, c.Model = "openai", "http://localhost:11434/v1", "qwen3:8b"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	p.ConfigChanged()
	if !p.notice.box.Visible() || !strings.Contains(p.notice.label.Text, "cuts every prompt longer than Ollama's default context") {
		t.Fatalf("notice shown %v: %q", p.notice.box.Visible(), p.notice.label.Text)
	}
	p.baseURL.SetText("http://localhost:11434/v2")
	h.tap("Switch to provider ollama")
	if cfg := h.core.Config(); cfg.Provider != "openai" || !strings.Contains(p.outcome.Text(), "Save or discard") {
		t.Fatalf("switched over unsaved edits: %+v, %q", cfg, p.outcome.Text())
	}
	p.load()
	h.tap("Switch to provider ollama")
	if cfg := h.core.Config(); cfg.Provider != "ollama" || cfg.BaseURL != "http://localhost:11434/v1" || cfg.Model != "qwen3:8b" {
		t.Errorf("after the switch: %+v", cfg)
	}
	if p.notice.box.Visible() || p.provider.Selected != "ollama" || p.model.Text != "qwen3:8b" {
		t.Errorf("page after the switch: notice %v, provider %q, model %q", p.notice.box.Visible(), p.provider.Selected, p.model.Text)
	}
}

// Under the Model field, what the model can do and the list's note take
// room only when they say something.
func TestModelPageAboutTheModelOnlyWhenSaid(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageModel, "")
	p := h.s.model
	p.note("") // showing the page tried to list the models (no server here)
	if p.about.Visible() {
		t.Errorf("an empty block under the model field shows (facts %q)", p.facts.Text)
	}
	p.note("3 models on the server")
	if !p.about.Visible() || !p.listNote.Visible() {
		t.Error("the list's note does not show")
	}
	p.note("")
	if p.about.Visible() {
		t.Error("the block stays after its note went")
	}
}
