package openai

import (
	"context"
	"log/slog"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

// Base URLs of the common OpenAI-compatible servers.
const (
	DefaultBaseURL    = OllamaBaseURL
	OllamaBaseURL     = "http://localhost:11434/v1"
	OpenAIBaseURL     = "https://api.openai.com/v1"
	OpenRouterBaseURL = "https://openrouter.ai/api/v1"
	LMStudioBaseURL   = "http://localhost:1234/v1"
	LlamaCppBaseURL   = "http://localhost:8080/v1"
	VLLMBaseURL       = "http://localhost:8000/v1"
)

// DefaultName is the provider name used when Config.Name is empty.
const DefaultName = "openai"

// Config configures a Provider. Only Model (or Request.Model) is needed to
// talk to a local Ollama.
type Config struct {
	// Name names the provider in messages and logs ("openai", "ollama",
	// "openrouter"); default DefaultName.
	Name string
	// BaseURL is the API root, ending in /v1; default DefaultBaseURL (Ollama).
	BaseURL string
	// APIKey is sent as a bearer token; empty sends none (local servers).
	APIKey string
	// Model is used when a Request names none.
	Model string
	// HTTPClient sends the requests; default: a client on a clone of
	// http.DefaultTransport that connects within Timeouts.Connect. Either
	// way each streamed answer is watched (Timeouts): it must start, and
	// keep arriving, within its limits; there is no overall limit (answers
	// stream for as long as they take; cancel the context to stop).
	HTTPClient *http.Client
	// Timeouts bound the waits for the server (zero fields: defaults).
	Timeouts provider.Timeouts
	// Clock runs the timeouts; default provider.SystemClock.
	Clock provider.Clock
	// Thinking returns the thinking setting for a model: low, medium and
	// high are sent as reasoning_effort; nil is auto for every model.
	Thinking func(model string) provider.ThinkingMode
	// Headers are added to every request (OpenRouter's HTTP-Referer and
	// X-Title, a proxy's own header). Their values are never logged.
	Headers map[string]string
	// LegacyMaxTokens sends Request.MaxTokens as max_tokens instead of
	// max_completion_tokens, for servers that predate the newer field.
	LegacyMaxTokens bool
	// ImageInput says whether tool-result images are sent (see images.go);
	// the default sends them to the models provider.VisionModel names.
	ImageInput provider.ImageInput
	// Logger receives debug records of requests and failures (never the key
	// nor header values); default discards.
	Logger *slog.Logger
}

// Provider streams Chat Completions. It is safe for concurrent use.
type Provider struct {
	name    string
	base    string // for requests
	baseURL string // for messages: any password masked
	apiKey  string
	model   string
	legacy  bool
	images  provider.ImageInput
	log     *slog.Logger
	chat    sdk.ChatCompletionService
	models  sdk.ModelService

	// http sends the requests the SDK does not (window discovery).
	http     *http.Client
	clock    provider.Clock
	timeouts provider.Timeouts
	thinking func(string) provider.ThinkingMode
	server   string
	local    bool
	// probe asks a local server whether it answers at all (wire.WatchConfig.Probe).
	probe func(context.Context) error
	// windows caches discovered context windows (window.go).
	windows windowCache
	// encoded keeps the history messages' JSON from request to request
	// (encode.go).
	encoded encodedMessages
}

var (
	_ provider.Provider    = (*Provider)(nil)
	_ provider.ModelLister = (*Provider)(nil)
)

// New checks cfg and returns a Provider. It does not contact the server.
func New(cfg Config) (*Provider, error) {
	e, err := wire.NewEndpoint(wire.EndpointConfig{Name: cfg.Name, DefaultName: DefaultName,
		BaseURL: cfg.BaseURL, DefaultBaseURL: DefaultBaseURL, HTTPClient: cfg.HTTPClient,
		Timeouts: cfg.Timeouts, Clock: cfg.Clock, Logger: cfg.Logger, ErrConfig: ErrConfig})
	if err != nil {
		return nil, err
	}
	opts := sdkOptions().Options(e, cfg.APIKey, cfg.Headers)
	return &Provider{
		name:    e.Name,
		base:    e.Base,
		baseURL: e.Shown,
		apiKey:  cfg.APIKey,
		model:   cfg.Model,
		legacy:  cfg.LegacyMaxTokens,
		images:  cfg.ImageInput,
		log:     e.Log,
		chat:    sdk.NewChatCompletionService(opts...),
		models:  sdk.NewModelService(opts...),

		http:     e.Client,
		clock:    e.Clock,
		timeouts: cfg.Timeouts.WithDefaults(),
		thinking: cfg.Thinking,
		server:   e.Server,
		local:    e.Local,
		probe:    e.Probe,
		windows:  newWindowCache(e.Clock),
	}, nil
}

// sdkOptions are openai-go's option constructors (wire.SDKOptions).
func sdkOptions() wire.SDKOptions[option.RequestOption] {
	return wire.SDKOptions[option.RequestOption]{
		BaseURL:    option.WithBaseURL,
		HTTPClient: func(c *http.Client) option.RequestOption { return option.WithHTTPClient(c) },
		MaxRetries: option.WithMaxRetries,
		APIKey:     option.WithAPIKey,
		Header:     option.WithHeader,
	}
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.name }

// thinkingFor is the thinking setting for model.
func (p *Provider) thinkingFor(model string) provider.ThinkingMode {
	if p.thinking == nil {
		return provider.ThinkAuto
	}
	return p.thinking(model)
}
