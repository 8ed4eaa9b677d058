package assistant

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// The model's context window, what the server offers, and downloads: what
// the status gauge, the Model page, the chat header's model picker, the
// first-run page and `wrasse models` ask the core.

// ContextWindow returns the context window a turn with model ("" for the
// configured one) is fitted to, and where the figure came from:
// contextWindow in config.json; else what the server says (Ollama
// /api/show, LM Studio, vLLM, llama.cpp, OpenRouter, Anthropic's model
// list) or the published figure of a known model; else
// workspace.DefaultContextWindow, marked provider.WindowDefault. The first
// ask for a model may make a request (each bounded to a few seconds);
// later ones are answered from memory until the configuration changes.
// Call it off the UI goroutine.
func (a *App) ContextWindow(ctx context.Context, model string) provider.Window {
	st := a.model.Load()
	if model == "" {
		model = st.cfg.Model
	}
	return a.windowOf(ctx, st, st.cfg, st.provider, model)
}

// KnownContextWindow returns the window ContextWindow would, without
// asking anything: false when the server was not asked yet. For the status
// gauge, which must not wait.
func (a *App) KnownContextWindow(model string) (provider.Window, bool) {
	st := a.model.Load()
	if model == "" {
		model = st.cfg.Model
	}
	if st.cfg.ContextWindow > 0 {
		return configWindow(st.cfg.ContextWindow), true
	}
	return st.learnt(model)
}

// windowOf is the window for model with cfg, p being the provider the
// turn uses (st's, or one built for an override).
func (a *App) windowOf(ctx context.Context, st *modelState, cfg workspace.Config, p provider.Provider, model string) provider.Window {
	if cfg.ContextWindow > 0 {
		return configWindow(cfg.ContextWindow)
	}
	if p == nil {
		return defaultWindow()
	}
	if st != nil && p == st.provider {
		if w, ok := st.learnt(model); ok {
			return w
		}
	}
	w, err := provider.ContextWindow(ctx, p, model)
	if err != nil {
		if !errors.Is(err, provider.ErrNoWindow) && ctx.Err() == nil {
			a.log.Info("the context window could not be learnt; assuming the default", "model", model, "error", err)
		}
		return defaultWindow()
	}
	if st != nil && p == st.provider {
		st.windows.Store(model, w)
	}
	return w
}

// learnt is the window learnt for model, if any.
func (st *modelState) learnt(model string) (provider.Window, bool) {
	v, ok := st.windows.Load(model)
	if !ok {
		return provider.Window{}, false
	}
	return v.(provider.Window), true
}

func configWindow(n int) provider.Window {
	return provider.Window{Tokens: n, Source: provider.WindowConfig, From: "contextWindow in config.json"}
}

func defaultWindow() provider.Window {
	return provider.Window{Tokens: workspace.DefaultContextWindow, Source: provider.WindowDefault,
		From: "assumed: the server does not say (set contextWindow)"}
}

// ModelNotice is advice about the model setup that does not stop it
// working. The window shows it on the Model page (and the chat), `wrasse
// config` prints it with its command.
type ModelNotice struct {
	Message string    `json:"message"`
	Hint    hint.Hint `json:"hint"`
}

// ModelNotices returns the advice for the current configuration: a
// provider openai that reaches Ollama through its OpenAI-compatible
// endpoint is offered provider ollama.
func (a *App) ModelNotices() []ModelNotice {
	raw := a.model.Load().raw
	var out []ModelNotice
	if msg := raw.OllamaThroughOpenAI(); msg != "" {
		out = append(out, ModelNotice{Message: upperFirst(msg) + ".", Hint: hint.Hint{
			Action:  "Switch to provider ollama (the model and base URL stay as they are)",
			Command: []string{"config", "set", "provider", "ollama"}, Page: hint.PageModel, Target: "provider"}})
	}
	return out
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Models lists the models of the configured server (or of cfg's, when
// cfg.Provider is set: the Model page's unsaved form), sorted by ID, each
// with what the server says it can do and its window. A provider that
// cannot be built (no key) is that error.
func (a *App) Models(ctx context.Context, cfg workspace.Config) ([]provider.ModelInfo, error) {
	p, err := a.providerOf(cfg)
	if err != nil {
		return nil, err
	}
	models, err := provider.ListModels(ctx, p)
	if err != nil {
		return nil, a.hintModelError(err, a.effective(cfg))
	}
	return models, nil
}

// providerOf is the configured provider, or one for cfg when it names a
// provider.
func (a *App) providerOf(cfg workspace.Config) (provider.Provider, error) {
	if cfg.Provider == "" {
		st := a.model.Load()
		if st.setupErr != nil {
			return nil, st.setupErr
		}
		return st.provider, nil
	}
	return a.ProviderFor(cfg, "")
}

func (a *App) effective(cfg workspace.Config) workspace.Config {
	if cfg.Provider == "" {
		return a.model.Load().cfg
	}
	return cfg.WithDefaults()
}

// ErrNotOllama reports a download asked of a server that is not Ollama.
var ErrNotOllama = errors.New("models are downloaded by Ollama, and the model server configured is not Ollama")

// PullModel downloads model into the Ollama server the configuration
// uses (provider ollama, or openai with an Ollama base URL), calling
// progress with each step. Cancel ctx to stop; a later pull resumes.
func (a *App) PullModel(ctx context.Context, model string, progress func(ollama.Progress)) error {
	cfg := a.model.Load().cfg
	p, err := a.ollamaOf(ctx, cfg)
	if err != nil {
		return err
	}
	if err := p.Pull(ctx, model, progress); err != nil {
		if provider.KindOf(err) == provider.ErrNotFound {
			return hint.With(err, hint.Hint{Action: "Check the model's name in Ollama's library (https://ollama.com/library)"})
		}
		return a.hintModelError(err, cfg)
	}
	return nil
}

// ollamaOf is an ollama provider for the server cfg points at, when it
// is an Ollama.
func (a *App) ollamaOf(ctx context.Context, cfg workspace.Config) (*ollama.Provider, error) {
	switch cfg.Provider {
	case "ollama":
	case "openai":
		if _, err := ollama.Detect(ctx, cfg.BaseURL, nil); err != nil {
			return nil, hint.With(fmt.Errorf("%w: %s did not answer as Ollama (%v)", ErrNotOllama, cfg.BaseURL, err), hint.Hint{
				Action: "Download the model with the server's own tool, or choose provider ollama", Page: hint.PageModel, Target: "provider"})
		}
	default:
		return nil, hint.With(fmt.Errorf("%w: provider %s serves its own models", ErrNotOllama, cfg.Provider), hint.Hint{
			Action: "Choose a model from the provider's list", Page: hint.PageModel, Target: "model"})
	}
	return ollama.New(ollamaConfig(cfg, a))
}

// LocalServer is a model server found on this computer.
type LocalServer struct {
	// Provider and BaseURL are the configuration that reaches it.
	Provider string `json:"provider"`
	BaseURL  string `json:"baseURL"`
	// Name is the server's name for people: "Ollama", "LM Studio".
	Name string `json:"name"`
	// Version is the server's, when it says (Ollama).
	Version string `json:"version,omitempty"`
	// Models are its models with their abilities and windows.
	Models []provider.ModelInfo `json:"models"`
	// Suggested is the model to start with: the first that calls tools
	// (an embedding model never), "" when none does.
	Suggested string `json:"suggested,omitempty"`
}

// SuggestedModels are the models offered for download when Ollama runs
// but has no model that calls tools: small, tool-capable, well known.
var SuggestedModels = []string{"qwen3:8b", "llama3.1:8b"}

// FindLocalServers looks for a model server on its usual local address:
// Ollama (localhost:11434) and LM Studio (localhost:1234). It returns the
// ones that answered, with their models, within a few seconds; the first
// run page offers them.
func FindLocalServers(ctx context.Context) []LocalServer {
	return FindServers(ctx, ollama.DefaultBaseURL, openai.LMStudioBaseURL)
}

// FindServers is FindLocalServers at the given addresses: an Ollama root
// and an OpenAI-compatible base URL ("" skips either).
func FindServers(ctx context.Context, ollamaURL, openaiURL string) []LocalServer {
	var mu sync.Mutex
	var out []LocalServer
	var wg sync.WaitGroup
	add := func(s LocalServer) {
		for _, m := range s.Models {
			if m.Can(provider.AbilityTools) && !m.Can(provider.AbilityEmbedding) {
				s.Suggested = m.ID
				break
			}
		}
		mu.Lock()
		out = append(out, s)
		mu.Unlock()
	}
	wg.Go(func() {
		if ollamaURL == "" {
			return
		}
		v, err := ollama.Detect(ctx, ollamaURL, nil)
		if err != nil {
			return
		}
		p, err := ollama.New(ollama.Config{BaseURL: ollamaURL})
		if err != nil {
			return
		}
		models, _ := p.ListModels(ctx)
		add(LocalServer{Provider: "ollama", BaseURL: ollamaURL, Name: "Ollama", Version: v, Models: orNone(models)})
	})
	wg.Go(func() {
		if openaiURL == "" {
			return
		}
		p, err := openai.New(openai.Config{BaseURL: openaiURL})
		if err != nil {
			return
		}
		models, err := p.ListModels(ctx)
		if err != nil {
			return
		}
		add(LocalServer{Provider: "openai", BaseURL: openaiURL, Name: "LM Studio", Models: orNone(models)})
	})
	wg.Wait()
	// Ollama first: it is the default.
	if len(out) == 2 && out[0].Provider != "ollama" {
		out[0], out[1] = out[1], out[0]
	}
	return out
}

func orNone(m []provider.ModelInfo) []provider.ModelInfo {
	if m == nil {
		return []provider.ModelInfo{}
	}
	return m
}
