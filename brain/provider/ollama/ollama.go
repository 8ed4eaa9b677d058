package ollama

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/internal/wire"
)

const (
	// DefaultBaseURL is where Ollama listens unless told otherwise.
	DefaultBaseURL = "http://localhost:11434"
	// DefaultName is the provider name used when Config.Name is empty.
	DefaultName = "ollama"
	// DefaultKeepAlive keeps a model loaded between the turns of a
	// conversation (Ollama's own default is 5 minutes).
	DefaultKeepAlive = 30 * time.Minute
)

// Config configures a Provider. The zero value talks to a local Ollama.
type Config struct {
	// Name names the provider in messages and logs; default DefaultName.
	Name string
	// BaseURL is the server's root; default DefaultBaseURL. A trailing /v1
	// (the OpenAI-compatible endpoint's base) is dropped.
	BaseURL string
	// Model is used when a Request names none.
	Model string
	// HTTPClient sends the requests; default: a client that connects
	// within Timeouts.Connect (answers are watched either way).
	HTTPClient *http.Client
	// Timeouts bound the waits for the server (zero fields: defaults).
	Timeouts provider.Timeouts
	// Clock runs the timeouts; default provider.SystemClock.
	Clock provider.Clock
	// Thinking returns the thinking setting for a model; nil is auto.
	Thinking func(model string) provider.ThinkingMode
	// KeepAlive is how long the server keeps the model loaded after a
	// request; 0 means DefaultKeepAlive, a negative value the server's own
	// default.
	KeepAlive time.Duration
	// ContextWindow, when set, caps num_ctx and is the window reported
	// (the configuration's contextWindow).
	ContextWindow int
	// CountTokens estimates the tokens of a text for num_ctx; it should
	// over-count, as the agent's estimate does (default: one token per
	// three bytes).
	CountTokens func(string) int
	// ImageInput says whether tool-result images are sent; auto sends them
	// to models whose capabilities include vision.
	ImageInput provider.ImageInput
	// Logger receives debug records of requests and failures; default
	// discards.
	Logger *slog.Logger
}

// Provider talks to one Ollama server. It is safe for concurrent use.
type Provider struct {
	name      string
	base      string // root, for requests
	baseURL   string // for messages: any password masked
	model     string
	keepAlive time.Duration
	window    int
	images    provider.ImageInput
	count     func(string) int
	thinking  func(string) provider.ThinkingMode
	clock     provider.Clock
	timeouts  provider.Timeouts
	log       *slog.Logger
	client    *api.Client
	http      *http.Client
	local     bool

	mu sync.Mutex
	// shows caches /api/show per model; numCtx is the largest num_ctx
	// this provider sent per model (loaded) (a smaller one would reload it).
	shows  map[string]*modelFacts
	loaded map[string]int
	// showRequests counts /api/show requests, for tests and wrasse-bench.
	showRequests int
}

var (
	_ provider.Provider     = (*Provider)(nil)
	_ provider.ModelLister  = (*Provider)(nil)
	_ provider.WindowReader = (*Provider)(nil)
)

// New checks cfg and returns a Provider. It does not contact the server.
func New(cfg Config) (*Provider, error) {
	base, u, err := Root(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.ContextWindow < 0 {
		return nil, fmt.Errorf("%w: ContextWindow %d is negative", ErrConfig, cfg.ContextWindow)
	}
	name := cfg.Name
	if name == "" {
		name = DefaultName
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	clock := cfg.Clock
	if clock == nil {
		clock = provider.SystemClock()
	}
	keep := cfg.KeepAlive
	if keep == 0 {
		keep = DefaultKeepAlive
	}
	count := cfg.CountTokens
	if count == nil {
		count = func(s string) int { return (len(s) + 2) / 3 }
	}
	// A redirect elsewhere would carry the conversation (and, for
	// ollama.com, the signed Authorization) there.
	client := provider.SameOriginRedirects(wire.HTTPClient(cfg.HTTPClient, cfg.Timeouts), u)
	return &Provider{
		name:      name,
		base:      base,
		baseURL:   strings.TrimRight(u.Redacted(), "/"),
		model:     cfg.Model,
		keepAlive: keep,
		window:    cfg.ContextWindow,
		images:    cfg.ImageInput,
		count:     count,
		thinking:  cfg.Thinking,
		clock:     clock,
		timeouts:  cfg.Timeouts.WithDefaults(),
		log:       log.With("provider", name),
		client:    api.NewClient(u, client),
		http:      client,
		local:     wire.IsLocal(base),
		shows:     map[string]*modelFacts{},
		loaded:    map[string]int{},
	}, nil
}

// Root checks an Ollama base URL and returns the server's root: "" is
// DefaultBaseURL, and a trailing /v1 (the OpenAI-compatible endpoint) is
// dropped.
func Root(base string) (string, *url.URL, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", nil, fmt.Errorf("%w: base URL %q must be an http(s) URL such as %s", ErrConfig, base, DefaultBaseURL)
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/v1")
	u.RawQuery, u.Fragment = "", ""
	return strings.TrimRight(u.String(), "/"), u, nil
}

// Name returns the configured provider name.
func (p *Provider) Name() string { return p.name }

// BaseURL returns the server's root as requests use it.
func (p *Provider) BaseURL() string { return p.base }

// thinkingFor is the thinking setting for model.
func (p *Provider) thinkingFor(model string) provider.ThinkingMode {
	if p.thinking == nil {
		return provider.ThinkAuto
	}
	return p.thinking(model)
}

// classifier is the classifier for a request about model.
func (p *Provider) classifier(model string) *wire.Classifier {
	return wire.NewClassifier(p.name, p.baseURL, "", model)
}
