package cerebellum

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
)

type runtimeEntry struct {
	hash string
	once sync.Once
	rt   Runtime
	err  error

	mu      sync.Mutex
	loaded  bool // the load finished (rt or err set)
	dropped bool // the entry left the registry; its runtime must be closed
}

// finish records the end of a load; a runtime loaded for an entry that was
// dropped meanwhile is closed at once.
func (e *runtimeEntry) finish(log *slog.Logger) {
	e.mu.Lock()
	if e.loaded {
		e.mu.Unlock()
		return
	}
	e.loaded = true
	dropped := e.dropped
	e.mu.Unlock()
	if dropped && e.rt != nil {
		if err := e.rt.Close(); err != nil {
			log.Warn("closing runtime", "error", err)
		}
	}
}

// drop marks the entry gone and closes its runtime if it finished loading;
// one still loading is closed by finish.
func (e *runtimeEntry) drop() error {
	e.mu.Lock()
	e.dropped = true
	loaded := e.loaded
	e.mu.Unlock()
	if loaded && e.rt != nil {
		return e.rt.Close()
	}
	return nil
}

// closeStale drops runtimes whose capability vanished, changed or stopped
// being usable, or whose grants changed.
func (r *Registry) closeStale(snap *Snapshot) {
	r.rtMu.Lock()
	var stale []*runtimeEntry
	for name, e := range r.runtimes {
		c, ok := snap.byName[name]
		if !ok || !c.Usable() || c.Hash != e.hash {
			delete(r.runtimes, name)
			stale = append(stale, e)
		}
	}
	r.rtMu.Unlock()
	for _, e := range stale {
		if err := e.drop(); err != nil {
			r.log.Warn("closing runtime", "error", err)
		}
	}
}

// dropRuntime forgets the loaded runtime of one capability, so the next
// call loads it afresh (after a grant or a re-enable).
func (r *Registry) dropRuntime(name string) {
	r.rtMu.Lock()
	e := r.runtimes[name]
	delete(r.runtimes, name)
	r.rtMu.Unlock()
	if e != nil {
		if err := e.drop(); err != nil {
			r.log.Warn("closing runtime", "capability", name, "error", err)
		}
	}
}

// Close releases every loaded runtime.
func (r *Registry) Close() error {
	r.rtMu.Lock()
	entries := r.runtimes
	r.runtimes = map[string]*runtimeEntry{}
	r.rtMu.Unlock()
	var errs []error
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := entries[n].drop(); err != nil {
			errs = append(errs, fmt.Errorf("close %s: %w", n, err))
		}
	}
	return errors.Join(errs...)
}

// runtime returns the loaded runtime of c, loading it once on first use. A
// load failure marks the capability failed until its files change.
func (r *Registry) runtime(ctx context.Context, c *Capability) (Runtime, error) {
	if rt, ok := r.native[c.Name]; ok && c.Source == SourceBuiltin {
		return rt, nil
	}
	r.rtMu.Lock()
	e, ok := r.runtimes[c.Name]
	if !ok || e.hash != c.Hash {
		e = &runtimeEntry{hash: c.Hash}
		r.runtimes[c.Name] = e
	}
	r.rtMu.Unlock()
	e.once.Do(func() {
		loader := r.opts.Loaders[c.Kind]
		if loader == nil {
			e.err = fmt.Errorf("%w: %s (%s)", ErrNoRuntime, c.Name, c.Kind)
			return
		}
		e.rt, e.err = loader.Load(ctx, r.loadRequest(c))
	})
	e.finish(r.log)
	e.mu.Lock()
	dropped := e.dropped
	e.mu.Unlock()
	if dropped && e.err == nil {
		return nil, fmt.Errorf("%w: %s changed while it was loading; call the tool again", ErrFailed, c.Name)
	}
	if e.err != nil {
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) {
			// A cancelled load is not the capability's fault: try again next time.
			r.rtMu.Lock()
			if r.runtimes[c.Name] == e {
				delete(r.runtimes, c.Name)
			}
			r.rtMu.Unlock()
			return nil, e.err
		}
		r.markFailed(c, e.err)
		return nil, fmt.Errorf("%w: %s: %v", ErrFailed, c.Name, e.err)
	}
	return e.rt, nil
}

func (r *Registry) loadRequest(c *Capability) LoadRequest {
	return LoadRequest{Capability: c, Workspace: r.opts.Workspace, Trusted: c.Source == SourceBuiltin, Granted: c.Granted}
}

// markFailed records a load failure for c's current content and publishes a
// snapshot in which c is failed and registers no tools.
func (r *Registry) markFailed(c *Capability, err error) {
	r.mu.Lock()
	if f, ok := r.failures[c.Name]; ok && f.hash == c.Hash {
		r.mu.Unlock()
		return
	}
	r.failures[c.Name] = loadFailure{hash: c.Hash, msg: err.Error()}
	snap, aerr := r.assembleLocked()
	r.mu.Unlock()
	r.log.Error("capability failed to load", "capability", c.Name, "error", err)
	if aerr == nil {
		r.notify(Change{Generation: snap.Generation, Reason: "failure", Names: []string{c.Name}})
	}
}
