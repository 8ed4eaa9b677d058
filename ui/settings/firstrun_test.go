package settings

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// firstRunHarness is the first-run page on a real core over a new
// workspace, with inline runners; find looks where the test says. Every
// text the pull panel shows is recorded as it is shown.
type firstRunHarness struct {
	t      *testing.T
	core   *assistant.App
	win    fyne.Window
	f      *FirstRun
	done   bool
	opened []string
	// pulled are the download panel's texts, in order.
	pulled []string
	// onProgress runs after each UI update (the test cancels from it).
	onProgress func()
}

func newFirstRun(t *testing.T, ollamaURL, openaiURL string) *firstRunHarness {
	t.Helper()
	t.Setenv("LANG", "en_US.UTF-8")
	a := test.NewTempApp(t)
	h := &firstRunHarness{t: t}
	core, err := assistant.Open(assistant.Options{Workspace: t.TempDir(), LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	h.core = core
	if !FirstRunNeeded(core) {
		t.Fatal("a new workspace does not need the first run")
	}
	h.win = test.NewTempWindow(t, nil)
	env := &bridge.Env{App: a, Window: h.win, Core: core,
		Go:      func(fn func()) { fn() },
		Copy:    func(string) {},
		OpenURL: func(u *url.URL) { h.opened = append(h.opened, u.String()) },
	}
	env.Do = func(fn func()) {
		fn()
		if h.f != nil && h.f.pull.Running() {
			if n := len(h.pulled); n == 0 || h.pulled[n-1] != h.f.pull.detail.Text {
				h.pulled = append(h.pulled, h.f.pull.detail.Text)
			}
			if h.onProgress != nil {
				h.onProgress()
			}
		}
	}
	h.f = NewFirstRun(env, func(ctx context.Context) []assistant.LocalServer {
		return assistant.FindServers(ctx, ollamaURL, openaiURL)
	})
	h.f.OnDone = func() { h.done = true }
	h.win.SetContent(h.f.Object())
	h.win.Resize(fyne.NewSize(1000, 760))
	h.f.Start()
	return h
}

func (h *firstRunHarness) screen() string {
	var b strings.Builder
	for _, o := range visible(h.win.Canvas().Content()) {
		switch w := o.(type) {
		case *widget.Label:
			b.WriteString(w.Text + "\n")
		case *widget.RadioGroup:
			for _, opt := range w.Options {
				b.WriteString("( ) " + opt + "\n")
			}
		case *widget.Button:
			b.WriteString("[" + w.Text + "]\n")
		case *escButton:
			b.WriteString("[" + w.Text + "]\n")
		case *widget.Hyperlink:
			b.WriteString(w.Text + "\n")
		}
	}
	return b.String()
}

func (h *firstRunHarness) tap(text string) {
	h.t.Helper()
	for _, o := range visible(h.win.Canvas().Content()) {
		if b, ok := asButton(o); ok && b.Text == text {
			if b.Disabled() {
				h.t.Fatalf("button %q is disabled", text)
			}
			test.Tap(b)
			return
		}
	}
	h.t.Fatalf("no button %q on the page:\n%s", text, h.screen())
}

// Ollama answers with a model that uses tools: the page lists its chat
// models with what each can do, picks the one that uses tools, and one
// tap saves it and opens the chat.
func TestFirstRunFindsAServerWithAToolModel(t *testing.T) {
	o := providertest.NewOllama(t, providertest.WithOllamaModels(
		providertest.OllamaModel{Name: "llama2:7b", Capabilities: []string{"completion"}, ContextLength: 4096},
		providertest.OllamaModel{Name: "nomic-embed-text", Capabilities: []string{"embedding"}},
		providertest.OllamaModel{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}, ContextLength: 40960, Size: 5_225_000_000}))
	h := newFirstRun(t, o.URL(), providertest.ClosedURL(t))
	screen := h.screen()
	for _, want := range []string{"Ollama", "at " + o.URL(), "( ) llama2:7b  —  no tools · 4k window · 4.9 GB",
		"( ) qwen3:8b  —  tools · thinking · 40k window · 5.2 GB", "[Start chatting with qwen3:8b]"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the page lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "nomic-embed-text") || strings.Contains(screen, "LM Studio") {
		t.Errorf("an embedding model or a server that did not answer is offered:\n%s", screen)
	}
	h.tap("Start chatting with qwen3:8b")
	cfg := h.core.Config()
	if !h.done || cfg.Provider != "ollama" || cfg.BaseURL != o.URL() || cfg.Model != "qwen3:8b" {
		t.Fatalf("done %v, saved %+v", h.done, cfg)
	}
	if FirstRunNeeded(h.core) {
		t.Error("the first run is still needed")
	}
}

// LM Studio answers (its own model list says what each can do): its
// tool model is picked the same way.
func TestFirstRunFindsLMStudio(t *testing.T) {
	lm := providertest.NewModel(t, providertest.OpenAI, providertest.WithServer(providertest.LMStudio),
		providertest.WithModels(provider.ModelInfo{ID: "qwen2.5-7b-instruct", Abilities: []provider.Ability{provider.AbilityTools}, ContextWindow: 32768}))
	h := newFirstRun(t, providertest.ClosedURL(t), lm.BaseURL())
	if !strings.Contains(h.screen(), "LM Studio at "+lm.BaseURL()) {
		t.Fatalf("no LM Studio:\n%s", h.screen())
	}
	h.tap("Start chatting with qwen2.5-7b-instruct")
	if cfg := h.core.Config(); !h.done || cfg.Provider != "openai" || cfg.BaseURL != lm.BaseURL() || cfg.Model != "qwen2.5-7b-instruct" {
		t.Fatalf("done %v, saved %+v", h.done, cfg)
	}
}

// Ollama answers with no model that uses tools: the page says so and
// offers downloads; one runs with its size, speed and time left shown,
// and the chat opens with the model once it is there. Cancel stops one.
func TestFirstRunOffersADownload(t *testing.T) {
	gate := make(chan struct{})
	o := providertest.NewOllama(t, providertest.WithPullGate(gate), providertest.WithOllamaModels(
		providertest.OllamaModel{Name: "llama2:7b", Capabilities: []string{"completion"}}),
		providertest.WithPullable(providertest.OllamaModel{Name: "qwen3:8b", Capabilities: []string{"completion", "tools", "thinking"}}, 5_225_000_000),
		providertest.WithPullable(providertest.OllamaModel{Name: "llama3.1:8b"}, 4_920_000_000))
	h := newFirstRun(t, o.URL(), providertest.ClosedURL(t))
	screen := h.screen()
	for _, want := range []string{"None of these models can use tools", "[Download qwen3:8b]", "[Download llama3.1:8b]"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the page lacks %q:\n%s", want, screen)
		}
	}
	// A clock a second on at each look, so the speed can be measured.
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	h.f.pull.now = func() time.Time { at = at.Add(time.Second); return at }

	// Cancel: stopped at the first bytes.
	h.onProgress = func() {
		if strings.Contains(h.f.pull.detail.Text, " of ") {
			h.f.pull.Cancel()
		}
	}
	h.tap("Download llama3.1:8b")
	if h.done || h.core.Config().Model != "" {
		t.Fatalf("a cancelled download finished the setup: %+v; shown %q", h.core.Config(), h.pulled)
	}
	if got := h.f.pull.detail.Text; got != "Download stopped. Downloading llama3.1:8b again resumes it." {
		t.Errorf("after Cancel: %q", got)
	}

	h.onProgress, h.pulled = nil, nil
	close(gate) // downloads run to the end
	h.tap("Download qwen3:8b")
	shown := strings.Join(h.pulled, "\n")
	for _, want := range []string{"0 B of 5.2 GB", "2.6 GB of 5.2 GB · 2.6 GB/s · about 1 s left", "verifying sha256 digest"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the download did not show %q; it showed:\n%s", want, shown)
		}
	}
	if got := h.f.pull.detail.Text; got != "qwen3:8b is downloaded." {
		t.Errorf("at the end the panel says %q", got)
	}
	cfg := h.core.Config()
	if !h.done || cfg.Provider != "ollama" || cfg.BaseURL != o.URL() || cfg.Model != "qwen3:8b" {
		t.Fatalf("done %v, saved %+v", h.done, cfg)
	}
}

// Nothing answers: the setup page offers Ollama (with its link) and a
// service with its key side by side, each service with its base URL
// filled in; Test asks before saving; Save and start opens the chat.
func TestFirstRunSetupWhenNothingAnswers(t *testing.T) {
	h := newFirstRun(t, providertest.ClosedURL(t), providertest.ClosedURL(t))
	screen := h.screen()
	for _, want := range []string{"No model server answered", "Run models on this computer", "ollama.com/download", "[Look again]",
		"Use a service or another server", "[Test]", "[Save and start]"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the setup page lacks %q:\n%s", want, screen)
		}
	}
	for _, o := range visible(h.win.Canvas().Content()) {
		if l, ok := o.(*widget.Hyperlink); ok {
			test.TapAt(l, fyne.NewPos(theme.InnerPadding()+4, l.Size().Height/2)) // on its text
		}
	}
	if len(h.opened) != 1 || h.opened[0] != "https://ollama.com/download" {
		t.Errorf("the link opened %v", h.opened)
	}
	s := h.f.setup
	for _, c := range cloudChoices {
		s.choice.SetSelected(c.Name)
		if s.base.Text != c.BaseURL || s.model.Text != c.Model || s.keyRow.Visible() != c.Key {
			t.Errorf("%s: base %q model %q key %v", c.Name, s.base.Text, s.model.Text, s.keyRow.Visible())
		}
	}
	// A key is asked for before anything is saved.
	s.choice.SetSelected("Anthropic")
	h.tap("Save and start")
	if h.done || !strings.Contains(s.out.Text(), "Anthropic needs an API key") {
		t.Fatalf("saved without a key: %q", s.out.Text())
	}
	// A service with its key: Anthropic's API, here a fake.
	m := providertest.NewModel(t, providertest.Anthropic, providertest.WithAPIKey("sk-ant-right-0123456789"))
	s.base.SetText(m.BaseURL())
	s.key.SetText("sk-ant-right-0123456789")
	m.Reply(providertest.Text("Hello"))
	h.tap("Test")
	if !strings.HasPrefix(s.out.Text(), "Connected") {
		t.Fatalf("Test: %q", s.out.Text())
	}
	if h.core.Config().Provider != "" {
		t.Fatal("Test saved")
	}
	h.tap("Save and start")
	cfg := h.core.Config()
	if !h.done || cfg.Provider != "anthropic" || cfg.BaseURL != m.BaseURL() || cfg.Model != "claude-sonnet-4-5" {
		t.Fatalf("done %v, saved %+v (%s)", h.done, cfg, s.out.Text())
	}
	if !h.core.HasSecret(assistant.SecretAnthropic) || s.key.Text != "" {
		t.Error("the key was not stored, or stays in its field")
	}
}

// Look again finds a server started meanwhile.
func TestFirstRunLookAgain(t *testing.T) {
	o := providertest.NewOllama(t)
	url := o.URL()
	found := false
	h := newFirstRun(t, providertest.ClosedURL(t), providertest.ClosedURL(t))
	h.f.find = func(ctx context.Context) []assistant.LocalServer {
		if !found {
			return nil
		}
		return assistant.FindServers(ctx, url, "")
	}
	found = true
	h.tap("Look again")
	if !strings.Contains(h.screen(), "[Start chatting with llama3.1:8b]") {
		t.Fatalf("after Look again:\n%s", h.screen())
	}
}

func TestProgressText(t *testing.T) {
	tests := []struct {
		pr    ollama.Progress
		speed float64
		want  string
	}{
		{ollama.Progress{Status: "pulling manifest"}, 0, "pulling manifest"},
		{ollama.Progress{Total: 4_920_000_000, Completed: 1_200_000_000}, 0, "1.2 GB of 4.9 GB"},
		{ollama.Progress{Total: 4_920_000_000, Completed: 1_200_000_000}, 35_000_000, "1.2 GB of 4.9 GB · 35 MB/s · about 2 min left"},
		{ollama.Progress{Total: 4_920_000_000, Completed: 4_900_000_000}, 35_000_000, "4.9 GB of 4.9 GB · 35 MB/s · about 1 s left"},
		{ollama.Progress{Total: 40_000_000_000, Completed: 0}, 5_000_000, "0 B of 40.0 GB · 5 MB/s · about 2 h 13 min left"},
		{ollama.Progress{Total: 100, Completed: 100}, 5, "100 B of 100 B"},
	}
	for _, tt := range tests {
		if got := progressText(tt.pr, tt.speed); got != tt.want {
			t.Errorf("progressText(%+v, %v) = %q, want %q", tt.pr, tt.speed, got, tt.want)
		}
	}
}

// The download's steps reach the screen at most every pullShowEvery, a
// new step at once, and the latest held back once the interval is over,
// so a download that pauses shows where it stopped.
func TestPullThrottle(t *testing.T) {
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	var shown []int64
	var held []func()
	th := &pullThrottle{now: func() time.Time { return at }, after: func(_ time.Duration, fn func()) { held = append(held, fn) },
		show: func(pr ollama.Progress, _ time.Time) { shown = append(shown, pr.Completed) }}
	layer := func(done int64) ollama.Progress {
		return ollama.Progress{Status: "pulling b", Digest: "sha256:b", Total: 100, Completed: done}
	}
	th.step(ollama.Progress{Status: "pulling manifest"})
	th.step(layer(0)) // a new step: at once
	at = at.Add(10 * time.Millisecond)
	th.step(layer(10)) // too soon: held
	th.step(layer(20)) // too soon: replaces it
	if len(shown) != 2 || len(held) != 1 {
		t.Fatalf("shown %v, %d timers", shown, len(held))
	}
	at = at.Add(pullShowEvery)
	held[0]()
	if shown[len(shown)-1] != 20 {
		t.Errorf("the held step shown is %v, want 20", shown)
	}
	th.step(layer(100)) // the end: at once
	if shown[len(shown)-1] != 100 || len(held) != 1 {
		t.Errorf("shown %v, %d timers", shown, len(held))
	}
}
