package cerebellum

import (
	"fmt"
	"sort"
	"strings"
)

// The user's decisions about capabilities (enable, disable, grants) are
// changed only here. Every change is a read-modify-write of the stored
// state under r.mu, which also guards snapshot assembly, so two concurrent
// toggles (a window and a CLI command through it, or two goroutines) never
// lose one another, and the snapshot published after a change includes it.

// updateState reads the stored state of name, lets change edit it, stores
// the result and publishes a new snapshot, all under r.mu. change sees the
// capability as it stands in the current snapshot; an error from it leaves
// everything as it was.
func (r *Registry) updateState(name string, change func(c *Capability, st *CapState) error) error {
	r.mu.Lock()
	c, ok := r.snap.Load().byName[name]
	if !ok {
		r.mu.Unlock()
		return r.notFound(name)
	}
	states, err := r.opts.States.States()
	if err != nil {
		r.mu.Unlock()
		return fmt.Errorf("read state of %s: %w", name, err)
	}
	st := states[c.Name]
	if err := change(c, &st); err != nil {
		r.mu.Unlock()
		return err
	}
	if c.Core && st.Disabled {
		r.mu.Unlock()
		return coreError(c.Name)
	}
	if err := r.opts.States.SetState(c.Name, st); err != nil {
		r.mu.Unlock()
		return fmt.Errorf("save state of %s: %w", name, err)
	}
	// A user's re-enable or grant is a fresh start: forget a load failure and
	// the loaded instance, so the next call loads with the new state.
	delete(r.failures, c.Name)
	snap, err := r.assembleLocked()
	r.mu.Unlock()
	if err != nil {
		return err
	}
	r.closeStale(snap)
	r.dropRuntime(c.Name)
	r.notify(Change{Generation: snap.Generation, Reason: "state", Names: []string{c.Name}})
	return nil
}

// SetState stores the user's decision about a capability, replacing what
// was stored, and publishes a new snapshot. Core capabilities cannot be
// disabled. Prefer Enable, Disable and Revoke, which change only what they
// name.
func (r *Registry) SetState(name string, st CapState) error {
	return r.updateState(name, func(_ *Capability, cur *CapState) error {
		*cur = st
		return nil
	})
}

// State returns the stored state of a capability.
func (r *Registry) State(name string) (CapState, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stateLocked(name)
}

func (r *Registry) stateLocked(name string) (CapState, error) {
	states, err := r.opts.States.States()
	if err != nil {
		return CapState{}, fmt.Errorf("read state of %s: %w", name, err)
	}
	return states[name], nil
}

// storeState writes a state without publishing a snapshot, for install and
// restore, which Resync afterwards.
func (r *Registry) storeState(name string, st CapState) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opts.States.SetState(name, st)
}

// forgetState deletes a stored state (after a remove).
func (r *Registry) forgetState(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opts.States.DeleteState(name)
}

// Enable switches a capability on and records the permissions the user
// grants its plugin (only those it declares). An MCP capability's block
// and the files its command runs, as they are now, become the approved
// ones: a caller that showed them to the person uses EnableShown.
func (r *Registry) Enable(name string, grant []string) error {
	return r.enable(name, grant, "")
}

// EnableShown is Enable for an MCP capability whose command the person
// read before approving it: shown is its ApprovalKey when it was shown
// (Capability.ApprovalKey). When the block or a file its command runs
// changed since (the model replaced it while the person read), nothing
// changes and the error wraps ErrLaunchChanged: show it again.
func (r *Registry) EnableShown(name string, grant []string, shown string) error {
	if shown == "" {
		return fmt.Errorf("%w: %s: no command was shown", ErrLaunchChanged, name)
	}
	return r.enable(name, grant, shown)
}

func (r *Registry) enable(name string, grant []string, shown string) error {
	changed := func() error {
		return fmt.Errorf("%w: %s: its mcp: block or a file its command runs is not what you were shown; look at what it runs now before enabling it", ErrLaunchChanged, name)
	}
	// Hashed before the lock is taken: the program may be large.
	approval := ""
	if c, err := r.Get(name); err == nil {
		approval = c.ApprovalKey()
		if shown != "" && approval != shown {
			return changed()
		}
	}
	return r.updateState(name, func(c *Capability, st *CapState) error {
		if len(grant) > 0 {
			if c.Manifest == nil {
				return fmt.Errorf("%w: %s: %s", ErrFailed, name, c.Error)
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
		if c.Kind == KindMCP && c.Manifest != nil && c.Manifest.MCP != nil {
			// The person enables what the window or the CLI showed them:
			// this block's command and files, not ones edited in later.
			if launch, _, _ := SplitApproval(approval); launch != LaunchKey(c.Manifest.MCP) {
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
func (r *Registry) SetNetwork(name string, on bool) error {
	return r.updateState(name, func(c *Capability, st *CapState) error {
		if c.Kind != KindMCP || c.Manifest == nil || c.Manifest.MCP == nil {
			return fmt.Errorf("%w: %s is not an MCP server; the network setting is for MCP servers (a plugin's network comes from its permissions)", ErrInvalidSetting, name)
		}
		st.NoNetwork = !on
		return nil
	})
}

// Revoke withdraws granted permissions (all of them when perms is empty).
func (r *Registry) Revoke(name string, perms []string) error {
	return r.updateState(name, func(_ *Capability, st *CapState) error {
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
func (r *Registry) Disable(name string) error {
	return r.updateState(name, func(_ *Capability, st *CapState) error {
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
