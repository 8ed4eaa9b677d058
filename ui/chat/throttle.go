package chat

import (
	"strings"
	"sync"
	"time"
)

// streamInterval bounds how often a streaming reply is re-rendered: at
// most ten times a second, however fast the pieces arrive.
const streamInterval = 100 * time.Millisecond

// throttle accumulates streamed text per reply on the turn's goroutine and
// hands the whole text so far to flush at most once per interval. The
// last pieces are flushed after the interval even when no more arrive;
// the stored final text (the reply's last event) supersedes them anyway.
type throttle struct {
	interval time.Duration
	now      func() time.Time
	after    func(d time.Duration, fn func())
	// flush receives the replies that changed, by seq; it runs on the
	// goroutine that added a piece or on a timer's, never both at once.
	flush func(texts map[uint64]string)

	mu        sync.Mutex
	texts     map[uint64]*strings.Builder
	dirty     map[uint64]bool
	last      time.Time
	scheduled bool
}

func newThrottle(interval time.Duration, now func() time.Time, after func(time.Duration, func()), flush func(map[uint64]string)) *throttle {
	return &throttle{interval: interval, now: now, after: after, flush: flush,
		texts: map[uint64]*strings.Builder{}, dirty: map[uint64]bool{}}
}

// add appends a piece to reply seq.
func (t *throttle) add(seq uint64, delta string) {
	t.mu.Lock()
	b := t.texts[seq]
	if b == nil {
		b = &strings.Builder{}
		t.texts[seq] = b
	}
	b.WriteString(delta)
	t.dirty[seq] = true
	if t.scheduled {
		t.mu.Unlock()
		return
	}
	t.scheduled = true
	wait := t.interval - t.now().Sub(t.last)
	t.mu.Unlock()
	if wait <= 0 {
		t.fire()
		return
	}
	t.after(wait, t.fire)
}

func (t *throttle) fire() {
	t.mu.Lock()
	out := make(map[uint64]string, len(t.dirty))
	for seq := range t.dirty {
		out[seq] = t.texts[seq].String()
	}
	clear(t.dirty)
	t.scheduled = false
	t.last = t.now()
	t.mu.Unlock()
	if len(out) > 0 {
		t.flush(out)
	}
}
