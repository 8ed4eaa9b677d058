package assistant

import (
	"errors"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// SetSecret stores a secret (redacted from everything Wrasse stores from
// now on). Saving the API key of the configured provider takes effect for
// the next turn.
func (a *App) SetSecret(name, value string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.db.SetSecret(name, value); err != nil {
		return err
	}
	a.afterSecretChange(name)
	return nil
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
