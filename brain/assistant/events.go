package assistant

import (
	"sort"
	"sync"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// EventKind says what changed.
type EventKind string

// The kinds of Event.
const (
	// EventConfig: the configuration or a key changed; the next turn uses it.
	EventConfig EventKind = "config"
	// EventCapabilities: the registry has a new state (install, toggle,
	// grant, Resync, a load failure).
	EventCapabilities EventKind = "capabilities"
	// EventDisk: the watcher saw capability folders change on disk; Diff
	// says how, Applied whether Resync already ran (autoResync).
	EventDisk EventKind = "disk"
	// EventConversations: a conversation was created, changed or deleted.
	EventConversations EventKind = "conversations"
	// EventSettings: a capability's settings changed (Names holds it).
	EventSettings EventKind = "settings"
	// EventStorage: writes to the workspace database stopped or work
	// again. Err wraps store.ErrDiskFull (no space: once, until a write
	// works), is nil (writes work again), or wraps store.ErrCorrupt
	// (damage found: writes stop for good; see Doctor).
	EventStorage EventKind = "storage"
	// EventToolProgress: an MCP server reported progress on a tool call
	// under way; Progress says which call and how far. Never stored.
	EventToolProgress EventKind = "tool_progress"
)

// Event tells subscribers what changed. Handlers run on the goroutine that
// made the change and must return quickly (a window hands them to its own
// thread).
type Event struct {
	Kind EventKind
	// Generation is the registry's generation for EventCapabilities.
	Generation uint64
	// Reason is the registry's short word ("scan", "resync", "state", ...).
	Reason string
	// Names are the capabilities or conversations concerned, when known.
	Names []string
	// Diff and Applied describe an EventDisk; Err is a watch failure.
	Diff    cerebellum.Diff
	Applied bool
	Err     error
	// Run is what an EventTaskRun tells (tasks.go).
	Run *RunNotice
	// Progress is what an EventToolProgress tells.
	Progress *mcp.Progress
}

// subscribers is a set of handlers with cancel functions.
type subscribers struct {
	mu   sync.Mutex
	next int
	fns  map[int]func(Event)
}

func (s *subscribers) add(fn func(Event)) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fns == nil {
		s.fns = map[int]func(Event){}
	}
	id := s.next
	s.next++
	s.fns[id] = fn
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.fns, id)
			s.mu.Unlock()
		})
	}
}

// publish calls every handler in the order they subscribed, outside the
// lock so a handler may subscribe or cancel.
func (s *subscribers) publish(e Event) {
	s.mu.Lock()
	ids := make([]int, 0, len(s.fns))
	for id := range s.fns {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	fns := make([]func(Event), 0, len(ids))
	for _, id := range ids {
		fns = append(fns, s.fns[id])
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn(e)
	}
}

// Subscribe calls fn with every Event until the returned cancel function
// is called (calling it twice is harmless).
func (a *App) Subscribe(fn func(Event)) (cancel func()) { return a.subs.add(fn) }

// toolProgress publishes an MCP server's progress report on a call
// (mcp.Options.Progress) to the front ends.
func (a *App) toolProgress(p mcp.Progress) {
	a.subs.publish(Event{Kind: EventToolProgress, Names: []string{p.Server}, Progress: &p})
}

// MCPAsker is the asker MCP servers' questions go to (Options.MCPAsker),
// so a window can route them to the conversation that asked.
func (a *App) MCPAsker() mcp.Asker { return a.opts.MCPAsker }
