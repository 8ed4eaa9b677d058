package cerebellum

import (
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// DiscoveryName is the built-in capability the engine serves itself.
const DiscoveryName = "tool-discovery"

// DefaultMaxResultBytes caps what one tool call hands back to the model.
const DefaultMaxResultBytes = 64 << 10

// Options configure a Registry. main wires them from the workspace.
type Options struct {
	// Builtin is the tree of capabilities that ship with the app.
	Builtin fs.FS
	// Workspace is the workspace root; capabilities live in
	// <Workspace>/brain/cerebellum. Empty means built-ins only.
	Workspace string
	// States persists enable/disable and grants; nil means in memory.
	States StateStore
	// Settings persists the values of capability settings; nil means in
	// memory. The workspace database implements both stores.
	Settings SettingsStore
	// Catalogs persists what MCP servers offer (their tool lists); nil
	// uses States when it implements CatalogStore (the workspace database
	// does), else memory.
	Catalogs CatalogStore
	// Pinned names capabilities that are always loaded (config.json
	// pinnedCapabilities). Pinned, IndexBudget and ToolBudget are the
	// initial Tuning; SetTuning changes them while running.
	Pinned []string
	// Loaders bring plugin and MCP capabilities to life.
	Loaders map[Kind]Loader
	// Native serves built-in capabilities implemented in Go, by name.
	Native map[string]Runtime
	// Logger receives diagnostics; nil discards.
	Logger *slog.Logger
	// IndexBudget is the capability index budget in tokens (default 800).
	IndexBudget int
	// CountTokens counts tokens for the index budget (default EstimateTokens).
	CountTokens func(string) int
	// MaxLoaded is the per-conversation loaded-set size (default 10).
	MaxLoaded int
	// ToolBudget bounds, in tokens, the schemas of a conversation's loaded
	// (non-core, non-pinned) capabilities; least recently used ones are
	// evicted past it, always keeping the most recent. 0 means no bound
	// beyond MaxLoaded. main sets it from the model's context window.
	ToolBudget int
	// MaxResultBytes caps tool results (default 64 KiB).
	MaxResultBytes int
	// Now is the clock for trash timestamps (default time.Now).
	Now func() time.Time
	// ManifestCache is a file remembering what the last scan read from each
	// workspace capability folder, with the stat of its files, so a start
	// or Resync reads only what changed, and which failures were logged, so
	// a restart does not log them again ("" keeps both in memory only).
	ManifestCache string
	// CheckCache is a file remembering plugin check verdicts by code,
	// grants and source ("" keeps them in memory only).
	CheckCache string
	// AppliedState is a file remembering the capabilities (name → content
	// hash) as of the last Resync, so a Resync reports what changed since
	// then even in a new process ("" keeps it in memory only).
	AppliedState string
}

// CapabilitiesDir returns the workspace's capability folder.
func CapabilitiesDir(workspace string) string {
	return filepath.Join(workspace, "brain", "cerebellum")
}

// Registry is the live set of capabilities. It owns the current Snapshot,
// the loaded runtimes, and the rules for finding, loading and calling tools.
// All methods are safe for concurrent use.
type Registry struct {
	opts   Options
	log    *slog.Logger
	native map[string]Runtime

	// resyncMu serialises Resyncs, so each diffs against the state the
	// previous one applied.
	resyncMu sync.Mutex
	// appliedGen is the generation of the snapshot r.applied was taken
	// from (0 if not known) and appliedNames its names, sorted (under mu).
	appliedGen   uint64
	appliedNames []string
	// appliedAppended counts the entries appended to the applied-state
	// file since it was written whole, -1 when it must be (under resyncMu).
	appliedAppended int
	// appliedOnce reads the applied state into applied and
	// appliedAppended; every user of them calls it first.
	appliedOnce func()
	// scanMu serialises rescans, so a folder Resync never builds on a
	// scan another Resync is replacing.
	scanMu sync.Mutex
	// noticed are workspace folders a watcher reported changed that no
	// Resync has applied yet (under mu), for PendingFolders.
	noticed map[string]bool

	// deferred is DeferrableTools' last answer, kept for the snapshot and
	// tool budget it was built from: the list is the same for every turn
	// until either changes, and building it for 1,000 capabilities cost
	// about 4.5 ms of each turn's Enter-to-request time.
	deferred atomic.Pointer[deferredTools]

	mu       sync.Mutex // guards scanned, failures, states, generation and snapshot swaps
	scanned  []*Capability
	failures map[string]loadFailure
	applied  map[string]string
	gen      uint64
	snap     atomic.Pointer[Snapshot]
	tuning   atomic.Pointer[Tuning] // replaced under mu

	cache  *manifestCache
	checks *verdictCache
	// verified are the built-in plugins checked at build time (VerifiedFS).
	verified map[string]string
	// logged are the failures already logged, by capability name (under
	// mu), persisted in the manifest cache: each is logged once per change.
	logged map[string]string
	// quietFailures counts failures not logged at the first snapshot
	// because a previous run logged them already (-1 once reported).
	quietFailures int
	// lastInputs are the stored states and pinned names the current
	// snapshot was built from (under mu), so a Resync that finds nothing
	// changed keeps the snapshot.
	lastInputs *snapshotInputs
	// opening defers failure logging until Open has applied the
	// remembered verdicts (under mu).
	opening bool

	rtMu     sync.Mutex
	runtimes map[string]*runtimeEntry

	// catalogs are the MCP servers' catalogs read or learnt so far (under mu).
	catalogs map[string]Catalog
	// loadedBy is each live conversation's loaded set (under sessMu), so a
	// server no conversation has loaded can stop.
	sessMu   sync.Mutex
	loadedBy map[string][]string
	// vanished are, by conversation id (under sessMu), the capabilities
	// that left its loaded set because a published snapshot no longer
	// had them usable, and that it has not loaded since: its saved set
	// (or a live session) may still name them, and they must not come
	// back loaded when they reappear (see noteVanishedLocked).
	vanished map[string]map[string]bool

	subMu   sync.Mutex
	subs    []subscriber
	nextSub uint64
}

// Change tells subscribers what happened to the registry.
type Change struct {
	Generation uint64
	// Reason is a short word: "scan", "resync", "state", "failure",
	// "tuning", "reload", "settings".
	Reason string
	// Names are the capabilities concerned, when known.
	Names []string
}

// Open scans both sources and returns a ready registry. Scanning never
// interprets plugins; that happens on first use (or in CheckPlugins), but
// plugins whose remembered check failed (Options.CheckCache) start failed.
func Open(opts Options) (*Registry, error) {
	tuning, err := Tuning{Pinned: opts.Pinned, IndexBudget: max(opts.IndexBudget, 0), ToolBudget: max(opts.ToolBudget, 0)}.normalized()
	if err != nil {
		return nil, err
	}
	if opts.CountTokens == nil {
		opts.CountTokens = EstimateTokens
	}
	if opts.MaxLoaded <= 0 {
		opts.MaxLoaded = DefaultMaxLoaded
	}
	if opts.MaxResultBytes <= 0 {
		opts.MaxResultBytes = DefaultMaxResultBytes
	}
	if opts.States == nil {
		opts.States = MemoryStates{}
	}
	if opts.Settings == nil {
		opts.Settings = &MemorySettings{}
	}
	if opts.Catalogs == nil {
		if cs, ok := opts.States.(CatalogStore); ok {
			opts.Catalogs = cs
		} else {
			opts.Catalogs = &MemoryCatalogs{}
		}
	}
	r := &Registry{opts: opts, log: opts.Logger, failures: map[string]loadFailure{}, runtimes: map[string]*runtimeEntry{},
		catalogs: map[string]Catalog{}, loadedBy: map[string][]string{}, vanished: map[string]map[string]bool{}}
	r.tuning.Store(&tuning)
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.cache = openManifestCache(opts.ManifestCache)
	r.logged = r.cache.file.Fails()
	r.checks = openVerdictCache(opts.CheckCache)
	if vf, ok := opts.Builtin.(VerifiedFS); ok {
		r.verified = vf.Verified()
	}
	r.native = map[string]Runtime{DiscoveryName: discovery{r}}
	for _, l := range opts.Loaders {
		if np, ok := l.(NativeProvider); ok {
			for k, v := range np.Natives(r) {
				r.native[k] = v
			}
		}
	}
	for k, v := range opts.Native {
		r.native[k] = v
	}
	// Failures are logged once the first snapshot includes the remembered
	// check verdicts, so a restart does not see them recover and fail again.
	r.opening = true
	if err := r.rescan("scan"); err != nil {
		return nil, err
	}
	r.applyVerdicts()
	r.mu.Lock()
	r.opening = false
	r.logFailuresLocked(r.snap.Load())
	if n := r.quietFailures; n > 0 {
		r.log.Info("capabilities still failing as the last run logged (see wrasse caps list)", "count", n)
	}
	r.quietFailures = -1
	r.mu.Unlock()
	r.saveCache()
	if unknown := r.UnknownPinned(); len(unknown) > 0 {
		r.log.Warn("config.json pins capabilities that are not installed", "names", unknown)
	}
	// The applied state is only needed by a Resync (or Pending): reading
	// it (a megabyte of JSON at 10,000 capabilities) is left to the first
	// one, so `caps list` does not pay for it. Without a file the state is
	// this snapshot's, saved now so the next process diffs against it.
	opened := r.Snapshot()
	r.appliedOnce = sync.OnceFunc(func() { r.loadAppliedState(opened) })
	if _, err := os.Stat(opts.AppliedState); opts.AppliedState == "" || err != nil {
		r.appliedOnce()
	}
	return r, nil
}

// loadAppliedState reads the applied-state file, or, when there is none,
// takes opened's state as applied and saves it.
func (r *Registry) loadAppliedState(opened *Snapshot) {
	applied, appended := loadApplied(r.opts.AppliedState)
	if applied == nil {
		applied = hashesOf(opened)
		if err := saveApplied(r.opts.AppliedState, slices.Sorted(maps.Keys(applied)), applied); err != nil {
			r.log.Warn("saving the applied capability state", "error", err)
			appended = -1
		}
	}
	r.mu.Lock()
	r.applied, r.appliedAppended = applied, appended
	r.mu.Unlock()
}

// Snapshot returns the current state.
func (r *Registry) Snapshot() *Snapshot { return r.snap.Load() }

// Workspace is the workspace root ("" for built-ins only).
func (r *Registry) Workspace() string { return r.opts.Workspace }

// Subscribe registers fn to be told about every change and returns a
// function that unregisters it. fn runs on the goroutine that made the
// change; a UI must hand it to its own thread.
func (r *Registry) Subscribe(fn func(Change)) (cancel func()) {
	r.subMu.Lock()
	r.nextSub++
	id := r.nextSub
	r.subs = append(r.subs, subscriber{id, fn})
	r.subMu.Unlock()
	return func() {
		r.subMu.Lock()
		defer r.subMu.Unlock()
		r.subs = slices.DeleteFunc(r.subs, func(s subscriber) bool { return s.id == id })
	}
}

type subscriber struct {
	id uint64
	fn func(Change)
}

func (r *Registry) notify(c Change) {
	r.subMu.Lock()
	subs := slices.Clone(r.subs)
	r.subMu.Unlock()
	for _, s := range subs {
		s.fn(c)
	}
}

// scan reads both trees.
func (r *Registry) scan() ([]*Capability, error) {
	var all []*Capability
	if r.opts.Builtin != nil {
		b, err := scanTree(r.opts.Builtin, "", SourceBuiltin, nil)
		if err != nil {
			return nil, err
		}
		all = append(all, b...)
	}
	if r.opts.Workspace != "" {
		dir := CapabilitiesDir(r.opts.Workspace)
		w, err := scanTree(os.DirFS(dir), dir, SourceWorkspace, r.cache)
		if err != nil {
			return nil, err
		}
		all = append(all, w...)
		keep := make(map[string]bool, len(w))
		for _, c := range w {
			keep[c.Folder] = true
		}
		r.cache.prune(keep)
	}
	return all, nil
}

func (r *Registry) rescan(reason string) error {
	r.scanMu.Lock()
	defer r.scanMu.Unlock()
	scanned, err := r.scan()
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.noticed = nil
	if reason == "resync" && sameScan(scanned, r.scanned) && r.inputsUnchangedLocked() {
		// Nothing on disk or in the stored states changed: the snapshot
		// stands, and its loaded runtimes with it.
		r.mu.Unlock()
		return nil
	}
	r.scanned = scanned
	snap, err := r.assembleScanLocked()
	r.mu.Unlock()
	if err != nil {
		return err
	}
	r.closeStale(snap)
	r.notify(Change{Generation: snap.Generation, Reason: reason})
	return nil
}

// sameScan reports whether two scans found the same capabilities: the
// same workspace entries (the manifest cache hands out one pointer per
// unchanged folder) and built-ins of the same content.
func sameScan(a, b []*Capability) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		x, y := a[i], b[i]
		if x.Source != SourceBuiltin || y.Source != SourceBuiltin || x.Folder != y.Folder || x.Hash != y.Hash || x.State != y.State || x.Error != y.Error {
			return false
		}
	}
	return true
}

// inputsUnchangedLocked reports whether what the last snapshot was built
// from besides the scan (stored states, pinned names) is as it was.
func (r *Registry) inputsUnchangedLocked() bool {
	if r.lastInputs == nil {
		return false
	}
	states, err := r.opts.States.States()
	return err == nil && slices.Equal(r.tune().Pinned, r.lastInputs.pinned) && sameStates(states, r.lastInputs.states)
}

// sameStates reports whether two sets of stored states decide the same.
func sameStates(a, b map[string]CapState) bool {
	if len(a) != len(b) {
		return false
	}
	for name, st := range a {
		old, ok := b[name]
		if !ok || st.Disabled != old.Disabled || st.GrantedFor != old.GrantedFor || st.Authored != old.Authored || !slices.Equal(st.Granted, old.Granted) {
			return false
		}
	}
	return true
}

// snapshotInputs are the inputs of the last assembled snapshot.
type snapshotInputs struct {
	states map[string]CapState
	pinned []string
}

// assembleLocked builds and installs a new snapshot from r.scanned,
// deciding every capability again: what a change of the stored states,
// failures, catalogs or settings needs.
func (r *Registry) assembleLocked() (*Snapshot, error) {
	return r.publishLocked(false)
}

// assembleScanLocked builds and installs the snapshot of a new r.scanned,
// all else as the current snapshot was built: from the current one,
// replacing only the capabilities whose scan entries changed, when their
// change reaches no other (see Snapshot.next); else as assembleLocked.
// Resync and ResyncFolders (the watcher) both publish through it.
func (r *Registry) assembleScanLocked() (*Snapshot, error) {
	return r.publishLocked(true)
}

func (r *Registry) publishLocked(scanOnly bool) (*Snapshot, error) {
	states, err := r.opts.States.States()
	if err != nil {
		return nil, fmt.Errorf("read capability states: %w", err)
	}
	prev := r.snap.Load()
	r.gen++
	snap := r.nextSnapshotLocked(prev, r.scanned, states, r.gen, scanOnly)
	r.lastInputs = &snapshotInputs{states: states, pinned: slices.Clone(r.tune().Pinned)}
	snap.follow(prev)
	r.snap.Store(snap)
	r.noteVanished(snap)
	if !r.opening {
		if snap.delta != nil && prev != nil && snap.delta.from == prev.Generation {
			r.logChangedFailuresLocked(snap, snap.delta.names)
		} else {
			r.logFailuresLocked(snap)
		}
	}
	return snap, nil
}

// nextSnapshotLocked makes (without installing) the snapshot of scanned
// with states; with scanOnly, from prev by replacing what changed when
// prev was built from the same inputs besides the scan.
func (r *Registry) nextSnapshotLocked(prev *Snapshot, scanned []*Capability, states map[string]CapState, gen uint64, scanOnly bool) *Snapshot {
	native := make(map[string]bool, len(r.native))
	for n := range r.native {
		native[n] = true
	}
	loaders := map[Kind]bool{}
	for k, l := range r.opts.Loaders {
		if l != nil {
			loaders[k] = true
		}
	}
	in := assembleInput{scanned: scanned, states: states, pinned: r.tune().Pinned, native: native,
		hasLoader: loaders, failures: r.failures, generation: gen}
	if scanOnly && prev != nil && r.lastInputs != nil && sameStates(states, r.lastInputs.states) && slices.Equal(r.tune().Pinned, r.lastInputs.pinned) {
		// MCP catalogs and policies only change with a full assemble, and
		// next gives up on a changed MCP capability.
		if snap, ok := prev.next(in); ok {
			return snap
		}
	}
	in.learned, in.policies = r.learnedLocked(scanned)
	return assemble(in)
}

// logFailuresLocked logs each failure once per change of its state: a
// capability that newly failed, or failed with another message, is logged;
// one still failing as logged before (in this run or the last) is not; one
// that recovered is logged as such. What was logged is remembered in the
// manifest cache so a restart with the same failures stays quiet.
func (r *Registry) logFailuresLocked(snap *Snapshot) {
	failed := 0
	for _, c := range snap.caps {
		if c.State != StateFailed {
			continue
		}
		failed++
		if msg, ok := r.logged[c.Name]; ok && msg == c.Error {
			if r.quietFailures >= 0 {
				r.quietFailures++
			}
			continue
		}
		r.log.Warn("capability failed", "capability", c.Name, "error", c.Error)
		r.logged[c.Name] = c.Error
		r.cache.file.SetFail(c.Name, c.Error)
	}
	if len(r.logged) > failed {
		for name := range r.logged {
			if c, ok := snap.byName[name]; ok && c.State == StateFailed {
				continue
			} else if ok {
				r.log.Info("capability no longer failing", "capability", name, "state", c.State)
			}
			delete(r.logged, name)
			r.cache.file.SetFail(name, "")
		}
	}
}

// logChangedFailuresLocked is logFailuresLocked for a snapshot that
// differs from the previous one (whose failures were logged) only in the
// capabilities named.
func (r *Registry) logChangedFailuresLocked(snap *Snapshot, names []string) {
	for _, name := range names {
		c, ok := snap.byName[name]
		if ok && c.State == StateFailed {
			if msg, ok := r.logged[name]; ok && msg == c.Error {
				continue
			}
			r.log.Warn("capability failed", "capability", name, "error", c.Error)
			r.logged[name] = c.Error
			r.cache.file.SetFail(name, c.Error)
			continue
		}
		if _, was := r.logged[name]; !was {
			continue
		}
		if ok {
			r.log.Info("capability no longer failing", "capability", name, "state", c.State)
		}
		delete(r.logged, name)
		r.cache.file.SetFail(name, "")
	}
}

// saveCache writes the manifest cache when the scans or the failures logged
// changed it. It is written whole (see scancache), so it is saved at the
// end of Open, of a full Resync and at Close, not after every folder a
// watcher reports: an edit not saved when a process ends is read again by
// the next one, which is all a cache owes.
func (r *Registry) saveCache() {
	if err := r.cache.save(); err != nil {
		r.log.Warn("saving the manifest cache", "error", err)
	}
}

// List returns every capability in scan order.
func (r *Registry) List() []*Capability { return r.Snapshot().Capabilities() }

// Get returns one capability by name.
func (r *Registry) Get(name string) (*Capability, error) {
	if c, ok := r.Snapshot().Get(name); ok {
		return c, nil
	}
	return nil, r.notFound(name)
}

// NewSession makes the session of a conversation, restoring a saved set;
// names that have since become core or pinned take no slot.
func (r *Registry) NewSession(id string, loaded []string) *Session {
	snap := r.Snapshot()
	gone := r.vanishedFrom(id)
	var keep []string
	for _, n := range loaded {
		if c, ok := snap.byName[n]; (!ok || !c.AlwaysLoaded()) && !gone[n] {
			keep = append(keep, n)
		}
	}
	s := NewSession(id, keep, r.opts.MaxLoaded)
	if id != "" {
		s.watch = func(loaded []string) { r.trackLoaded(id, loaded) }
		s.loadedAgain = func(name string) { r.loadedAgain(id, name) }
		r.trackLoaded(id, s.Loaded())
	}
	return s
}

// noteVanished records, for every conversation of this process, the
// capabilities of its loaded set that snap (just published) does not have
// usable: they leave the set now, even if a later snapshot has them back
// before the conversation's next request. r.mu is held, so snapshots are
// noted in the order they are published.
func (r *Registry) noteVanished(snap *Snapshot) {
	r.sessMu.Lock()
	defer r.sessMu.Unlock()
	for id, loaded := range r.loadedBy {
		var kept []string
		for i, n := range loaded {
			if c, ok := snap.byName[n]; ok && c.Usable() {
				if kept != nil {
					kept = append(kept, n)
				}
				continue
			}
			if kept == nil {
				kept = append(make([]string, 0, len(loaded)), loaded[:i]...)
			}
			if r.vanished[id] == nil {
				r.vanished[id] = map[string]bool{}
			}
			r.vanished[id][n] = true
		}
		switch {
		case kept == nil:
		case len(kept) == 0:
			delete(r.loadedBy, id)
		default:
			r.loadedBy[id] = kept
		}
	}
}

// vanishedFrom returns a copy of what vanished from conversation id's
// loaded set (see Registry.vanished), or nil.
func (r *Registry) vanishedFrom(id string) map[string]bool {
	if id == "" {
		return nil
	}
	r.sessMu.Lock()
	defer r.sessMu.Unlock()
	if len(r.vanished[id]) == 0 {
		return nil
	}
	return maps.Clone(r.vanished[id])
}

// loadedAgain: conversation id loaded name (again), so it no longer
// counts as vanished from it.
func (r *Registry) loadedAgain(id, name string) {
	r.sessMu.Lock()
	defer r.sessMu.Unlock()
	if v := r.vanished[id]; v[name] {
		delete(v, name)
		if len(v) == 0 {
			delete(r.vanished, id)
		}
	}
}

// UnknownPinned lists pinnedCapabilities names that are not installed.
func (r *Registry) UnknownPinned() []string {
	snap := r.Snapshot()
	var out []string
	for _, p := range r.tune().Pinned {
		if _, ok := snap.byName[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func (r *Registry) now() time.Time {
	if r.opts.Now != nil {
		return r.opts.Now()
	}
	return time.Now()
}
