package settings

import (
	"github.com/wrasse-app/wrasse/brain/assistant"
)

// setting is one per-capability setting as the pages use it.
type setting struct {
	Key   string
	Value string
}

// capSettings reads a capability's settings (values in force) from the core.
func capSettings(core *assistant.App, name string) ([]setting, error) {
	vals, err := core.Settings(name)
	if err != nil {
		return nil, err
	}
	out := make([]setting, len(vals))
	for i, v := range vals {
		out[i] = setting{Key: v.Key, Value: v.Value}
	}
	return out, nil
}

// setCapSetting stores one setting through the core, which validates it.
func setCapSetting(core *assistant.App, name, key, value string) error {
	return core.SetSetting(name, key, value)
}
