package manage

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// The user's decisions about capabilities (enable, disable, grants) are
// changed only here, each through Hook.UpdateState: a read-modify-write of
// the stored state under the registry's lock, which also guards snapshot
// assembly, so two concurrent toggles (a window and a CLI command through
// it, or two goroutines) never lose one another, and the snapshot
// published after a change includes it.

// SetState stores the user's decision about a capability, replacing what
// was stored, and publishes a new snapshot. Core capabilities cannot be
// disabled. Prefer Enable, Disable and Revoke, which change only what they
// name.
func (m *Manager) SetState(name string, st cerebellum.CapState) error {
	return m.hook.UpdateState(name, func(_ *cerebellum.Capability, cur *cerebellum.CapState) error {
		*cur = st
		return nil
	})
}

// State returns the stored state of a capability.
func (m *Manager) State(name string) (cerebellum.CapState, error) {
	return m.hook.StoredState(name)
}

// Enable switches a capability on and records the permissions the user
// grants its plugin (only those it declares). An MCP capability's block
// and the files its command runs, as they are now, become the approved
// ones: a caller that showed them to the person uses EnableShown.
func (m *Manager) Enable(name string, grant []string) error {
	return m.enable(name, grant, "")
}

// EnableShown is Enable for an MCP capability whose command the person
// read before approving it: shown is its ApprovalKey when it was shown
// (Capability.ApprovalKey). When the block or a file its command runs
// changed since (the model replaced it while the person read), nothing
// changes and the error wraps ErrLaunchChanged: show it again.
func (m *Manager) EnableShown(name string, grant []string, shown string) error {
	if shown == "" {
		return fmt.Errorf("%w: %s: no command was shown", cerebellum.ErrLaunchChanged, name)
	}
	return m.enable(name, grant, shown)
}

func (m *Manager) enable(name string, grant []string, shown string) error {
	changed := func() error {
		return fmt.Errorf("%w: %s: its mcp: block or a file its command runs is not what you were shown; look at what it runs now before enabling it", cerebellum.ErrLaunchChanged, name)
	}
	// Hashed before the lock is taken: the program may be large.
	approval := ""
	if c, err := m.reg.Get(name); err == nil {
		approval = c.ApprovalKey()
		if shown != "" && approval != shown {
			return changed()
		}
	}
	return m.hook.UpdateState(name, func(c *cerebellum.Capability, st *cerebellum.CapState) error {
		if len(grant) > 0 {
			if c.Manifest == nil {
				return fmt.Errorf("%w: %s: %s", cerebellum.ErrFailed, name, c.Error)
			}
			var undeclared []string
			for _, g := range grant {
				if !c.Manifest.Permissions.Has(g) {
					undeclared = append(undeclared, g)
				}
			}
			if len(undeclared) > 0 {
				return fmt.Errorf("%s does not declare %s; it declares: %s", name, strings.Join(undeclared, ", "), orNone(c.Manifest.Permissions.Names()))
			}
			if st.GrantedFor != c.CodeHash {
				st.Granted = nil // earlier grants were for other code
			}
			st.Granted = mergeSorted(st.Granted, grant)
			st.GrantedFor = c.CodeHash
		}
		st.Disabled = false
		if c.Kind == cerebellum.KindMCP && c.Manifest != nil && c.Manifest.MCP != nil {
			// The person enables what the window or the CLI showed them:
			// this block's command and files, not ones edited in later.
			if launch, _, _ := cerebellum.SplitApproval(approval); launch != cerebellum.LaunchKey(c.Manifest.MCP) {
				if shown != "" {
					return changed()
				}
				approval = c.ApprovalKey() // edited in between: what is there now
			}
			st.Launch = approval
		}
		return nil
	})
}

// SetNetwork lets MCP capability name's server reach the network, or keeps
// it off (the kernel refuses its TCP connections where it can). The server
// starts again with the new setting on its next use.
func (m *Manager) SetNetwork(name string, on bool) error {
	return m.hook.UpdateState(name, func(c *cerebellum.Capability, st *cerebellum.CapState) error {
		if c.Kind != cerebellum.KindMCP || c.Manifest == nil || c.Manifest.MCP == nil {
			return fmt.Errorf("%w: %s is not an MCP server; the network setting is for MCP servers (a plugin's network comes from its permissions)", cerebellum.ErrInvalidSetting, name)
		}
		st.NoNetwork = !on
		return nil
	})
}

// Revoke withdraws granted permissions (all of them when perms is empty).
func (m *Manager) Revoke(name string, perms []string) error {
	return m.hook.UpdateState(name, func(_ *cerebellum.Capability, st *cerebellum.CapState) error {
		if len(perms) == 0 {
			st.Granted, st.GrantedFor = nil, ""
			return nil
		}
		drop := map[string]bool{}
		for _, p := range perms {
			drop[p] = true
		}
		var kept []string
		for _, g := range st.Granted {
			if !drop[g] {
				kept = append(kept, g)
			}
		}
		st.Granted = kept
		return nil
	})
}

// Disable switches a capability off.
func (m *Manager) Disable(name string) error {
	return m.hook.UpdateState(name, func(_ *cerebellum.Capability, st *cerebellum.CapState) error {
		st.Disabled = true
		return nil
	})
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "nothing"
	}
	return strings.Join(list, ", ")
}

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range append(append([]string(nil), a...), b...) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
