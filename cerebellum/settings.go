package cerebellum

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// SettingsStore persists the user's values of capability settings, per
// capability name and key, as the canonical text skillmd.Setting.Check
// returns. The workspace database implements it; tests use MemorySettings.
type SettingsStore interface {
	// CapSettings returns the stored values of one capability (empty when none).
	CapSettings(name string) (map[string]string, error)
	// SetCapSetting stores one value.
	SetCapSetting(name, key, value string) error
	// DeleteCapSetting forgets one value, so the default applies again;
	// forgetting an unset key is not an error.
	DeleteCapSetting(name, key string) error
}

// MemorySettings is an in-memory SettingsStore, safe for concurrent use.
type MemorySettings struct {
	mu sync.Mutex
	m  map[string]map[string]string
}

func (s *MemorySettings) CapSettings(name string) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.m[name]), nil
}

func (s *MemorySettings) SetCapSetting(name, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]map[string]string{}
	}
	if s.m[name] == nil {
		s.m[name] = map[string]string{}
	}
	s.m[name][key] = value
	return nil
}

func (s *MemorySettings) DeleteCapSetting(name, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m[name], key)
	return nil
}

// SettingValue is one declared setting of a capability with the value in
// force, for `wrasse caps settings` and the capability's settings page.
type SettingValue struct {
	Key         string              `json:"key"`
	Type        skillmd.SettingType `json:"type"`
	Default     string              `json:"default"`
	Description string              `json:"description,omitempty"`
	Enum        []string            `json:"enum,omitempty"`
	// Value is what the plugin receives: the stored value, else Default.
	Value string `json:"value"`
	// Set says the user stored a value (even one equal to the default).
	Set bool `json:"set"`
	// Problem, when not empty, says why a stored value is not used (the
	// declaration changed since it was set); Value is then the default.
	Problem string `json:"problem,omitempty"`
}

// declaredSettings returns the settings c declares, or an error for a
// capability whose SKILL.md could not be read.
func declaredSettings(c *Capability) ([]skillmd.Setting, error) {
	if c.Manifest == nil {
		return nil, fmt.Errorf("%w: %s has no readable SKILL.md, so its settings are unknown: %s", ErrFailed, c.Name, c.Error)
	}
	return c.Manifest.Settings, nil
}

// settingValues joins the declaration of c with the stored values.
func (r *Registry) settingValues(c *Capability) ([]SettingValue, error) {
	decl, err := declaredSettings(c)
	if err != nil {
		return nil, err
	}
	if len(decl) == 0 {
		return nil, nil
	}
	stored, err := r.opts.Settings.CapSettings(c.Name)
	if err != nil {
		return nil, fmt.Errorf("read the settings of %s: %w", c.Name, err)
	}
	out := make([]SettingValue, 0, len(decl))
	for _, s := range decl {
		v := SettingValue{Key: s.Key, Type: s.Type, Default: s.Default, Description: s.Description,
			Enum: slices.Clone(s.Enum), Value: s.Default}
		if raw, ok := stored[s.Key]; ok {
			v.Set = true
			if canon, err := s.Check(raw); err != nil {
				v.Problem = fmt.Sprintf("the stored value %q is no longer valid (%v), so the default is used; set it again", raw, err)
			} else {
				v.Value = canon
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// Settings lists the settings name declares, sorted by key, with the value
// in force and whether the user set it. A capability that declares none
// gives an empty list.
func (r *Registry) Settings(name string) ([]SettingValue, error) {
	c, err := r.Get(name)
	if err != nil {
		return nil, err
	}
	return r.settingValues(c)
}

// effectiveSettings is what a plugin of c is loaded with: every declared
// key with its value in force. A store that cannot be read gives the
// defaults (logged), so a capability still loads.
func (r *Registry) effectiveSettings(c *Capability) map[string]string {
	vals, err := r.settingValues(c)
	if err != nil {
		r.log.Warn("reading capability settings; using defaults", "capability", c.Name, "error", err)
		vals = nil
		if c.Manifest != nil {
			for _, s := range c.Manifest.Settings {
				vals = append(vals, SettingValue{Key: s.Key, Value: s.Default})
			}
		}
	}
	out := make(map[string]string, len(vals))
	for _, v := range vals {
		if v.Problem != "" {
			r.log.Warn("capability setting not used", "capability", c.Name, "key", v.Key, "problem", v.Problem)
		}
		out[v.Key] = v.Value
	}
	return out
}
