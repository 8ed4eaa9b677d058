package cerebellum

import (
	"fmt"
	"sort"
	"strings"
)

// SetState stores the user's decision about a capability and publishes a new
// snapshot. Core capabilities cannot be disabled.
func (r *Registry) SetState(name string, st CapState) error {
	snap := r.Snapshot()
	c, ok := snap.byName[name]
	if !ok {
		return r.notFound(name)
	}
	if c.Core && st.Disabled {
		return fmt.Errorf("%w: %s is a core capability and stays enabled", ErrReadOnly, name)
	}
	r.mu.Lock()
	if err := r.opts.States.SetState(name, st); err != nil {
		r.mu.Unlock()
		return fmt.Errorf("save state of %s: %w", name, err)
	}
	// A user's re-enable or grant is a fresh start: forget a load failure and
	// the loaded instance, so the next call loads with the new state.
	delete(r.failures, name)
	snap, err := r.assembleLocked()
	r.mu.Unlock()
	if err != nil {
		return err
	}
	r.closeStale(snap)
	r.dropRuntime(name)
	r.notify(Change{Generation: snap.Generation, Reason: "state", Names: []string{name}})
	return nil
}

// State returns the stored state of a capability.
func (r *Registry) State(name string) (CapState, error) {
	states, err := r.opts.States.States()
	if err != nil {
		return CapState{}, err
	}
	return states[name], nil
}

// Enable switches a capability on and records the permissions the user
// grants its plugin (only those it declares).
func (r *Registry) Enable(name string, grant []string) error {
	c, err := r.Get(name)
	if err != nil {
		return err
	}
	st, err := r.State(c.Name)
	if err != nil {
		return err
	}
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
	return r.SetState(c.Name, st)
}

// Revoke withdraws granted permissions (all of them when perms is empty).
func (r *Registry) Revoke(name string, perms []string) error {
	c, err := r.Get(name)
	if err != nil {
		return err
	}
	st, err := r.State(c.Name)
	if err != nil {
		return err
	}
	if len(perms) == 0 {
		st.Granted, st.GrantedFor = nil, ""
	} else {
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
	}
	return r.SetState(c.Name, st)
}

// Disable switches a capability off.
func (r *Registry) Disable(name string) error {
	c, err := r.Get(name)
	if err != nil {
		return err
	}
	st, err := r.State(c.Name)
	if err != nil {
		return err
	}
	st.Disabled = true
	return r.SetState(c.Name, st)
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
