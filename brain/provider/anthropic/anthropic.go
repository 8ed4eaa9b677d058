package anthropic

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

const (
	// DefaultBaseURL is Anthropic's API root.
	DefaultBaseURL = "https://api.anthropic.com"
	// DefaultName is the provider name used when Config.Name is empty.
	DefaultName = "anthropic"
	// DefaultMaxTokens caps an answer when neither the request nor the
	// config says otherwise; the API requires a cap.
	DefaultMaxTokens = 8192
	// DefaultThinkingBudget is the budget_tokens of extended thinking
	// when thinking is on and the config sets none.
	DefaultThinkingBudget = 4096
	// MinThinkingBudget is the least budget the API takes.
	MinThinkingBudget = 1024
)

// Config configures a Provider.
type Config struct {
	// Name names the provider in messages and logs; default DefaultName.
	Name string
	// BaseURL is the API root; default DefaultBaseURL. Set it for a proxy or
	// gateway that speaks the Messages API.
	BaseURL string
	// APIKey is sent as x-api-key. Required with the default BaseURL.
	APIKey string
	// Model is used when a Request names none.
	Model string
	// MaxTokens is used when a Request sets none; default DefaultMaxTokens.
	MaxTokens int
	// HTTPClient sends the requests; default: a client on a clone of
	// http.DefaultTransport that connects within Timeouts.Connect. Either
	// way each streamed answer is watched (Timeouts); there is no overall
	// limit (cancel the context to stop).
	HTTPClient *http.Client
	// Timeouts bound the waits for the server (zero fields: defaults).
	Timeouts provider.Timeouts
	// Clock runs the timeouts; default provider.SystemClock.
	Clock provider.Clock
	// Thinking returns the thinking setting for a model: on (or high)
	// turns extended thinking on with ThinkingBudget, medium and low with
	// a half and a quarter of it (never under MinThinkingBudget); nil or
	// auto leaves it off.
	Thinking func(model string) provider.ThinkingMode
	// ThinkingBudget is budget_tokens for extended thinking; default
	// DefaultThinkingBudget. The answer's max_tokens is raised by it.
	ThinkingBudget int
	// Headers are added to every request (anthropic-beta, a proxy's header).
	// Their values are never logged.
	Headers map[string]string
	// DisablePromptCache leaves cache_control off the request (tools,
	// system prompt and newest message).
	DisablePromptCache bool
	// SystemBreakpointOnly puts cache_control on the system prompt alone,
	// as Wrasse did before issue 16: for wrasse-bench's comparison only.
	SystemBreakpointOnly bool
	// DisableDeferredTools sends every request the plain way, even to a
	// model that supports deferred tools (see cache.go).
	DisableDeferredTools bool
	// ImageInput says whether tool-result images are sent (see images.go);
	// the default sends them to every Claude 3 or later model.
	ImageInput provider.ImageInput
	// Logger receives debug records of requests and failures (never the key
	// nor header values); default discards.
	Logger *slog.Logger
}

// Provider streams Messages. It is safe for concurrent use.
type Provider struct {
	name      string
	baseURL   string // for messages: any password masked
	apiKey    string
	model     string
	maxTokens int
	noCache   bool
	images    provider.ImageInput
	log       *slog.Logger
	messages  sdk.MessageService
	models    sdk.ModelService

	// systemOnly and noDefer are Config's SystemBreakpointOnly and
	// DisableDeferredTools; noDeferModels holds the models that refused
	// deferred tools with a 400, so they are asked only once.
	systemOnly    bool
	noDefer       bool
	noDeferModels sync.Map

	clock    provider.Clock
	timeouts provider.Timeouts
	thinking func(string) provider.ThinkingMode
	budget   int
	server   string
	local    bool
	// probe asks a local server whether it answers at all (wire.WatchConfig.Probe).
	probe   func(context.Context) error
	windows *wire.WindowCache
}

var (
	_ provider.Provider    = (*Provider)(nil)
	_ provider.ModelLister = (*Provider)(nil)
)

// New checks cfg and returns a Provider. It does not contact the server.
func New(cfg Config) (*Provider, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" && cfg.APIKey == "" {
		return nil, ErrNoAPIKey
	}
	e, err := wire.NewEndpoint(wire.EndpointConfig{Name: cfg.Name, DefaultName: DefaultName,
		BaseURL: cfg.BaseURL, DefaultBaseURL: DefaultBaseURL, HTTPClient: cfg.HTTPClient,
		Timeouts: cfg.Timeouts, Clock: cfg.Clock, Logger: cfg.Logger, ErrConfig: ErrConfig})
	if err != nil {
		return nil, err
	}
	if cfg.MaxTokens < 0 {
		return nil, fmt.Errorf("%w: MaxTokens %d is negative", ErrConfig, cfg.MaxTokens)
	}
	maxTokens := cfg.MaxTokens
	if maxTokens == 0 {
		maxTokens = DefaultMaxTokens
	}
	if cfg.ThinkingBudget < 0 {
		return nil, fmt.Errorf("%w: ThinkingBudget %d is negative", ErrConfig, cfg.ThinkingBudget)
	}
	budget := cfg.ThinkingBudget
	if budget == 0 {
		budget = DefaultThinkingBudget
	}
	opts := sdkOptions().Options(e, cfg.APIKey, cfg.Headers)
	return &Provider{
		name:      e.Name,
		baseURL:   e.Shown,
		apiKey:    cfg.APIKey,
		model:     cfg.Model,
		maxTokens: maxTokens,
		noCache:   cfg.DisablePromptCache,
		images:    cfg.ImageInput,
		log:       e.Log,
		messages:  sdk.NewMessageService(opts...),
		models:    sdk.NewModelService(opts...),

		systemOnly: cfg.SystemBreakpointOnly,
		noDefer:    cfg.DisableDeferredTools,

		clock:    e.Clock,
		timeouts: cfg.Timeouts.WithDefaults(),
		thinking: cfg.Thinking,
		budget:   max(budget, MinThinkingBudget),
		server:   e.Server,
		local:    e.Local,
		probe:    e.Probe,
		windows:  wire.NewWindowCache(e.Clock),
	}, nil
}

// sdkOptions are anthropic-sdk-go's option constructors (wire.SDKOptions).
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

// thinkingBudget is the budget_tokens of a request for model, 0 when
// thinking stays off.
func (p *Provider) thinkingBudget(model string) int {
	if p.thinking == nil {
		return 0
	}
	switch p.thinking(model) {
	case provider.ThinkOn, provider.ThinkHigh:
		return p.budget
	case provider.ThinkMedium:
		return max(p.budget/2, MinThinkingBudget)
	case provider.ThinkLow:
		return max(p.budget/4, MinThinkingBudget)
	}
	return 0
}
