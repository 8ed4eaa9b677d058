package assistant

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"

	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// A provider's API key is sent only to the origin it is bound to: the
// scheme, host and port of the base URL configured when the key was set
// (or, for the provider not configured then, its default). Moving baseURL
// elsewhere does not carry the key along, nor does going from https to
// http on the same host (the key would cross the network readable): the
// next turn fails before sending anything, until the person confirms, in
// the window or on their terminal, that the key may go to the new origin
// (SendKeyTo).

// KeyMove is a provider key that a configuration would send to an origin
// it is not bound to.
type KeyMove struct {
	// Provider is "openai" or "anthropic"; Secret the stored secret or
	// environment variable holding the key.
	Provider string `json:"provider"`
	Secret   string `json:"secret"`
	// From is the origin the key is bound to; To the origin cfg sends it
	// to (KeyHost's form).
	From string `json:"from"`
	To   string `json:"to"`
}

// Question is how the window and the terminal ask about m. The person
// decides from it alone, so it says when the key would travel unencrypted
// and when the host is an internationalised name, which KeyHost shows as
// DNS sees it (xn--…), never as a look-alike of another.
func (m KeyMove) Question() string {
	q := fmt.Sprintf("Send your %s key to %s? It is kept for %s; a server at %s would receive it with every request.",
		providerTitle(m.Provider), m.To, m.From, m.To)
	if to, err := url.Parse(m.To); err == nil {
		if to.Scheme == "http" && !isLoopback(to.Hostname()) {
			q += " Over http the key crosses the network unencrypted: anyone on the way can read it."
		}
		if strings.Contains(to.Hostname(), "xn--") {
			q += " The host's name is internationalised, written as DNS sees it: make sure it is the one you mean."
		}
	}
	return q
}

func providerTitle(p string) string {
	if p == "anthropic" {
		return "Anthropic"
	}
	return "OpenAI"
}

// KeyHost is the origin of a base URL that a key is bound to:
// scheme://host[:port], the host lower-cased and in the ASCII form DNS
// looks up (an internationalised name as xn--…, as the HTTP client sends
// it), the scheme's default port left out. "" when u is no http(s) URL.
func KeyHost(u string) string {
	pu, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Hostname() == "" {
		return ""
	}
	host, port := asciiHost(pu.Hostname()), pu.Port()
	if port == "" || port == "443" && pu.Scheme == "https" || port == "80" && pu.Scheme == "http" {
		return pu.Scheme + "://" + host
	}
	return pu.Scheme + "://" + host + ":" + port
}

// asciiHost is h as a request names it: an IPv6 literal in brackets, a
// name in its ASCII (punycode) form. A name that is no valid
// internationalised name is escaped, so it is shown in ASCII too and
// matches no real host.
func asciiHost(h string) string {
	if strings.Contains(h, ":") {
		return "[" + strings.ToLower(h) + "]" // an IPv6 literal
	}
	a, err := idna.Lookup.ToASCII(h)
	if err != nil {
		return url.PathEscape(strings.ToLower(h))
	}
	return a
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// legacyOrigin is the origin of a key bound to hostPort before keys were
// bound to origins: configured when that has the same host and port (the
// key has been going there), else https, or http for this computer's own
// servers.
func legacyOrigin(hostPort, configured string) string {
	switch {
	case hostOf(configured) == hostPort:
		return configured
	case isLoopback(hostName(hostPort)):
		return "http://" + hostPort
	}
	return "https://" + hostPort
}

// hostName is the host of host[:port], an IPv6 literal's brackets taken
// off.
func hostName(hostPort string) string {
	u, err := url.Parse("//" + hostPort)
	if err != nil {
		return hostPort
	}
	return u.Hostname()
}

// hostOf is the host[:port] of origin, scheme left out.
func hostOf(origin string) string {
	_, h, ok := strings.Cut(origin, "://")
	if !ok {
		return origin
	}
	return h
}

// baseURLOf is the base URL cfg's provider talks to, defaults filled.
func baseURLOf(cfg workspace.Config) string {
	cfg = cfg.WithDefaults()
	if cfg.BaseURL == "" && cfg.Provider == "anthropic" {
		return anthropic.DefaultBaseURL
	}
	return cfg.BaseURL
}

// homeHost is the host a key of providerName set now is bound to: the
// configured base URL's when that provider is configured, else the
// provider's default.
func homeHost(providerName string, raw workspace.Config) string {
	if raw.WithDefaults().Provider == providerName {
		return KeyHost(baseURLOf(raw))
	}
	return KeyHost(baseURLOf(workspace.Config{Provider: providerName}))
}

// keyMove says whether cfg would send its provider's key somewhere it is
// not bound to. A key not bound at all (never the case after Open) counts
// as bound nowhere; a provider that sends none (ollama) moves none.
func (a *App) keyMove(cfg workspace.Config) (KeyMove, bool, error) {
	cfg = cfg.WithDefaults()
	if cfg.Provider != "openai" && cfg.Provider != "anthropic" {
		return KeyMove{}, false, nil // sends no key (Ollama's own API)
	}
	key, name := a.apiKey(cfg.Provider)
	if key == "" {
		return KeyMove{}, false, nil
	}
	p, err := a.db.SecretPlaces(name)
	if err != nil {
		return KeyMove{}, false, err
	}
	to := KeyHost(baseURLOf(cfg))
	if p.Host == to {
		return KeyMove{}, false, nil
	}
	return KeyMove{Provider: cfg.Provider, Secret: name, From: p.Host, To: to}, true, nil
}

// KeyMoveFor says whether saving cfg would send its provider's API key to
// a host other than the one it is bound to: the window and the CLI ask
// before saving, and bind it with SendKeyTo when the person agrees.
func (a *App) KeyMoveFor(cfg workspace.Config) (KeyMove, bool) {
	m, ok, err := a.keyMove(cfg)
	if err != nil {
		a.log.Warn("reading where the API key may go", "error", err)
	}
	return m, ok
}

// SendKeyTo binds providerName's API key (stored, else from the
// environment) to the host of the configured base URL, as the person
// confirmed: the next turn sends it there. Call only on the person's own
// answer (the window's question, their terminal, an explicit flag).
func (a *App) SendKeyTo(providerName string) (host string, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	raw := a.model.Load().raw
	if raw.WithDefaults().Provider != providerName {
		return "", fmt.Errorf("%w: the configured provider is %s, not %s", ErrConfig, raw.WithDefaults().Provider, providerName)
	}
	key, name := a.apiKey(providerName)
	if key == "" {
		return "", nil
	}
	host = homeHost(providerName, raw)
	if err := a.db.BindSecretHost(name, host); err != nil {
		return "", err
	}
	a.log.Info("the API key may now be sent to the configured host", "secret", name, "host", host)
	a.swapModel(raw)
	a.subs.publish(Event{Kind: EventConfig})
	return host, nil
}

// checkKeyHost refuses to hand cfg's provider the key when cfg sends it to
// a host the key is not bound to.
func (a *App) checkKeyHost(cfg workspace.Config) error {
	m, moved, err := a.keyMove(cfg)
	if err != nil {
		return fmt.Errorf("read where the API key may go: %w", err)
	}
	if !moved {
		return nil
	}
	return keyMoveError(m, cfg)
}

func keyMoveError(m KeyMove, cfg workspace.Config) error {
	from := m.From
	if from == "" {
		from = "no host yet"
	}
	base := baseURLOf(cfg)
	return hint.With(fmt.Errorf("%w: your %s key (%s) is kept for %s, and the base URL now points to %s; nothing was sent",
		ErrKeyHost, providerTitle(m.Provider), m.Secret, from, m.To), hint.Hint{
		Action:  "Confirm sending your " + providerTitle(m.Provider) + " key to " + m.To + " (for one chat turn: --send-key), or set the base URL back",
		Command: []string{"config", "set", "baseURL", base, "--send-key"}, Page: hint.PageModel, Target: "baseURL"})
}

// bindKeys binds each provider key that has no origin yet (one stored
// before keys were bound, or one first seen in the environment) to the
// origin it has been going to: the configured one for the configured
// provider, the default for the other; and gives a key bound to a host
// alone, before origins were, its origin (legacyOrigin). Call at Open.
func (a *App) bindKeys(raw workspace.Config) {
	for _, p := range []string{"openai", "anthropic"} {
		key, name := a.apiKey(p)
		if key == "" {
			continue
		}
		places, err := a.db.SecretPlaces(name)
		if err != nil {
			continue
		}
		host := homeHost(p, raw)
		switch {
		case places.Host == "":
		case !strings.Contains(places.Host, "://"):
			host = legacyOrigin(places.Host, host)
		default:
			continue
		}
		if err := a.db.BindSecretHost(name, host); err != nil {
			a.log.Warn("binding the API key to its host", "secret", name, "error", err)
			continue
		}
		a.log.Info("API key bound to the host it is sent to", "secret", name, "host", host)
	}
}
