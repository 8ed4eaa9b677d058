package manage

import (
	"fmt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// SetToolPolicy stores the user's rule for tool (the server's name or the
// name the model sees) of MCP capability name and publishes a snapshot
// the gate reads it from. cerebellum.PolicyAsk forgets the rule.
func (m *Manager) SetToolPolicy(name, tool string, p cerebellum.ToolPolicy) error {
	if _, err := cerebellum.ParseToolPolicy(string(p)); err != nil {
		return err
	}
	c, err := m.reg.Get(name)
	if err != nil {
		return err
	}
	if c.Kind != cerebellum.KindMCP {
		return fmt.Errorf("%w: %s is not an MCP capability; tool policies are for MCP servers", cerebellum.ErrInvalidSetting, name)
	}
	remote := ""
	for _, t := range c.Tools() {
		if t.Remote == tool || t.Name == tool {
			remote = t.Remote
		}
	}
	if remote == "" {
		return fmt.Errorf("%w: %s has no tool %q (its tools are learnt when its server is first started; test it first)", cerebellum.ErrUnknownTool, name, tool)
	}
	key := cerebellum.PolicyKey(remote)
	if p == cerebellum.PolicyAsk || p == "" {
		err = m.hook.SettingsStore().DeleteCapSetting(name, key)
	} else {
		err = m.hook.SettingsStore().SetCapSetting(name, key, string(p))
	}
	if err != nil {
		return fmt.Errorf("save the policy of %s of %s: %w", tool, name, err)
	}
	return m.hook.Republish("settings", name)
}
