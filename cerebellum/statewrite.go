package cerebellum

import (
	"fmt"
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
		return CoreError(c.Name)
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

func orNone(list []string) string {
	if len(list) == 0 {
		return "nothing"
	}
	return strings.Join(list, ", ")
}
