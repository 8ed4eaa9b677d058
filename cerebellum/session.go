package cerebellum

import (
	"context"
	"slices"
	"sort"
	"sync"
)

// DefaultMaxLoaded is how many non-core capabilities a conversation keeps loaded.
const DefaultMaxLoaded = 10

// maxRecent bounds the recently-used list that orders the index.
const maxRecent = 32

// Session is one conversation's view of the capabilities: the set it has
// loaded (least recently used first) and what it used recently. Use is
// counted with a logical clock, so order never depends on wall time.
// A Session is safe for concurrent use.
type Session struct {
	mu     sync.Mutex
	id     string
	max    int
	loaded []string // LRU order: index 0 is least recently used
	// order is the same set in the order it was loaded: the order of the
	// tools array, which must not move when a capability is used again,
	// or the provider's prompt cache misses from that tool on.
	order  []string
	recent []string // most recent first, includes evicted names
	// partial holds the capabilities loaded with only some of their tools
	// (all of them would exceed the tool budget): the tools carried, in the
	// order they were selected, which is their order in the tools array.
	partial map[string][]string
	// wanted orders each partial selection's tools by how much they are
	// wanted: the one called last or ranked best for the last query
	// first. The tools last in it give way first when room is short.
	wanted  map[string][]string
	version uint64
	// onChange is called (without the lock held) after the loaded set changes.
	onChange func(loaded []string)
	// watch is the registry's own onChange (it stops MCP servers no
	// conversation has loaded); set once by Registry.NewSession.
	watch func(loaded []string)
	// loadedAgain is the registry's: told every name touch uses, so a
	// capability that vanished from this conversation counts as loaded
	// again only when it is (set once by Registry.NewSession).
	loadedAgain func(name string)
}

// NewSession makes a session for conversation id, restoring a loaded set
// saved earlier (from OnChange: in load order, which also stands for the
// LRU order until the capabilities are used again). max <= 0 means
// DefaultMaxLoaded.
func NewSession(id string, loaded []string, max int) *Session {
	if max <= 0 {
		max = DefaultMaxLoaded
	}
	s := &Session{id: id, max: max}
	for _, n := range loaded {
		if !contains(s.loaded, n) {
			s.loaded = append(s.loaded, n)
		}
	}
	if len(s.loaded) > max {
		s.loaded = s.loaded[len(s.loaded)-max:]
	}
	s.recent = reversed(s.loaded)
	// What was saved is the load order; it stands for the LRU order too.
	s.order = append([]string(nil), s.loaded...)
	return s
}

// ID is the conversation id.
func (s *Session) ID() string { return s.id }

// OnChange registers a function called with the new loaded set, in load
// order, after every change, e.g. to persist it: restored with NewSession,
// the tools array keeps its order across a restart.
func (s *Session) OnChange(fn func(loaded []string)) {
	s.mu.Lock()
	s.onChange = fn
	s.mu.Unlock()
}

// Loaded returns the loaded set in LRU order (least recently used first).
func (s *Session) Loaded() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.loaded...)
}

// LoadOrder returns the loaded set in the order the capabilities were
// loaded (first loaded first). Using a capability again does not move it;
// only a load (appended) or an eviction (removed) changes the list.
func (s *Session) LoadOrder() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.order...)
}

// Version counts changes of the loaded set; a request's tool list and
// prompt only need rebuilding when it moves.
func (s *Session) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// IsLoaded reports whether name is in the loaded set.
func (s *Session) IsLoaded(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return contains(s.loaded, name)
}

// Recent returns recently used capability names, most recent first.
func (s *Session) Recent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.recent...)
}

// touch marks name as just used, loading it if needed. It returns the name
// evicted to make room, or "". Touching an already most-recent name is free.
func (s *Session) touch(name string) (evicted string) {
	s.mu.Lock()
	changed := false
	if i := index(s.loaded, name); i >= 0 {
		if i != len(s.loaded)-1 {
			s.loaded = append(append(s.loaded[:i:i], s.loaded[i+1:]...), name)
		}
	} else {
		s.loaded = append(s.loaded, name)
		s.order = append(s.order, name)
		changed = true
		if len(s.loaded) > s.max {
			evicted = s.loaded[0]
			s.loaded = append([]string(nil), s.loaded[1:]...)
			s.order = without(s.order, evicted)
			delete(s.partial, evicted)
			delete(s.wanted, evicted)
		}
	}
	s.noteRecent(name)
	var fn, w func([]string)
	// Also when it was still in the set: a live session that has not
	// built a request since name vanished uses it again.
	again := s.loadedAgain
	var snapshot []string
	if changed {
		s.version++
		fn = s.onChange
		w = s.watch
		snapshot = append([]string(nil), s.order...)
	}
	s.mu.Unlock()
	if again != nil {
		again(name)
	}
	if fn != nil {
		fn(snapshot)
	}
	if w != nil {
		w(snapshot)
	}
	return evicted
}

// noteRecent records use of a capability that is not in the LRU set (core,
// pinned, guides) so the index can still favour it.
func (s *Session) noteRecent(name string) {
	if len(s.recent) > 0 && s.recent[0] == name {
		return
	}
	if i := index(s.recent, name); i >= 0 {
		s.recent = append(s.recent[:i:i], s.recent[i+1:]...)
	}
	s.recent = append([]string{name}, s.recent...)
	if len(s.recent) > maxRecent {
		s.recent = s.recent[:maxRecent]
	}
}

func (s *Session) markRecent(name string) {
	s.mu.Lock()
	s.noteRecent(name)
	s.mu.Unlock()
}

// evictOldest removes least recently used names while over says the set
// is too big, never the most recent one. over sees the loaded set and the
// partial selections (read only, under the session's lock). It returns
// what it removed.
func (s *Session) evictOldest(over func(loaded []string, partial map[string][]string) bool) []string {
	s.mu.Lock()
	var evicted []string
	for len(s.loaded) > 1 && over(s.loaded, s.partial) {
		evicted = append(evicted, s.loaded[0])
		s.order = without(s.order, s.loaded[0])
		delete(s.partial, s.loaded[0])
		delete(s.wanted, s.loaded[0])
		s.loaded = append([]string(nil), s.loaded[1:]...)
	}
	var fn, w func([]string)
	var snapshot []string
	if len(evicted) > 0 {
		s.version++
		fn = s.onChange
		w = s.watch
		snapshot = append([]string(nil), s.order...)
	}
	s.mu.Unlock()
	if fn != nil {
		fn(snapshot)
	}
	if w != nil {
		w(snapshot)
	}
	return evicted
}

// drop removes names that no longer exist or are no longer usable.
func (s *Session) drop(keep func(string) bool) {
	s.mu.Lock()
	var kept []string
	for _, n := range s.loaded {
		if keep(n) {
			kept = append(kept, n)
		}
	}
	var fn, w func([]string)
	var snapshot []string
	if len(kept) != len(s.loaded) {
		s.loaded = kept
		var order []string
		for _, n := range s.order {
			if contains(kept, n) {
				order = append(order, n)
			}
		}
		s.order = order
		for n := range s.partial {
			if !contains(kept, n) {
				delete(s.partial, n)
				delete(s.wanted, n)
			}
		}
		s.version++
		fn = s.onChange
		w = s.watch
		snapshot = append([]string(nil), s.order...)
	}
	s.mu.Unlock()
	if fn != nil {
		fn(snapshot)
	}
	if w != nil {
		w(snapshot)
	}
}

// Selection returns the tools of a loaded capability the conversation
// carries when it carries only some (partial true), in the order they
// were selected; partial false means all of them, or not loaded.
func (s *Session) Selection(name string) (tools []string, partial bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sel, ok := s.partial[name]
	return append([]string(nil), sel...), ok
}

// wantedOrder returns a partial selection's tools most wanted first.
func (s *Session) wantedOrder(name string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.wanted[name]...)
}

// setSelection makes loaded capability name carry only tools (in that
// order; wanted is the same set, most wanted first), or all of its tools
// when tools is nil. It reports whether what is carried changed; such a
// change moves the version.
func (s *Session) setSelection(name string, tools, wanted []string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !contains(s.loaded, name) {
		return false
	}
	old, had := s.partial[name]
	changed := had != (tools != nil) || !slices.Equal(old, tools)
	if tools == nil {
		delete(s.partial, name)
		delete(s.wanted, name)
	} else {
		if s.partial == nil {
			s.partial, s.wanted = map[string][]string{}, map[string][]string{}
		}
		s.partial[name] = append([]string(nil), tools...)
		s.wanted[name] = append([]string(nil), wanted...)
	}
	if changed {
		s.version++
	}
	return changed
}

type sessionKey struct{}

// WithSession returns a context carrying the conversation's session, so
// in-process tools such as tool_search know whose set to change.
func WithSession(ctx context.Context, s *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// SessionFrom returns the session carried by ctx, or nil.
func SessionFrom(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

func contains(list []string, s string) bool { return index(list, s) >= 0 }

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// without returns a copy of list without name.
func without(list []string, name string) []string {
	out := make([]string, 0, len(list))
	for _, x := range list {
		if x != name {
			out = append(out, x)
		}
	}
	return out
}

func reversed(list []string) []string {
	out := make([]string, len(list))
	for i, x := range list {
		out[len(list)-1-i] = x
	}
	return out
}

func sortedCopy(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}
