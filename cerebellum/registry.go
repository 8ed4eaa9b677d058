package cerebellum

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/schema"
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
	// Pinned names capabilities that are always loaded (config.json pinnedCapabilities).
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
	// ManifestCache is a file remembering parsed SKILL.md files by content
	// hash, to speed up start-up ("" disables it).
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

	mu       sync.Mutex // guards scanned, failures, states, generation and snapshot swaps
	scanned  []*Capability
	failures map[string]loadFailure
	applied  map[string]string
	gen      uint64
	snap     atomic.Pointer[Snapshot]

	cache  *manifestCache
	checks *verdictCache

	rtMu     sync.Mutex
	runtimes map[string]*runtimeEntry

	subMu sync.Mutex
	subs  []func(Change)
}

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

// Change tells subscribers what happened to the registry.
type Change struct {
	Generation uint64
	// Reason is a short word: "scan", "resync", "state", "failure".
	Reason string
	// Names are the capabilities concerned, when known.
	Names []string
}

// Open scans both sources and returns a ready registry. Scanning never
// interprets plugins; that happens on first use (or in CheckPlugins).
func Open(opts Options) (*Registry, error) {
	if opts.IndexBudget <= 0 {
		opts.IndexBudget = DefaultIndexBudget
	}
	opts.IndexBudget = max(opts.IndexBudget, MinIndexBudget)
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
	r := &Registry{opts: opts, log: opts.Logger, failures: map[string]loadFailure{}, runtimes: map[string]*runtimeEntry{}}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.cache = openManifestCache(opts.ManifestCache)
	r.checks = openVerdictCache(opts.CheckCache)
	r.native = map[string]Runtime{DiscoveryName: discovery{r}, AuthoringName: authoring{r}}
	for k, v := range opts.Native {
		r.native[k] = v
	}
	if err := r.rescan("scan"); err != nil {
		return nil, err
	}
	if unknown := r.UnknownPinned(); len(unknown) > 0 {
		r.log.Warn("config.json pins capabilities that are not installed", "names", unknown)
	}
	r.applied = loadApplied(opts.AppliedState)
	if r.applied == nil {
		r.applied = hashesOf(r.Snapshot())
		if err := saveApplied(opts.AppliedState, r.applied); err != nil {
			r.log.Warn("saving the applied capability state", "error", err)
		}
	}
	return r, nil
}

// Snapshot returns the current state.
func (r *Registry) Snapshot() *Snapshot { return r.snap.Load() }

// Workspace is the workspace root ("" for built-ins only).
func (r *Registry) Workspace() string { return r.opts.Workspace }

// Subscribe registers fn to be told about every change. fn runs on the
// goroutine that made the change; a UI must hand it to its own thread.
func (r *Registry) Subscribe(fn func(Change)) {
	r.subMu.Lock()
	r.subs = append(r.subs, fn)
	r.subMu.Unlock()
}

func (r *Registry) notify(c Change) {
	r.subMu.Lock()
	subs := append([]func(Change){}, r.subs...)
	r.subMu.Unlock()
	for _, fn := range subs {
		fn(c)
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
		if err := r.cache.save(); err != nil {
			r.log.Warn("saving the manifest cache", "error", err)
		}
	}
	return all, nil
}

func (r *Registry) rescan(reason string) error {
	scanned, err := r.scan()
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.scanned = scanned
	snap, err := r.assembleLocked()
	r.mu.Unlock()
	if err != nil {
		return err
	}
	r.closeStale(snap)
	r.notify(Change{Generation: snap.Generation, Reason: reason})
	return nil
}

// assembleLocked builds and installs a new snapshot from r.scanned.
func (r *Registry) assembleLocked() (*Snapshot, error) {
	states, err := r.opts.States.States()
	if err != nil {
		return nil, fmt.Errorf("read capability states: %w", err)
	}
	native := map[string]bool{}
	for n := range r.native {
		native[n] = true
	}
	loaders := map[Kind]bool{}
	for k, l := range r.opts.Loaders {
		if l != nil {
			loaders[k] = true
		}
	}
	r.gen++
	snap := assemble(assembleInput{scanned: r.scanned, states: states, pinned: r.opts.Pinned, native: native,
		hasLoader: loaders, failures: r.failures, generation: r.gen})
	r.snap.Store(snap)
	for _, c := range snap.caps {
		if c.State == StateFailed {
			r.log.Warn("capability failed", "capability", c.Name, "error", c.Error)
		}
	}
	return snap, nil
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

// List returns every capability in scan order.
func (r *Registry) List() []*Capability { return r.Snapshot().Capabilities() }

// Get returns one capability by name.
func (r *Registry) Get(name string) (*Capability, error) {
	if c, ok := r.Snapshot().Get(name); ok {
		return c, nil
	}
	return nil, r.notFound(name)
}

func (r *Registry) notFound(name string) error {
	close := r.Closest(name, 3)
	if len(close) == 0 {
		return fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return fmt.Errorf("%w: %q (did you mean %s?)", ErrNotFound, name, strings.Join(close, ", "))
}

// Closest returns up to n capability names nearest to name by edit distance.
func (r *Registry) Closest(name string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, c := range r.Snapshot().caps {
		d := editDistance(strings.ToLower(name), c.Name)
		if strings.Contains(c.Name, strings.ToLower(name)) || strings.Contains(strings.ToLower(name), c.Name) {
			d = min(d, 2)
		}
		if d <= max(3, len(name)/2) {
			cs = append(cs, cand{c.Name, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// NewSession makes the session of a conversation, restoring a saved set;
// names that have since become core or pinned take no slot.
func (r *Registry) NewSession(id string, loaded []string) *Session {
	snap := r.Snapshot()
	var keep []string
	for _, n := range loaded {
		if c, ok := snap.byName[n]; !ok || !c.AlwaysLoaded() {
			keep = append(keep, n)
		}
	}
	return NewSession(id, keep, r.opts.MaxLoaded)
}

// UnknownPinned lists pinnedCapabilities names that are not installed.
func (r *Registry) UnknownPinned() []string {
	snap := r.Snapshot()
	var out []string
	for _, p := range r.opts.Pinned {
		if _, ok := snap.byName[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// LoadedNames returns every capability whose tools a request carries for
// sess: core, then pinned, then the session's loaded set, each sorted by name
// so the list (and the prompt cache) only moves when the set does.
func (r *Registry) LoadedNames(sess *Session) []string {
	snap := r.Snapshot()
	var core, pinned, loaded []string
	for _, c := range snap.caps {
		if !c.Usable() {
			continue
		}
		switch {
		case c.Core:
			core = append(core, c.Name)
		case c.Pinned:
			pinned = append(pinned, c.Name)
		}
	}
	if sess != nil {
		sess.drop(func(n string) bool {
			c, ok := snap.byName[n]
			return ok && c.Usable()
		})
		for _, n := range sess.Loaded() {
			if c := snap.byName[n]; !c.AlwaysLoaded() {
				loaded = append(loaded, n)
			}
		}
	}
	sort.Strings(core)
	sort.Strings(pinned)
	sort.Strings(loaded)
	return append(append(core, pinned...), loaded...)
}

// Tools returns the tool schemas a model request carries for sess: core +
// pinned + the conversation's loaded set, in a stable order.
func (r *Registry) Tools(sess *Session) []ToolDef {
	snap := r.Snapshot()
	var out []ToolDef
	for _, name := range r.LoadedNames(sess) {
		c := snap.byName[name]
		for _, t := range c.Tools() {
			out = append(out, ToolDef{Capability: c.Name, Name: t.Name, Description: t.Description, Parameters: t.Parameters, Annotations: t.Annotations})
		}
	}
	return out
}

// enforceToolBudget evicts least recently used capabilities from sess while
// their tool schemas exceed Options.ToolBudget.
func (r *Registry) enforceToolBudget(sess *Session) {
	if r.opts.ToolBudget <= 0 || sess == nil {
		return
	}
	snap := r.Snapshot()
	ev := sess.evictOldest(func(loaded []string) bool {
		total := 0
		for _, n := range loaded {
			total += snap.SchemaTokens(n)
		}
		return total > r.opts.ToolBudget
	})
	if len(ev) > 0 {
		r.log.Debug("evicted capabilities over the tool budget", "conversation", sess.ID(), "capabilities", ev)
	}
}

// Activate loads a capability into sess by exact name. Loading a core,
// pinned or guide capability is a no-op that succeeds.
func (r *Registry) Activate(sess *Session, name string) (*Capability, error) {
	snap := r.Snapshot()
	c, ok := snap.byName[name]
	if !ok {
		return nil, r.notFound(name)
	}
	switch c.State {
	case StateDisabled:
		return c, fmt.Errorf("%w: %s is switched off; the user can enable it in Settings → Capabilities (or `wrasse caps enable %s`)", ErrDisabled, name, name)
	case StateFailed:
		return c, fmt.Errorf("%w: %s: %s", ErrFailed, name, c.Error)
	}
	if sess == nil || c.AlwaysLoaded() || c.Kind == KindGuide {
		if sess != nil {
			sess.markRecent(name)
		}
		return c, nil
	}
	if ev := sess.touch(name); ev != "" {
		r.log.Debug("evicted capability", "conversation", sess.ID(), "capability", ev)
	}
	r.enforceToolBudget(sess)
	return c, nil
}

// Call runs a tool for a conversation. Calling a tool of a known capability
// that is not loaded loads it first (eviction is invisible to the model).
// The Result is always fit to hand to the model; the error, when not nil,
// classifies the failure (ErrUnknownTool, ErrInvalidArgs, ErrDisabled ...).
func (r *Registry) Call(ctx context.Context, sess *Session, tool string, args json.RawMessage) (Result, error) {
	snap := r.Snapshot()
	ref, ok := snap.tools[tool]
	if !ok {
		if c, shadow := snap.shadowTools[tool]; shadow {
			var err error
			if c.State == StateDisabled {
				err = fmt.Errorf("%w: tool %s belongs to %s, which is switched off; ask the user to enable it in Settings → Capabilities", ErrDisabled, tool, c.Name)
			} else {
				err = fmt.Errorf("%w: tool %s belongs to %s, which failed to load: %s", ErrFailed, tool, c.Name, c.Error)
			}
			return errorResult(err), err
		}
		err := fmt.Errorf("%w: %q is not a tool of any installed capability; use tool_search to find the right tool", ErrUnknownTool, tool)
		return errorResult(err), err
	}
	c := ref.cap
	if sess != nil {
		if c.AlwaysLoaded() {
			sess.markRecent(c.Name)
		} else {
			sess.touch(c.Name)
			r.enforceToolBudget(sess)
		}
	}
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) {
		err := fmt.Errorf("%w: the arguments of %s are not valid JSON; send a JSON object matching its parameters", ErrInvalidArgs, tool)
		return errorResult(err), err
	}
	cs := snap.schemasFor(ref.tool)
	if cs.err != nil {
		err := fmt.Errorf("%w: %s: the tool's schema in %s/SKILL.md is broken: %v", ErrFailed, tool, c.Folder, cs.err)
		return errorResult(err), err
	}
	if verr := cs.in.Validate(args); verr != nil {
		err := fmt.Errorf("%w for %s: %v", ErrInvalidArgs, tool, strings.TrimPrefix(verr.Error(), schema.ErrInvalid.Error()+": "))
		return errorResult(err), err
	}
	rt, err := r.runtime(ctx, c)
	if err != nil {
		return errorResult(err), err
	}
	ctx = WithSession(ctx, sess)
	res, err := rt.Call(ctx, tool, args)
	if err != nil {
		err = fmt.Errorf("%s (%s): %w", tool, c.Name, err)
		return errorResult(err), err
	}
	if cs.out != nil && !res.IsError {
		if verr := cs.out.Validate(json.RawMessage(res.Content)); verr != nil {
			err := fmt.Errorf("%w: %s returned a result that does not match its outputSchema: %v", ErrFailed, tool, verr)
			return errorResult(err), err
		}
	}
	return capResult(res, r.opts.MaxResultBytes), nil
}

func errorResult(err error) Result { return Result{Content: err.Error(), IsError: true} }

// capResult cuts content over max bytes (on a UTF-8 boundary) with a note.
func capResult(res Result, max int) Result {
	if len(res.Content) <= max {
		return res
	}
	cut := max
	for cut > 0 && cut < len(res.Content) && (res.Content[cut]&0xC0) == 0x80 {
		cut--
	}
	res.Content = res.Content[:cut] + fmt.Sprintf("\n[output truncated: showed %d of %d bytes]", cut, len(res.Content))
	res.Truncated = true
	return res
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

// CheckPlugins checks every usable plugin capability that is not loaded
// yet, marking failures, so a listing shows broken plugins without waiting
// for a first call. A plugin whose declared permissions are all granted (or
// that ships with Wrasse) is compiled and initialised; one still missing a
// grant is checked from source only, which reports the grant it needs.
// Verdicts are remembered by code, grants and source (Options.CheckCache),
// so a later start only checks what changed. It runs up to workers checks
// at once.
func (r *Registry) CheckPlugins(ctx context.Context, workers int) {
	if workers <= 0 {
		workers = 2
	}
	snap := r.Snapshot()
	var todo []*Capability
	for _, c := range snap.caps {
		if !c.Usable() || c.Kind != KindPlugin {
			continue
		}
		if _, native := r.native[c.Name]; native && c.Source == SourceBuiltin {
			continue
		}
		r.rtMu.Lock()
		_, loaded := r.runtimes[c.Name]
		r.rtMu.Unlock()
		if loaded {
			continue
		}
		if verdict, known := r.checks.get(checkKey(c)); known {
			if verdict != "" {
				r.markFailed(c, errors.New(verdict))
			}
			continue
		}
		todo = append(todo, c)
	}
	jobs := make(chan *Capability)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				err := r.check(ctx, c)
				if ctx.Err() != nil {
					continue
				}
				if err != nil {
					r.checks.put(checkKey(c), err.Error())
					r.markFailed(c, err)
				} else {
					r.checks.put(checkKey(c), "")
				}
			}
		}()
	}
	for _, c := range todo {
		select {
		case jobs <- c:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	if err := r.checks.save(); err != nil {
		r.log.Warn("saving plugin check results", "error", err)
	}
}

func checkKey(c *Capability) string {
	return string(c.Source) + "|" + c.CodeHash + "|" + strings.Join(c.Granted, ",")
}

func (r *Registry) check(ctx context.Context, c *Capability) error {
	loader := r.opts.Loaders[c.Kind]
	if loader == nil {
		return fmt.Errorf("%w: %s", ErrNoRuntime, c.Name)
	}
	req := r.loadRequest(c)
	if !req.Trusted && c.Manifest != nil {
		granted := map[string]bool{}
		for _, g := range c.Granted {
			granted[g] = true
		}
		for _, p := range c.Manifest.Permissions.Names() {
			if !granted[p] {
				// Nothing of an untrusted plugin runs before its grants.
				if sc, ok := loader.(SourceChecker); ok {
					return sc.CheckSource(ctx, req)
				}
				return nil
			}
		}
	}
	if ch, ok := loader.(Checker); ok {
		return ch.Check(ctx, req)
	}
	return nil
}

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

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
