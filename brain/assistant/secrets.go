package assistant

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
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

// Capabilities reach only the secrets the person assigned to them: a
// ${secret:NAME} in an MCP server's env or headers, and env.Secret(NAME)
// in a plugin (besides its declaring NAME and being granted env), are
// refused for any other secret. The person assigns with `wrasse secrets
// assign NAME CAPABILITY` or on the capability's page; typing the
// reference in the window's MCP form or `wrasse mcp add` assigns it too.
// A provider's API key is assigned only when the person says so
// explicitly (providerKey), since it would then leave its host.

// AssignSecret lets capability reference secret name. The secret need not
// be stored yet. A provider's API key needs providerKey: it is refused
// otherwise with ErrProviderKey.
func (a *App) AssignSecret(name, capability string, providerKey bool) error {
	if !store.ValidName(name) {
		return fmt.Errorf("assign secret: %w: %q is not a secret's name", store.ErrInvalidName, name)
	}
	c, err := a.reg.Get(capability)
	if err != nil {
		return err
	}
	if p, ok := providerOfKey(name); ok && !providerKey {
		return hint.With(fmt.Errorf("%w: %s is your %s API key; given to %s it would leave the host it is kept for (%s)",
			ErrProviderKey, name, providerTitle(p), c.Name, a.keyHostOf(name)), hint.Hint{
			Action:  "Assign it anyway only if " + c.Name + " must have your " + providerTitle(p) + " key",
			Command: []string{"secrets", "assign", name, c.Name, "--provider-key"}, Page: hint.PageCapability, Target: c.Name})
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.db.AssignSecret(name, c.Name, destinationOf(c)); err != nil {
		return err
	}
	if _, ok := providerOfKey(name); ok {
		a.log.Warn("a provider API key was assigned to a capability", "secret", name, "capability", c.Name)
	} else {
		a.log.Info("secret assigned to a capability", "secret", name, "capability", c.Name)
	}
	a.subs.publish(Event{Kind: EventCapabilities, Names: []string{c.Name}})
	return nil
}

// assignTo assigns secret name to capability where it sends now. Call
// with a.mu held.
func (a *App) assignTo(name, capability string) error {
	c, err := a.reg.Get(capability)
	if err != nil {
		return err
	}
	return a.db.AssignSecret(name, c.Name, destinationOf(c))
}

// An assignment is to a capability as it was when assigned: where it
// sends what it is given (destinationOf) is recorded with it, and it
// holds only while the capability still sends there. Another capability
// installed under the same name, or the same one pointed elsewhere,
// does not inherit the secret: removing a capability withdraws its
// secrets (Remove), installing one withdraws those it would now send
// elsewhere (Install, with a warning in the report), and any other change
// (a SKILL.md edited by hand) is refused when the secret is used, with
// how to assign it again.

// destinationOf fingerprints where capability c sends the secrets it is
// given: an MCP server's URL as written, or the command it runs with its
// arguments, environment and folder; a plugin's declared network hosts
// (its code is covered by its grants, which lapse when it changes).
func destinationOf(c *cerebellum.Capability) string {
	var where any
	switch m := c.Manifest; {
	case m == nil:
		where = map[string]any{"failed": c.Kind}
	case m.MCP != nil && m.MCP.URL != "":
		where = map[string]any{"mcp": "url", "url": m.MCP.URL}
	case m.MCP != nil:
		where = map[string]any{"mcp": "command", "command": m.MCP.Command, "args": m.MCP.Args, "env": m.MCP.Env, "cwd": m.MCP.Cwd}
	case c.Kind == cerebellum.KindPlugin:
		where = map[string]any{"plugin": "network", "hosts": pluginHostsOf(m)}
	default:
		where = map[string]any{"kind": c.Kind}
	}
	b, _ := json.Marshal(where) // maps and strings: always encodes, keys sorted
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// destinationText says where c sends what it is given, for messages.
func destinationText(c *cerebellum.Capability) string {
	switch m := c.Manifest; {
	case m == nil:
		return "failed to load"
	case m.MCP != nil && m.MCP.URL != "":
		return "connects to " + m.MCP.URL
	case m.MCP != nil:
		return "runs " + strings.Join(append([]string{m.MCP.Command}, m.MCP.Args...), " ")
	case c.Kind == cerebellum.KindPlugin:
		if hosts := pluginHostsOf(m); len(hosts) > 0 {
			return "may reach " + strings.Join(hosts, ", ")
		}
		return "may reach no host"
	}
	return "is a " + string(c.Kind)
}

func pluginHostsOf(m *skillmd.Manifest) []string {
	return slices.Sorted(slices.Values(m.Permissions[skillmd.PermNetwork]))
}

// withdrawLapsed withdraws the secrets assigned to capability name that
// it would now send elsewhere than when they were assigned (all of them
// when it is gone), and returns their names. Call with a.mu held.
func (a *App) withdrawLapsed(name string) ([]string, error) {
	c, err := a.reg.Get(name)
	if err != nil {
		return a.db.UnassignAll(name)
	}
	assigned, err := a.db.SecretsAssignedTo(c.Name)
	if err != nil {
		return nil, err
	}
	dest := destinationOf(c)
	var lapsed []string
	for _, n := range assigned {
		p, err := a.db.SecretPlaces(n)
		if err != nil {
			return lapsed, err
		}
		if p.AllowsAt(c.Name, dest) {
			continue
		}
		if err := a.db.UnassignSecret(n, c.Name); err != nil {
			return lapsed, err
		}
		lapsed = append(lapsed, n)
	}
	return lapsed, nil
}

// recordDestinations gives the assignments made before destinations were
// recorded their capability's destination, once (store.RecordDestinations).
func (a *App) recordDestinations() {
	dropped, err := a.db.RecordDestinations(func(name string) (string, bool) {
		c, err := a.reg.Get(name)
		if err != nil || c.Manifest == nil {
			return "", false
		}
		return destinationOf(c), true
	})
	if err != nil {
		a.log.Warn("recording where assigned secrets go", "error", err)
		return
	}
	for _, d := range dropped {
		a.log.Info("secret assignment withdrawn: its capability is gone or does not load", "assignment", d)
	}
}

// UnassignSecret withdraws capability's use of secret name. A running MCP
// server keeps what it was started with until it restarts.
func (a *App) UnassignSecret(name, capability string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.db.UnassignSecret(name, capability); err != nil {
		return err
	}
	a.subs.publish(Event{Kind: EventCapabilities, Names: []string{capability}})
	return nil
}

// SecretUse is one secret a capability references or was assigned.
type SecretUse struct {
	Name string `json:"name"`
	// Referenced: the capability's SKILL.md names it (${secret:NAME} in an
	// MCP block, permissions.env of a plugin).
	Referenced bool `json:"referenced,omitempty"`
	// Assigned: the person let the capability have it, where it sends
	// now.
	Assigned bool `json:"assigned,omitempty"`
	// Lapsed: it was assigned while the capability sent elsewhere (its
	// address or command has changed since); assigning again renews it.
	Lapsed bool `json:"lapsed,omitempty"`
	// Stored: a value is stored under the name.
	Stored bool `json:"stored,omitempty"`
	// ProviderKey: it is a provider's API key.
	ProviderKey bool `json:"providerKey,omitempty"`
}

// SecretsOf lists the secrets capability references or was assigned,
// sorted by name.
func (a *App) SecretsOf(capability string) ([]SecretUse, error) {
	c, err := a.reg.Get(capability)
	if err != nil {
		return nil, err
	}
	uses := map[string]*SecretUse{}
	use := func(n string) *SecretUse {
		if uses[n] == nil {
			_, pk := providerOfKey(n)
			uses[n] = &SecretUse{Name: n, Stored: a.HasSecret(n), ProviderKey: pk}
		}
		return uses[n]
	}
	if m := c.Manifest; m != nil {
		if m.MCP != nil {
			for _, n := range m.MCP.SecretRefs() {
				use(n).Referenced = true
			}
		} else if c.Kind == cerebellum.KindPlugin {
			for _, n := range m.Permissions[skillmd.PermEnv] {
				if store.ValidName(n) && !strings.Contains(n, "*") {
					use(n).Referenced = true
				}
			}
		}
	}
	assigned, err := a.db.SecretsAssignedTo(c.Name)
	if err != nil {
		return nil, err
	}
	dest := destinationOf(c)
	for _, n := range assigned {
		p, err := a.db.SecretPlaces(n)
		if err != nil {
			return nil, err
		}
		u := use(n)
		u.Assigned = p.AllowsAt(c.Name, dest)
		u.Lapsed = !u.Assigned
	}
	out := make([]SecretUse, 0, len(uses))
	for _, n := range slices.Sorted(maps.Keys(uses)) {
		out = append(out, *uses[n])
	}
	return out, nil
}

// secretAllowed is the rule the MCP loader and the plugin host apply
// before a capability's reference to a secret is resolved.
func (a *App) secretAllowed(capability, secret string) error {
	p, err := a.db.SecretPlaces(secret)
	if err != nil {
		return err
	}
	if p.Allows(capability) {
		c, err := a.reg.Get(capability)
		if err != nil {
			return err
		}
		if p.AllowsAt(capability, destinationOf(c)) {
			return nil
		}
		assign := []string{"secrets", "assign", secret, capability}
		if _, pk := providerOfKey(secret); pk {
			assign = append(assign, "--provider-key")
		}
		return hint.With(fmt.Errorf("%w: %s may not use the secret %s: you assigned it to %s when it sent elsewhere, and it now %s",
			ErrSecretNotAssigned, capability, secret, capability, destinationText(c)), hint.Hint{
			Action:  "Assign " + secret + " to " + capability + " again if it should have it there",
			Command: assign, Page: hint.PageCapability, Target: capability})
	}
	if pk, ok := providerOfKey(secret); ok {
		return hint.With(fmt.Errorf("%w: %s may not use %s, your %s API key: it is kept for %s and you did not assign it to %s",
			ErrSecretNotAssigned, capability, secret, providerTitle(pk), a.keyHostOf(secret), capability), hint.Hint{
			Action:  "Assign your " + providerTitle(pk) + " key to " + capability + " only if it must have it",
			Command: []string{"secrets", "assign", secret, capability, "--provider-key"}, Page: hint.PageCapability, Target: capability})
	}
	return hint.With(fmt.Errorf("%w: %s may not use the secret %s: you did not assign it to %s (a capability gets only the secrets you assign to it)",
		ErrSecretNotAssigned, capability, secret, capability), hint.Hint{
		Action:  "Assign " + secret + " to " + capability + " if it should have it",
		Command: []string{"secrets", "assign", secret, capability}, Page: hint.PageCapability, Target: capability})
}

// keyHostOf is the host secret name is bound to, for messages.
func (a *App) keyHostOf(name string) string {
	if p, err := a.db.SecretPlaces(name); err == nil && p.Host != "" {
		return p.Host
	}
	return "its provider"
}
