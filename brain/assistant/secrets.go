package assistant

import (
	"errors"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// SetSecret stores a secret (redacted from everything Wrasse stores from
// now on). Saving the API key of the configured provider takes effect for
// the next turn. A provider's key is bound to the host it may be sent to:
// the configured base URL's for the configured provider, else that
// provider's default (keyhost.go).
func (a *App) SetSecret(name, value string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.db.SetSecret(name, value); err != nil {
		return err
	}
	if p, ok := providerOfKey(name); ok {
		host := homeHost(p, a.model.Load().raw)
		if err := a.db.BindSecretHost(name, host); err != nil {
			return fmt.Errorf("bind %s to %s: %w", name, host, err)
		}
	}
	a.afterSecretChange(name)
	return nil
}

// providerOfKey says which provider's API key the secret name is.
func providerOfKey(name string) (string, bool) {
	switch name {
	case SecretOpenAI:
		return "openai", true
	case SecretAnthropic:
		return "anthropic", true
	}
	return "", false
}

// DeleteSecret removes a stored secret.
func (a *App) DeleteSecret(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.db.DeleteSecret(name); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return hint.With(fmt.Errorf("there is no secret %q: %w", name, err),
				hint.Hint{Action: "List the stored secrets", Command: []string{"secrets", "list"}})
		}
		return err
	}
	a.afterSecretChange(name)
	return nil
}

// SecretPlaces says where secret name may go: the host a provider key is
// bound to, the capabilities the person assigned it to.
func (a *App) SecretPlaces(name string) (store.SecretPlaces, error) { return a.db.SecretPlaces(name) }

// SecretNames lists the stored secrets' names (never their values).
func (a *App) SecretNames() ([]string, error) { return a.db.SecretNames() }

// HasSecret reports whether a secret is stored, without reading it out.
func (a *App) HasSecret(name string) bool {
	_, err := a.db.Secret(name)
	return err == nil
}

// SetAPIKey stores the API key of a provider ("openai" or "anthropic").
func (a *App) SetAPIKey(providerName, key string) error {
	secret, _ := KeyNames(providerName)
	return a.SetSecret(secret, key)
}

// afterSecretChange rebuilds the model when one of its keys changed.
// Call with a.mu held.
func (a *App) afterSecretChange(name string) {
	if name == SecretOpenAI || name == SecretAnthropic {
		a.swapModel(a.model.Load().raw)
		a.subs.publish(Event{Kind: EventConfig})
	}
}
