package cerebellum

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"
)

// This file holds every interface through which runtimes and loaders plug
// into the engine (a plugin host, an MCP client, native Go handlers), with
// the lifecycle that drives them: loaded on first use, held by the calls
// running on them, closed when their capability changes or the registry
// closes. Stores (StateStore, SettingsStore, CatalogStore) and the built-in
// tree's extensions (VerifiedFS, ParsedFS) sit beside what they serve.

// Runtime serves the tools of one loaded capability: an interpreted plugin,
// a native handler or an MCP connection.
type Runtime interface {
	// Call runs one tool with arguments already validated against its schema.
	// A returned error is an infrastructure failure (panic, timeout, crash);
	// a tool-level failure is a Result with IsError.
	Call(ctx context.Context, tool string, args json.RawMessage) (Result, error)
	// Close releases the runtime (plugin cleanup, server shutdown).
	Close() error
}

// LoadRequest is everything a Loader needs to bring a capability to life.
type LoadRequest struct {
	Capability *Capability
	// Workspace is the workspace root folder.
	Workspace string
	// Trusted is true for capabilities that ship with the app.
	Trusted bool
	// Granted are the permissions the user granted.
	Granted []string
	// Settings are the capability's declared settings with the values in
	// force (the user's, else the defaults), keyed by setting key; the
	// plugin host hands them to the plugin as env.Settings.
	Settings map[string]string
	// Learn, set for MCP capabilities, is how the runtime tells the engine
	// what its server offers, after each listing (connect, list_changed):
	// the engine names, caches and publishes the tools.
	Learn func(Catalog)
}

// Loader makes Runtimes for one kind of capability. The plugin host, the MCP
// client and native Go handlers each implement it.
type Loader interface {
	Load(ctx context.Context, req LoadRequest) (Runtime, error)
}

// Checker is an optional Loader extension: check a capability (compile a
// plugin, check its permissions and tool set) without keeping an instance.
// Install uses it to validate before anything is written.
type Checker interface {
	Check(ctx context.Context, req LoadRequest) error
}

// SourceChecker is an optional Loader extension: check a plugin's source
// without running any of it. Validation uses it for a plugin whose declared
// permissions are not granted yet, so no untrusted code runs with authority
// the user has not given.
type SourceChecker interface {
	CheckSource(ctx context.Context, req LoadRequest) error
}

// RuntimeFunc adapts a function to a Runtime with nothing to close.
type RuntimeFunc func(ctx context.Context, tool string, args json.RawMessage) (Result, error)

func (f RuntimeFunc) Call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	return f(ctx, tool, args)
}

func (f RuntimeFunc) Close() error { return nil }

// RuntimeState says how a runtime with a life of its own stands.
type RuntimeState string

const (
	RuntimeStopped  RuntimeState = "stopped"
	RuntimeStarting RuntimeState = "starting"
	RuntimeRunning  RuntimeState = "running"
	RuntimeCrashed  RuntimeState = "crashed"
)

// RuntimeStatus is what a StatusReporter says.
type RuntimeStatus struct {
	State RuntimeState `json:"state"`
	// Error is the last failure (a crash, a failed start) with the
	// server's last lines of output.
	Error string `json:"error,omitempty"`
	// Crashes counts crashes in a row (reset by a successful call).
	Crashes int `json:"crashes,omitempty"`
	// Since is when State began.
	Since time.Time `json:"since,omitzero"`
}

// StatusReporter is an optional Runtime extension for runtimes with a
// process or connection of their own (an MCP server).
type StatusReporter interface {
	Status() RuntimeStatus
}

// Starter is an optional Runtime extension: start now what the runtime
// would otherwise start on its first call (an MCP server's connection).
type Starter interface {
	Start(ctx context.Context) error
}

// NativeProvider is an optional Loader extension: native runtimes of
// built-in capabilities that belong with the loader (the mcp capability's
// resource tool belongs with the MCP client). They are served like
// Options.Native. They get the registry they serve in, explicitly (the
// mcp capability reads resources through other capabilities' runtimes).
type NativeProvider interface {
	Natives(reg *Registry) map[string]Runtime
}

// runtimeEntry is one loaded (or loading) instance of a capability. An
// entry leaves the registry (dropped) when its capability changes, is
// reloaded or the registry closes; its runtime is closed once the load has
// finished and no call is still running on it, so a reload never pulls a
// runtime from under a call in flight.
type runtimeEntry struct {
	hash string
	once sync.Once
	rt   Runtime
	err  error

	mu       sync.Mutex
	loaded   bool // the load finished (rt or err set)
	dropped  bool // the entry left the registry; its runtime must be closed
	inflight int  // calls running on rt
	closed   bool // rt.Close was called
}

// closeIfIdleLocked reports whether the caller must close rt now, marking
// it closed; e.mu must be held.
func (e *runtimeEntry) closeIfIdleLocked() bool {
	if e.dropped && e.loaded && e.inflight == 0 && !e.closed && e.rt != nil {
		e.closed = true
		return true
	}
	return false
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
	closeNow := e.closeIfIdleLocked()
	e.mu.Unlock()
	if closeNow {
		if err := e.rt.Close(); err != nil {
			log.Warn("closing runtime", "error", err)
		}
	}
}

// acquire counts a call in flight on the entry's runtime; it fails once the
// entry is dropped, and the caller then needs a fresh entry.
func (e *runtimeEntry) acquire() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dropped {
		return false
	}
	e.inflight++
	return true
}

// release ends a call; the last call on a dropped entry closes its runtime.
func (e *runtimeEntry) release(log *slog.Logger) {
	e.mu.Lock()
	e.inflight--
	closeNow := e.closeIfIdleLocked()
	e.mu.Unlock()
	if closeNow {
		if err := e.rt.Close(); err != nil {
			log.Warn("closing runtime", "error", err)
		}
	}
}

// drop marks the entry gone and closes its runtime if it is loaded and
// idle; one still loading is closed by finish, one still serving calls by
// the last release.
func (e *runtimeEntry) drop() error {
	e.mu.Lock()
	e.dropped = true
	closeNow := e.closeIfIdleLocked()
	e.mu.Unlock()
	if closeNow {
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

// Close releases every loaded runtime and saves the manifest cache.
func (r *Registry) Close() error {
	r.saveCache()
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

// maxEntryAttempts bounds how often a call looks for a fresh runtime entry
// when the one it found was dropped (by a reload or a change) under it.
const maxEntryAttempts = 3

// runtime returns the loaded runtime of c, loading it once on first use,
// and a release function the caller calls when its call has finished. A
// load failure marks the capability failed until its files change.
func (r *Registry) runtime(ctx context.Context, c *Capability) (Runtime, func(), error) {
	if rt, ok := r.native[c.Name]; ok && c.Source == SourceBuiltin {
		return rt, func() {}, nil
	}
	if err := notGranted(c); err != nil {
		return nil, nil, err
	}
	for range maxEntryAttempts {
		rt, e, err := r.loadEntry(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		if e.acquire() {
			return rt, func() { e.release(r.log) }, nil
		}
		// Dropped between loading and the call (ReloadRuntimes, a state or
		// settings change): the next entry is loaded with the new state.
	}
	return nil, nil, fmt.Errorf("%w: %s was reloaded while this call started; call the tool again", ErrFailed, c.Name)
}

// loadEntry finds or makes the runtime entry of c and waits for its load.
func (r *Registry) loadEntry(ctx context.Context, c *Capability) (Runtime, *runtimeEntry, error) {
	r.rtMu.Lock()
	e, ok := r.runtimes[c.Name]
	var retired *runtimeEntry
	if !ok || e.hash != c.Hash {
		if ok {
			// Loaded for other content of the capability: close it rather
			// than leave it running unreferenced.
			retired = e
		}
		e = &runtimeEntry{hash: c.Hash}
		r.runtimes[c.Name] = e
	}
	r.rtMu.Unlock()
	if retired != nil {
		if err := retired.drop(); err != nil {
			r.log.Warn("closing runtime", "capability", c.Name, "error", err)
		}
	}
	e.once.Do(func() {
		loader := r.opts.Loaders[c.Kind]
		if loader == nil {
			e.err = fmt.Errorf("%w: %s (%s)", ErrNoRuntime, c.Name, c.Kind)
			return
		}
		req, err := r.pinnedRequest(c)
		if err != nil {
			e.err = err
			return
		}
		e.rt, e.err = loader.Load(ctx, req)
	})
	e.finish(r.log)
	if e.err != nil {
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) || errors.Is(e.err, ErrChangedOnDisk) {
			// A cancelled load is not the capability's fault, and a pending
			// edit goes once applied: try again next time.
			r.rtMu.Lock()
			if r.runtimes[c.Name] == e {
				delete(r.runtimes, c.Name)
			}
			r.rtMu.Unlock()
			return nil, nil, e.err
		}
		r.markFailed(c, e.err)
		return nil, nil, unusable(c, fmt.Errorf("%w: %s: %v", ErrFailed, c.Name, e.err))
	}
	return e.rt, e, nil
}

// pinnedRequest is loadRequest for a load that runs c's code: a plugin
// from the workspace gets exactly the code its snapshot read (asHashed).
func (r *Registry) pinnedRequest(c *Capability) (LoadRequest, error) {
	req := r.loadRequest(c)
	if c.Kind == KindPlugin && c.Source != SourceBuiltin && c.FS != nil {
		pinned, err := asHashed(c)
		if err != nil {
			return LoadRequest{}, err
		}
		req.Capability = pinned
	}
	return req, nil
}

func (r *Registry) loadRequest(c *Capability) LoadRequest {
	req := LoadRequest{Capability: c, Workspace: r.opts.Workspace, Trusted: c.Source == SourceBuiltin, Granted: c.Granted,
		Settings: r.effectiveSettings(c)}
	if c.Kind == KindMCP {
		name := c.Name
		req.Learn = func(cat Catalog) {
			if err := r.Learn(name, cat); err != nil {
				r.log.Warn("learning an MCP server's tools", "capability", name, "error", err)
			}
		}
	}
	return req
}

// markFailed records a load failure for c's current content and publishes a
// snapshot in which c is failed and registers no tools.
func (r *Registry) markFailed(c *Capability, err error) {
	r.markFailedAll(map[*Capability]error{c: err})
}

// markFailedAll records the load failures of many capabilities at once and
// publishes one snapshot for all of them (none when each was known).
func (r *Registry) markFailedAll(fails map[*Capability]error) {
	r.mu.Lock()
	var names []string
	for c, err := range fails {
		if f, ok := r.failures[c.Name]; ok && f.hash == c.Hash {
			continue
		}
		r.failures[c.Name] = loadFailure{hash: c.Hash, msg: err.Error()}
		names = append(names, c.Name)
	}
	if len(names) == 0 {
		r.mu.Unlock()
		return
	}
	snap, aerr := r.assembleLocked()
	r.mu.Unlock()
	if aerr != nil {
		r.log.Warn("publishing load failures", "error", aerr)
		return
	}
	sort.Strings(names)
	r.notify(Change{Generation: snap.Generation, Reason: "failure", Names: names})
}

// RuntimeStatus says how capability name's runtime stands: running,
// stopped (never started, idle or evicted) or crashed. ok is false for a
// capability whose runtime reports nothing (plugins).
func (r *Registry) RuntimeStatus(name string) (RuntimeStatus, bool) {
	r.rtMu.Lock()
	e := r.runtimes[name]
	r.rtMu.Unlock()
	if e == nil {
		if c, ok := r.Snapshot().Get(name); ok && c.Kind == KindMCP {
			return RuntimeStatus{State: RuntimeStopped}, true
		}
		return RuntimeStatus{}, false
	}
	e.mu.Lock()
	loaded, rt := e.loaded, e.rt
	e.mu.Unlock()
	if !loaded {
		return RuntimeStatus{State: RuntimeStarting}, true
	}
	if sr, ok := rt.(StatusReporter); ok {
		return sr.Status(), true
	}
	return RuntimeStatus{}, false
}

// Start brings capability name's runtime up now (for an MCP server:
// connect and list its tools) instead of on its first call.
func (r *Registry) Start(ctx context.Context, name string) error {
	c, err := r.Get(name)
	if err != nil {
		return err
	}
	if !c.Usable() {
		return unusable(c, fmt.Errorf("%w: %s is %s", ErrDisabled, name, c.State))
	}
	rt, release, err := r.runtime(ctx, c)
	if err != nil {
		return err
	}
	defer release()
	if s, ok := rt.(Starter); ok {
		return s.Start(ctx)
	}
	return nil
}

// Loader returns the loader of kind (nil when the build has none).
func (r *Registry) Loader(kind Kind) Loader { return r.opts.Loaders[kind] }

// UseRuntime runs fn with capability name's runtime, loading it first,
// and holds it until fn returns (a reload waits).
func (r *Registry) UseRuntime(ctx context.Context, name string, fn func(Runtime) error) error {
	c, err := r.Get(name)
	if err != nil {
		return err
	}
	if !c.Usable() {
		return unusable(c, fmt.Errorf("%w: %s is %s", ErrDisabled, name, c.State))
	}
	rt, release, err := r.runtime(ctx, c)
	if err != nil {
		return err
	}
	defer release()
	return fn(rt)
}
