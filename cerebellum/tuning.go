package cerebellum

import (
	"errors"
	"fmt"
	"sort"
)

// Tuning is what a running registry lets the user change without reopening:
// the capabilities pinned by config.json and the two token budgets. Open
// takes it from Options; SetTuning replaces it.
type Tuning struct {
	// Pinned names capabilities that are always loaded.
	Pinned []string
	// IndexBudget is the capability index budget in tokens; 0 means
	// DefaultIndexBudget, and less than MinIndexBudget counts as that.
	IndexBudget int
	// ToolBudget bounds the tool schemas of a conversation's loaded set in
	// tokens; 0 means no bound beyond the loaded-set size.
	ToolBudget int
}

// normalized applies the defaults and bounds Open applies to Options, and
// sorts and de-duplicates Pinned so equal tunings compare equal.
func (t Tuning) normalized() (Tuning, error) {
	var errs []error
	if t.IndexBudget < 0 {
		errs = append(errs, fmt.Errorf("index budget %d: give 0 (the default, %d tokens) or a positive number of tokens", t.IndexBudget, DefaultIndexBudget))
	}
	if t.ToolBudget < 0 {
		errs = append(errs, fmt.Errorf("tool budget %d: give 0 (no bound) or a positive number of tokens", t.ToolBudget))
	}
	if err := errors.Join(errs...); err != nil {
		return Tuning{}, err
	}
	if t.IndexBudget == 0 {
		t.IndexBudget = DefaultIndexBudget
	}
	t.IndexBudget = max(t.IndexBudget, MinIndexBudget)
	seen := map[string]bool{}
	var pinned []string
	for _, p := range t.Pinned {
		if p != "" && !seen[p] {
			seen[p] = true
			pinned = append(pinned, p)
		}
	}
	sort.Strings(pinned)
	t.Pinned = pinned
	return t, nil
}

// tune returns the tuning in force.
func (r *Registry) tune() *Tuning { return r.tuning.Load() }

// Tuning returns the tuning in force (after defaults).
func (r *Registry) Tuning() Tuning {
	t := *r.tune()
	t.Pinned = append([]string(nil), t.Pinned...)
	return t
}

// applyTuning applies new pinned capabilities and budgets (for
// manage.Manager.SetTuning, through Hook.ApplyTuning): the snapshot it
// publishes marks the new pins, and the next index and tool-budget check
// use the new budgets, without reopening the registry. Names pinned but not
// installed are allowed (they take effect once installed) and logged.
func (r *Registry) applyTuning(t Tuning) error {
	t, err := t.normalized()
	if err != nil {
		return fmt.Errorf("capability tuning: %w", err)
	}
	r.mu.Lock()
	r.tuning.Store(&t)
	snap, err := r.assembleLocked()
	r.mu.Unlock()
	if err != nil {
		return err
	}
	r.closeStale(snap)
	if unknown := r.UnknownPinned(); len(unknown) > 0 {
		r.log.Warn("pinned capabilities are not installed", "names", unknown)
	}
	r.notify(Change{Generation: snap.Generation, Reason: "tuning"})
	return nil
}

// ReloadRuntimes closes the loaded runtimes of the named capabilities (all
// of them when no name is given), so the next call loads each afresh: for
// instance after the granted folders change, since plugins read their
// roots when they load. It also forgets their load failures, which the new
// state may have fixed. A call still running on an old runtime finishes on
// it; the runtime is closed when the last such call returns.
func (r *Registry) ReloadRuntimes(names ...string) { r.reload("reload", names) }

// reload is ReloadRuntimes, reporting the change with reason.
func (r *Registry) reload(reason string, names []string) {
	r.rtMu.Lock()
	var old []*runtimeEntry
	var dropped []string
	if len(names) == 0 {
		for n, e := range r.runtimes {
			old = append(old, e)
			dropped = append(dropped, n)
		}
		r.runtimes = map[string]*runtimeEntry{}
	} else {
		for _, n := range names {
			if e, ok := r.runtimes[n]; ok {
				old = append(old, e)
				dropped = append(dropped, n)
				delete(r.runtimes, n)
			}
		}
	}
	r.rtMu.Unlock()
	for _, e := range old {
		if err := e.drop(); err != nil {
			r.log.Warn("closing runtime", "error", err)
		}
	}

	r.mu.Lock()
	forgot := false
	if len(names) == 0 {
		forgot = len(r.failures) > 0
		r.failures = map[string]loadFailure{}
	} else {
		for _, n := range names {
			if _, ok := r.failures[n]; ok {
				delete(r.failures, n)
				forgot = true
			}
		}
	}
	var snap *Snapshot
	var err error
	if forgot {
		snap, err = r.assembleLocked()
	}
	r.mu.Unlock()
	if err != nil {
		r.log.Warn("reloading runtimes", "error", err)
		return
	}
	if snap == nil {
		snap = r.Snapshot()
	}
	sort.Strings(dropped)
	r.log.Debug("reloaded runtimes", "capabilities", dropped)
	r.notify(Change{Generation: snap.Generation, Reason: reason, Names: append([]string(nil), names...)})
}
