package assistant

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Names of the stored secrets and environment variables holding API keys.
const (
	SecretOpenAI    = "openai_api_key"
	SecretAnthropic = "anthropic_api_key"
	EnvOpenAI       = "OPENAI_API_KEY"
	EnvAnthropic    = "ANTHROPIC_API_KEY"
)

// KeyNames returns the stored secret and the environment variable that
// hold provider's API key.
func KeyNames(providerName string) (secret, env string) {
	if providerName == "anthropic" {
		return SecretAnthropic, EnvAnthropic
	}
	return SecretOpenAI, EnvOpenAI
}

// minEnvKeyLen is the shortest key from the environment that is redacted:
// shorter values are placeholders such as "ollama" or "none" that local
// servers ignore, and redacting them would garble ordinary words.
const minEnvKeyLen = 8

// modelState is what a turn needs about the model: the effective config
// and the provider built from it (or why none could be). It is immutable
// once built and swapped whole; turns hold the one they began with.
type modelState struct {
	raw      workspace.Config // config.json as written
	cfg      workspace.Config // with defaults
	provider provider.Provider
	// setupErr says why provider is nil (no key, unknown provider).
	setupErr error
	// windows are the context windows learnt from provider, by model
	// (window.go).
	windows sync.Map

	// turns counts the turns using this state, so the old one is closed
	// only after they end.
	turns sync.WaitGroup
}

// Override changes the model for one turn (the CLI's --provider,
// --base-url and --model); zero fields keep the configured value.
type Override struct {
	Provider string
	BaseURL  string
	Model    string
	// SendKey sends the provider's API key to BaseURL's host for this
	// turn even though the key is bound to another (the person said so on
	// the command line); the binding stays as it was.
	SendKey bool
}

func (o Override) empty() bool { return o == Override{} }

// apply returns cfg with o applied; another provider starts from its own
// defaults.
func (o Override) apply(cfg workspace.Config) workspace.Config {
	if o.Provider == "" && o.BaseURL != "" && cfg.Provider != "anthropic" {
		// A base URL alone says which kind of server it is, as in a
		// config.json without a provider.
		o.Provider = workspace.ImpliedProvider(o.BaseURL)
	}
	if o.Provider != "" && o.Provider != cfg.Provider {
		cfg = workspace.Config{Provider: o.Provider, ContextWindow: cfg.ContextWindow, MaxSteps: cfg.MaxSteps,
			Folders: cfg.Folders, PinnedCapabilities: cfg.PinnedCapabilities, Thinking: cfg.Thinking,
			ThinkingBudget: cfg.ThinkingBudget, StreamIdleTimeout: cfg.StreamIdleTimeout, ImageInput: cfg.ImageInput}
	}
	if o.BaseURL != "" {
		cfg.BaseURL = o.BaseURL
	}
	if o.Model != "" {
		cfg.Model = o.Model
	}
	return cfg.WithDefaults()
}

// buildModel makes the model state for cfg. A provider that cannot be
// built is not an error here: each turn then says what is missing.
func (a *App) buildModel(cfg, raw workspace.Config) *modelState {
	st := &modelState{raw: raw, cfg: cfg}
	p, err := a.buildProvider(cfg)
	if err != nil {
		st.setupErr = err
		return st
	}
	retries := provider.RetryOptions{MaxRetries: a.opts.Retries, Logger: a.log}
	st.provider = provider.WithRetry(p, retries)
	return st
}

// buildProvider makes the configured provider, with its API key from the
// stored secrets or else the environment. A key from the environment is
// added to the store's redaction, as a stored one already is, so it
// reaches neither the history, the model, the screen nor the log.
func (a *App) buildProvider(cfg workspace.Config) (provider.Provider, error) {
	return a.buildProviderSending(cfg, false)
}

// buildProviderSending is buildProvider; sendKey skips the key's host
// check for one turn the person asked for explicitly (Override.SendKey).
func (a *App) buildProviderSending(cfg workspace.Config, sendKey bool) (provider.Provider, error) {
	if cfg.Provider == "ollama" {
		// Ollama takes no key: none is read, so none can reach it.
		return ollama.New(ollamaConfig(cfg, a))
	}
	key, _ := a.apiKey(cfg.Provider)
	if key != "" && !sendKey && (cfg.Provider == "openai" || cfg.Provider == "anthropic") {
		// The key goes only to the host it is bound to (keyhost.go).
		if err := a.checkKeyHost(cfg); err != nil {
			return nil, err
		}
	}
	switch cfg.Provider {
	case "openai":
		name := "openai"
		if usesLocalOllama(cfg) {
			name = "ollama"
		}
		return openai.New(openai.Config{Name: name, BaseURL: cfg.BaseURL, APIKey: key, Model: cfg.Model, Logger: a.log,
			ImageInput: imageInput(cfg), Timeouts: timeouts(cfg), Thinking: thinking(cfg)})
	case "anthropic":
		p, err := anthropic.New(anthropic.Config{BaseURL: cfg.BaseURL, APIKey: key, Model: cfg.Model, Logger: a.log,
			ImageInput: imageInput(cfg), Timeouts: timeouts(cfg), Thinking: thinking(cfg), ThinkingBudget: cfg.ThinkingBudget})
		if errors.Is(err, anthropic.ErrNoAPIKey) {
			return nil, hint.With(fmt.Errorf("there is no Anthropic API key: %w", err), hint.Hint{
				Action:  "Save an Anthropic API key (or set " + EnvAnthropic + ")",
				Command: []string{"secrets", "set", SecretAnthropic}, Page: hint.PageModel, Target: "apiKey"})
		}
		return p, err
	}
	return nil, hint.With(fmt.Errorf("%w: provider %q is not ollama, openai or anthropic", ErrConfig, cfg.Provider), hint.Hint{
		Action:  "Choose the provider ollama, openai (any OpenAI-compatible server) or anthropic",
		Command: []string{"config", "set", "provider", "ollama"}, Page: hint.PageModel, Target: "provider"})
}

// ollamaConfig is the ollama provider's configuration for cfg.
func ollamaConfig(cfg workspace.Config, a *App) ollama.Config {
	return ollama.Config{BaseURL: cfg.BaseURL, Model: cfg.Model, Logger: a.log, ImageInput: imageInput(cfg),
		Timeouts: timeouts(cfg), Thinking: thinking(cfg), ContextWindow: cfg.ContextWindow,
		// The estimate the agent fits requests with, so num_ctx covers
		// what it fitted.
		CountTokens: cerebellum.EstimateTokens}
}

// timeouts are the providers' limits for cfg: streamIdleTimeout between
// pieces of an answer (and before the first from a server elsewhere).
func timeouts(cfg workspace.Config) provider.Timeouts {
	return provider.Timeouts{Idle: cfg.IdleTimeout()}
}

// thinking resolves config key thinking per model; a value the config
// check already reported counts as auto.
func thinking(cfg workspace.Config) func(string) provider.ThinkingMode {
	t := cfg.Thinking
	return func(model string) provider.ThinkingMode {
		m, _ := provider.ParseThinking(t.For(model))
		return m
	}
}

// imageInput is the config's imageInput for the providers; a value the
// config check already reported counts as auto.
func imageInput(cfg workspace.Config) provider.ImageInput {
	in, _ := provider.ParseImageInput(cfg.ImageInput)
	return in
}

// apiKey is the stored key of the provider, else its environment
// variable, and the name of the one it is.
func (a *App) apiKey(providerName string) (key, name string) {
	secret, env := KeyNames(providerName)
	if v, err := a.db.Secret(secret); err == nil {
		return v, secret
	}
	v := a.opts.Getenv(env)
	if len(v) >= minEnvKeyLen {
		if err := a.db.AddRedaction(env, v); err != nil {
			a.log.Warn("cannot redact the API key from the environment", "variable", env, "error", err)
		}
	}
	return v, env
}

// usesLocalOllama reports whether cfg talks to the default local Ollama,
// over its own API or its OpenAI-compatible endpoint.
func usesLocalOllama(cfg workspace.Config) bool {
	base := strings.TrimRight(cfg.BaseURL, "/")
	switch cfg.Provider {
	case "ollama":
		return base == "" || base == ollama.DefaultBaseURL
	case "openai":
		return base == "" || base == openai.OllamaBaseURL
	}
	return false
}

// setupHint is the hint attached to a turn that no model answered when
// nothing says more about why (a failure's own kind does: modelHint).
func setupHint(cfg workspace.Config) hint.Hint {
	if usesLocalOllama(cfg) {
		return hint.Hint{Action: "Start Ollama (ollama serve, then ollama pull " + cfg.Model + ") or choose another model",
			Command: []string{"config", "set", "baseURL", "URL"}, Page: hint.PageModel, Target: "baseURL"}
	}
	return hint.Hint{Action: "Check the provider, base URL and model", Command: []string{"config"}, Page: hint.PageModel}
}

// setupText ends the error shown in a conversation when no model answers.
// It names no command or button: the hint carries those.
func setupText(cfg workspace.Config) string {
	if usesLocalOllama(cfg) {
		return "Start a local model with Ollama (ollama serve, then ollama pull " + cfg.Model +
			"), or choose another provider or model in the model settings."
	}
	return "Check the provider, base URL and model in the model settings."
}

// Model returns the configuration the next turn uses (defaults filled in).
// Its ContextWindow is the configured one, else the window learnt from
// the server for its model once known (0 before: see ContextWindow).
func (a *App) Model() workspace.Config {
	st := a.model.Load()
	cfg := st.cfg
	if cfg.ContextWindow == 0 {
		if w, ok := st.learnt(cfg.Model); ok {
			cfg.ContextWindow = w.Tokens
		}
	}
	return cfg
}

// ModelProblem says why no model can be asked right now (no key, an
// unknown provider), or nil when a provider is set up. Whether the server
// answers is only known by asking: see TestModel.
func (a *App) ModelProblem() error { return a.model.Load().setupErr }

// swapModel builds the state for raw, swaps it in and closes the old one
// once the turns using it end. Call with a.mu held.
func (a *App) swapModel(raw workspace.Config) {
	next := a.buildModel(raw.WithDefaults(), raw)
	old := a.model.Swap(next)
	if old != nil {
		go func() {
			old.turns.Wait()
			if c, ok := old.provider.(interface{ Close() error }); ok {
				if err := c.Close(); err != nil {
					a.log.Warn("closing the previous model provider", "error", err)
				}
			}
		}()
	}
}

// ProviderFor builds a provider for a configuration that is not saved
// (the Model page's Test and model list try what the user typed). key is
// the key typed; "" means the stored key, else the environment's, as a
// turn would use. The result is not retried: a test should answer at once.
func (a *App) ProviderFor(cfg workspace.Config, key string) (provider.Provider, error) {
	cfg = cfg.WithDefaults()
	if err := workspace.CheckBaseURL(cfg.BaseURL); err != nil {
		return nil, hint.With(err, hint.Hint{Action: "Correct the base URL", Page: hint.PageModel, Target: "baseURL"})
	}
	if key == "" || cfg.Provider == "ollama" {
		return a.buildProvider(cfg)
	}
	switch cfg.Provider {
	case "openai":
		return openai.New(openai.Config{BaseURL: cfg.BaseURL, APIKey: key, Model: cfg.Model, Logger: a.log, Timeouts: timeouts(cfg)})
	case "anthropic":
		return anthropic.New(anthropic.Config{BaseURL: cfg.BaseURL, APIKey: key, Model: cfg.Model, Logger: a.log, Timeouts: timeouts(cfg)})
	}
	return a.buildProvider(cfg) // says the provider is unknown, with its hint
}
