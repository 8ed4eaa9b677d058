package agent

import "github.com/wrasse-app/wrasse/brain/store"

// TailFrom is the Seq the events m keeps of conversation id begin at (0:
// all of them, or none kept).
func (m *Memory) TailFrom(id store.ID) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.hists[id]; e != nil {
		return e.tail.from
	}
	return 0
}
