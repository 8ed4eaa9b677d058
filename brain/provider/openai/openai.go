package openai

import (
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/wrasse-app/wrasse/brain/provider"
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
	// http.DefaultTransport that waits at most DefaultResponseHeaderTimeout
	// for the response to start, and no overall limit (answers stream for as
	// long as they take; cancel the context to stop).
	HTTPClient *http.Client
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

// DefaultResponseHeaderTimeout bounds the wait for a response to start with
// the default HTTP client. It is long because a local server may first load
// a large model from disk.
const DefaultResponseHeaderTimeout = 5 * time.Minute

// Provider streams Chat Completions. It is safe for concurrent use.
type Provider struct {
	name    string
	baseURL string // for messages: any password masked
	apiKey  string
	model   string
	legacy  bool
	images  provider.ImageInput
	log     *slog.Logger
	chat    sdk.ChatCompletionService
	models  sdk.ModelService
}

var (
	_ provider.Provider    = (*Provider)(nil)
	_ provider.ModelLister = (*Provider)(nil)
)

// New checks cfg and returns a Provider. It does not contact the server.
func New(cfg Config) (*Provider, error) {
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: base URL %q must be an http(s) URL such as %s", ErrConfig, base, DefaultBaseURL)
	}
	base = strings.TrimRight(base, "/")
	// Messages and logs quote the URL; a password in it must not show.
	shown := strings.TrimRight(u.Redacted(), "/")
	name := cfg.Name
	if name == "" {
		name = DefaultName
	}
	client := cfg.HTTPClient
	if client == nil {
		client = defaultHTTPClient()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// The service is built from explicit options only: openai.NewClient would
	// also read OPENAI_API_KEY, OPENAI_BASE_URL and friends from the
	// environment, and Wrasse's config must be the single source.
	opts := []option.RequestOption{
		option.WithBaseURL(base + "/"),
		option.WithHTTPClient(client),
		option.WithMaxRetries(0), // provider.WithRetry retries, knowing what was shown
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.Headers)) {
		opts = append(opts, option.WithHeader(k, cfg.Headers[k]))
	}
	return &Provider{
		name:    name,
		baseURL: shown,
		apiKey:  cfg.APIKey,
		model:   cfg.Model,
		legacy:  cfg.LegacyMaxTokens,
		images:  cfg.ImageInput,
		log:     log.With("provider", name),
		chat:    sdk.NewChatCompletionService(opts...),
		models:  sdk.NewModelService(opts...),
	}, nil
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.name }

func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = DefaultResponseHeaderTimeout
	return &http.Client{Transport: t}
}
