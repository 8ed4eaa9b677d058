package agent

import (
	"sync"

	"github.com/wrasse-app/wrasse/brain/store"
)

// DefaultMemoryConversations is how many conversations a Memory made with
// NewMemory(0) remembers.
const DefaultMemoryConversations = 8

// Memory carries a conversation's prepared history from one turn to the
// next (requestHistory: the messages converted from the events before the
// last user message, and the fitter's counted sizes, trimmed forms and
// summaries). Without it every turn's first request converts and counts
// the whole history again (~5-7 ms for 5,000 events); with it a turn
// converts and counts only what is new. It is safe because both check
// what they remember before using it: the converted messages only while
// the events they came from are the same (sameEvents), each counted size
// only while its message is (fitter.sync); sharing memory, as the store's
// cached events do, makes each check a pointer comparison. An edited,
// regenerated or compacted history is converted and counted afresh from
// the change on. It assumes the turns sharing it count tokens the same way
// (Options.CountTokens).
//
// One Memory serves every turn of an app (the agent is made anew for each
// turn); the zero value is not usable, make it with NewMemory. It is safe
// for concurrent use.
type Memory struct {
	mu    sync.Mutex
	max   int
	tick  uint64
	hists map[store.ID]*memoryEntry
}

type memoryEntry struct {
	hist requestHistory
	// events are the history the conversation's last turn ended with
	// (turn.events), continued by the next turn when the store's history
	// still begins with them (resumeEvents).
	events keptEvents
	// tail says where events begin in the conversation.
	tail histTail
	used uint64
}

// NewMemory returns a Memory of the last n conversations' turns
// (0: DefaultMemoryConversations).
func NewMemory(n int) *Memory {
	if n <= 0 {
		n = DefaultMemoryConversations
	}
	return &Memory{max: n, hists: map[store.ID]*memoryEntry{}}
}

// take hands out id's history and events, removing them so no two turns
// share them (an empty history and no events when none are kept, or m is
// nil).
func (m *Memory) take(id store.ID) (*requestHistory, keptEvents, histTail) {
	if m == nil {
		return &requestHistory{}, keptEvents{}, histTail{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.hists[id]
	if e == nil {
		return &requestHistory{}, keptEvents{}, histTail{}
	}
	delete(m.hists, id)
	return &e.hist, e.events, e.tail
}

// keep stores id's history and events after a turn, forgetting the least
// recently kept conversation beyond max.
func (m *Memory) keep(id store.ID, h *requestHistory, events keptEvents, tail histTail) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tick++
	m.hists[id] = &memoryEntry{hist: *h, events: events, tail: tail, used: m.tick}
	for len(m.hists) > m.max {
		var old store.ID
		var oldest uint64
		for k, e := range m.hists {
			if oldest == 0 || e.used < oldest {
				old, oldest = k, e.used
			}
		}
		delete(m.hists, old)
	}
}
