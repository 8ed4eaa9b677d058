package assistant

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// A provider's API key is sent only to the host it is bound to: the host
// of the base URL configured when the key was set (or, for the provider
// not configured then, its default). Moving baseURL elsewhere does not
// carry the key along: the next turn fails before sending anything, until
// the person confirms, in the window or on their terminal, that the key
// may go to the new host (SendKeyTo).

// KeyMove is a provider key that a configuration would send to a host it
// is not bound to.
type KeyMove struct {
	// Provider is "openai" or "anthropic"; Secret the stored secret or
	// environment variable holding the key.
	Provider string `json:"provider"`
	Secret   string `json:"secret"`
	// From is the host the key is bound to; To the host cfg sends it to.
	From string `json:"from"`
	To   string `json:"to"`
}

// Question is how the window and the terminal ask about m.
func (m KeyMove) Question() string {
	return fmt.Sprintf("Send your %s key to %s? It is kept for %s; a server at %s would receive it with every request.",
		providerTitle(m.Provider), m.To, m.From, m.To)
}

func providerTitle(p string) string {
	if p == "anthropic" {
		return "Anthropic"
	}
	return "OpenAI"
}

// KeyHost is the host[:port] of a base URL that a key is bound to: the
// host lower-cased, the scheme's default port left out. "" when u is no
// http(s) URL.
func KeyHost(u string) string {
	pu, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Hostname() == "" {
		return ""
	}
	host, port := strings.ToLower(pu.Hostname()), pu.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 literal
	}
	if port == "" || port == "443" && pu.Scheme == "https" || port == "80" && pu.Scheme == "http" {
		return host
	}
	return host + ":" + port
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
// as bound nowhere.
func (a *App) keyMove(cfg workspace.Config) (KeyMove, bool, error) {
	cfg = cfg.WithDefaults()
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

// bindKeys binds each provider key that has no host yet (one stored
// before keys were bound, or one first seen in the environment) to the
// host it has been going to: the configured one for the configured
// provider, the default for the other. Call at Open.
func (a *App) bindKeys(raw workspace.Config) {
	for _, p := range []string{"openai", "anthropic"} {
		key, name := a.apiKey(p)
		if key == "" {
			continue
		}
		places, err := a.db.SecretPlaces(name)
		if err != nil || places.Host != "" {
			continue
		}
		host := homeHost(p, raw)
		if err := a.db.BindSecretHost(name, host); err != nil {
			a.log.Warn("binding the API key to its host", "secret", name, "error", err)
			continue
		}
		a.log.Info("API key bound to the host it is sent to", "secret", name, "host", host)
	}
}
