package manage

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// A capability's settings are declared in its SKILL.md and stored in the
// workspace database (cerebellum.SettingsStore); the engine reads them
// when it loads a runtime, and they are written only here.

// declared finds the declaration of key in c, or an error naming the
// closest declared key.
func (m *Manager) declared(c *cerebellum.Capability, key string) (skillmd.Setting, error) {
	decl, err := m.hook.DeclaredSettings(c)
	if err != nil {
		return skillmd.Setting{}, err
	}
	keys := make([]string, len(decl))
	for i, s := range decl {
		if s.Key == key {
			return s, nil
		}
		keys[i] = s.Key
	}
	h := hint.Hint{Action: "See the settings of " + c.Name, Command: []string{"caps", "settings", c.Name},
		Page: hint.PageCapability, Target: c.Name}
	if len(keys) == 0 {
		return skillmd.Setting{}, hint.With(fmt.Errorf("%w: %s declares no settings", cerebellum.ErrUnknownSetting, c.Name), h)
	}
	msg := fmt.Sprintf("%s has no setting %q", c.Name, key)
	if close := hint.Closest(key, keys, 1); len(close) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", close[0])
	}
	return skillmd.Setting{}, hint.With(fmt.Errorf("%w: %s (its settings: %s)", cerebellum.ErrUnknownSetting, msg, strings.Join(keys, ", ")), h)
}

// SetSetting validates value against what name declares for key (type,
// enum), stores it in canonical form and reloads the capability's runtime
// so the next call sees it.
func (m *Manager) SetSetting(name, key, value string) error {
	c, err := m.reg.Get(name)
	if err != nil {
		return err
	}
	s, err := m.declared(c, key)
	if err != nil {
		return err
	}
	canon, err := s.Check(value)
	if err != nil {
		return hint.With(fmt.Errorf("%w: %s of %s: %v", cerebellum.ErrInvalidSetting, key, c.Name, err),
			hint.Hint{Action: fmt.Sprintf("Give %s of %s a %s value", key, c.Name, s.Type),
				Command: []string{"caps", "settings", c.Name}, Page: hint.PageCapability, Target: c.Name})
	}
	if err := m.hook.SettingsStore().SetCapSetting(c.Name, key, canon); err != nil {
		return fmt.Errorf("save %s of %s: %w", key, c.Name, err)
	}
	m.hook.Reload("settings", c.Name)
	return nil
}

// ResetSetting forgets the user's value of key, so the default applies
// again, and reloads the capability's runtime.
func (m *Manager) ResetSetting(name, key string) error {
	c, err := m.reg.Get(name)
	if err != nil {
		return err
	}
	if _, err := m.declared(c, key); err != nil {
		return err
	}
	if err := m.hook.SettingsStore().DeleteCapSetting(c.Name, key); err != nil {
		return fmt.Errorf("reset %s of %s: %w", key, c.Name, err)
	}
	m.hook.Reload("settings", c.Name)
	return nil
}
