package wire

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Endpoint is what the SDK providers (anthropic, openai) make of the
// Config fields they share, checked once here.
type Endpoint struct {
	// Name names the provider in messages and logs.
	Name string
	// Base is the API root without a trailing slash, for requests.
	Base string
	// Shown is Base with any password masked, for messages and logs.
	Shown string
	// Client sends the requests: watched (Timeouts), and redirected only
	// to the same origin, since net/http would carry x-api-key and the
	// SDKs' own refusal reads like a network fault.
	Client *http.Client
	Clock  provider.Clock
	// Log is the configured logger (or one that discards) naming the
	// provider.
	Log *slog.Logger
	// Server and Local describe Base for error messages (ServerName,
	// IsLocal).
	Server string
	Local  bool
}

// EndpointConfig are the shared Config fields, with each provider's
// defaults and its ErrConfig.
type EndpointConfig struct {
	Name, DefaultName       string
	BaseURL, DefaultBaseURL string
	HTTPClient              *http.Client
	Timeouts                provider.Timeouts
	Clock                   provider.Clock
	Logger                  *slog.Logger
	ErrConfig               error
}

// NewEndpoint checks the base URL (an http(s) URL; DefaultBaseURL when
// empty) and fills in the defaults.
func NewEndpoint(c EndpointConfig) (Endpoint, error) {
	base := strings.TrimSpace(c.BaseURL)
	if base == "" {
		base = c.DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Endpoint{}, fmt.Errorf("%w: base URL %q must be an http(s) URL such as %s", c.ErrConfig, base, c.DefaultBaseURL)
	}
	base = strings.TrimRight(base, "/")
	name := c.Name
	if name == "" {
		name = c.DefaultName
	}
	clock := c.Clock
	if clock == nil {
		clock = provider.SystemClock()
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return Endpoint{
		Name:   name,
		Base:   base,
		Shown:  strings.TrimRight(u.Redacted(), "/"),
		Client: provider.SameOriginRedirects(HTTPClient(c.HTTPClient, c.Timeouts), u),
		Clock:  clock,
		Log:    log.With("provider", name),
		Server: ServerName(base),
		Local:  IsLocal(base),
	}, nil
}

// SDKOptions are the option constructors of one SDK (anthropic-sdk-go's
// or openai-go's option package: same names, different types).
type SDKOptions[O any] struct {
	BaseURL    func(string) O
	HTTPClient func(*http.Client) O
	MaxRetries func(int) O
	APIKey     func(string) O
	Header     func(name, value string) O
}

// Options are the request options an SDK service is built from, explicit
// only: the SDKs' NewClient would also read API keys, base URLs and
// profile files from the environment, and Wrasse's config must be the
// single source. The SDK never retries (provider.WithRetry does, knowing
// what was shown); headers go in name order, the key only when set.
func (o SDKOptions[O]) Options(e Endpoint, apiKey string, headers map[string]string) []O {
	opts := []O{o.BaseURL(e.Base + "/"), o.HTTPClient(e.Client), o.MaxRetries(0)}
	if apiKey != "" {
		opts = append(opts, o.APIKey(apiKey))
	}
	for _, k := range slices.Sorted(maps.Keys(headers)) {
		opts = append(opts, o.Header(k, headers[k]))
	}
	return opts
}

// Probe asks the server at e.Base for its front page (scheme and host,
// any path): any answer, an error page or a redirect included, says it is
// up (WatchConfig.Probe). It sends no key: the SDKs add theirs per request.
func (e Endpoint) Probe(ctx context.Context) error {
	u, err := url.Parse(e.Base)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.Scheme+"://"+u.Host+"/", nil)
	if err != nil {
		return err
	}
	// A redirect is an answer too, and is not followed: the shared
	// client refuses one to another origin, which would read as silence.
	c := *e.Client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	return res.Body.Close()
}
