// Package taskstest drives the scheduler's time in tests: a Clock that
// moves only when told, firing the timers it passes, as a computer waking
// from sleep fires the ones it slept through.
package taskstest

import (
	"sync"
	"time"

	"github.com/wrasse-app/wrasse/brain/tasks"
)

// Clock is a tasks.Clock whose time moves only with Set and Advance.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
	armed  int
	fired  int
}

var _ tasks.Clock = (*Clock)(nil)

// NewClock returns a clock showing now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// At arms a timer for t; one at or before now fires at once.
func (c *Clock) At(t time.Time) tasks.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed++
	tm := &timer{c: c, at: t, ch: make(chan struct{}, 1)}
	if !t.After(c.now) {
		c.fired++
		tm.ch <- struct{}{}
		return tm
	}
	c.timers = append(c.timers, tm)
	return tm
}

// Armed counts the timers ever armed.
func (c *Clock) Armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.armed
}

// Fired counts the timers that fired: each one wakes the scheduler.
func (c *Clock) Fired() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fired
}

// Set moves the clock to now (forward or back) and fires every timer due
// by then.
func (c *Clock) Set(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = now
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(now) {
			c.fired++
			t.ch <- struct{}{}
			continue
		}
		kept = append(kept, t)
	}
	c.timers = kept
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

type timer struct {
	c  *Clock
	at time.Time
	ch chan struct{}
}

func (t *timer) C() <-chan struct{} { return t.ch }

func (t *timer) Stop() {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	for i, x := range t.c.timers {
		if x == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			return
		}
	}
}
