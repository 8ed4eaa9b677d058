package providertest

import (
	"sort"
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Clock is a provider.Clock that moves only when the test says: a test of
// a timeout steps time with Advance instead of waiting for it. It is safe
// for concurrent use.
type Clock struct {
	mu      sync.Mutex
	changed *sync.Cond
	now     time.Time
	timers  []*clockTimer
}

// NewClock returns a Clock reading start.
func NewClock(start time.Time) *Clock {
	c := &Clock{now: start}
	c.changed = sync.NewCond(&c.mu)
	return c
}

// AwaitTimer blocks until a timer is set to fire d from now: a test
// knows the code under test reached the point where it waits d (a stream
// that gave its finish reason now waits AfterFinish) before it advances.
func (c *Clock) AwaitTimer(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for _, t := range c.timers {
			if t.active && t.at.Equal(c.now.Add(d)) {
				return
			}
		}
		c.changed.Wait()
	}
}

var _ provider.Clock = (*Clock)(nil)

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f for d from now. Unlike a real clock it runs f in
// Advance, on the caller's goroutine, so when Advance returns every call
// that fell due has run.
func (c *Clock) AfterFunc(d time.Duration, f func()) provider.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &clockTimer{c: c, f: f, at: c.now.Add(d), active: true}
	c.timers = append(c.timers, t)
	c.changed.Broadcast()
	return t
}

// Advance moves the clock forward by d, running each timer that falls due
// in order of its time, the clock reading that time while it runs.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	for {
		var due []*clockTimer
		for _, t := range c.timers {
			if t.active && !t.at.After(target) {
				due = append(due, t)
			}
		}
		if len(due) == 0 {
			break
		}
		sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
		t := due[0]
		t.active = false
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.mu.Unlock()
		t.f()
		c.mu.Lock()
	}
	c.now = target
	c.mu.Unlock()
}

// Pending returns how many timers wait to fire.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if t.active {
			n++
		}
	}
	return n
}

type clockTimer struct {
	c      *Clock
	f      func()
	at     time.Time
	active bool
}

func (t *clockTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	return was
}

func (t *clockTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.at, t.active = t.c.now.Add(d), true
	t.c.changed.Broadcast()
	return was
}
