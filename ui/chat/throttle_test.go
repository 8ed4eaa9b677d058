package chat

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a manual clock whose timers fire when the test advances it.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	timers []fakeTimer
}

type fakeTimer struct {
	at time.Time
	fn func()
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) after(d time.Duration, fn func()) {
	c.mu.Lock()
	c.timers = append(c.timers, fakeTimer{c.t.Add(d), fn})
	c.mu.Unlock()
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	var due []func()
	rest := c.timers[:0]
	for _, tm := range c.timers {
		if !tm.at.After(c.t) {
			due = append(due, tm.fn)
		} else {
			rest = append(rest, tm)
		}
	}
	c.timers = rest
	c.mu.Unlock()
	for _, fn := range due {
		fn()
	}
}

func TestThrottleBoundsRenders(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	var flushes []map[uint64]string
	th := newThrottle(streamInterval, clk.now, clk.after, func(m map[uint64]string) { flushes = append(flushes, m) })

	// 100 pieces in one second, 10 ms apart: 100 tokens per second.
	want := ""
	for i := range 100 {
		th.add(7, "x")
		want += "x"
		if i < 99 {
			clk.advance(10 * time.Millisecond)
		}
	}
	clk.advance(streamInterval) // the trailing flush
	if n := len(flushes); n < 9 || n > 11 {
		t.Errorf("%d flushes for a second of streaming, want about 10 (at most one per %v)", n, streamInterval)
	}
	last := flushes[len(flushes)-1]
	if last[7] != want {
		t.Errorf("last flush has %d characters, want all %d", len(last[7]), len(want))
	}
}

func TestThrottleFirstPieceShowsAtOnce(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	var got []string
	th := newThrottle(streamInterval, clk.now, clk.after, func(m map[uint64]string) { got = append(got, m[1]) })
	th.add(1, "Hel")
	if len(got) != 1 || got[0] != "Hel" {
		t.Fatalf("after the first piece: %q, want [Hel] at once", got)
	}
	th.add(1, "lo")
	if len(got) != 1 {
		t.Fatalf("second piece within the interval flushed at once: %q", got)
	}
	clk.advance(streamInterval)
	if len(got) != 2 || got[1] != "Hello" {
		t.Fatalf("after the interval: %q, want the whole text", got)
	}
}
