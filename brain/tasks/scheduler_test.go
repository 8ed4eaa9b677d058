package tasks

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is taskstest.Clock's twin, here so the internal tests can set
// the scheduler's idle hook (taskstest imports this package).
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c  *fakeClock
	at time.Time
	ch chan struct{}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) At(t time.Time) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	tm := &fakeTimer{c: c, at: t, ch: make(chan struct{}, 1)}
	if !t.After(c.now) {
		tm.ch <- struct{}{}
	} else {
		c.timers = append(c.timers, tm)
	}
	return tm
}

func (c *fakeClock) Set(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = now
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(now) {
			t.ch <- struct{}{}
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

func (t *fakeTimer) C() <-chan struct{} { return t.ch }
func (t *fakeTimer) Stop() {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	for i, x := range t.c.timers {
		if x == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			return
		}
	}
}

// recorder is a Host that keeps every decision.
type recorder struct {
	mu sync.Mutex
	ds []Decision
}

func (r *recorder) Due(d Decision) {
	r.mu.Lock()
	r.ds = append(r.ds, d)
	r.mu.Unlock()
}

func (r *recorder) take() []Decision {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.ds
	r.ds = nil
	return out
}

// harness runs a scheduler on a fake clock; wait returns once the loop
// is idle again, with the time it waits for.
type harness struct {
	t     *testing.T
	clock *fakeClock
	host  *recorder
	s     *Scheduler
	idle  chan time.Time
	loc   *time.Location
}

func newHarness(t *testing.T, loc *time.Location, now time.Time, tasks ...Task) *harness {
	h := &harness{t: t, clock: &fakeClock{now: now}, host: &recorder{}, idle: make(chan time.Time, 1), loc: loc}
	h.s = New(Options{Clock: h.clock, Location: loc, Host: h.host})
	h.s.idle = func(next time.Time) { h.idle <- next }
	for _, tk := range tasks {
		h.s.Set(tk)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		h.s.Run(ctx)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		// Drain a last idle report so the loop can see ctx end.
		for {
			select {
			case <-h.idle:
			case <-done:
				return
			}
		}
	})
	return h
}

// wait is the time the idle loop waits for next.
func (h *harness) wait() time.Time {
	h.t.Helper()
	select {
	case n := <-h.idle:
		return n
	case <-time.After(10 * time.Second):
		h.t.Fatal("the scheduler never went idle")
		return time.Time{}
	}
}

// settle waits until the loop is idle with nothing more to report.
func (h *harness) settle() time.Time {
	n := h.wait()
	for {
		select {
		case n = <-h.idle:
		default:
			return n
		}
	}
}

func task(t *testing.T, id ID, spec string, created time.Time, loc *time.Location) Task {
	t.Helper()
	s, err := Parse(spec, created, loc)
	if err != nil {
		t.Fatal(err)
	}
	return Task{ID: id, Name: spec, Prompt: "p", Schedule: s, Enabled: true, Created: created}
}

func TestSchedulerAcrossMidnight(t *testing.T) {
	loc := mustLoc(t, "Europe/Berlin")
	start := at(loc, 2025, 6, 2, 23, 50)
	h := newHarness(t, loc, start, task(t, 1, "daily 00:05", start, loc))
	if n := h.settle(); !n.Equal(at(loc, 2025, 6, 3, 0, 5)) {
		t.Fatalf("waits for %s, want 00:05 tomorrow", n)
	}
	h.clock.Set(at(loc, 2025, 6, 3, 0, 5))
	if n := h.wait(); !n.Equal(at(loc, 2025, 6, 4, 0, 5)) {
		t.Fatalf("then waits for %s, want 00:05 the day after", n)
	}
	ds := h.host.take()
	if len(ds) != 1 || !ds[0].Run || ds[0].Trigger != OnTime || ds[0].Missed != 0 {
		t.Fatalf("decisions %+v, want one on-time run", ds)
	}
	if h.s.Wakeups() != 1 {
		t.Fatalf("woke %d times, want 1", h.s.Wakeups())
	}
}

func TestSchedulerDaylightSaving(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	start := at(ny, 2025, 3, 8, 12, 0)
	h := newHarness(t, ny, start, task(t, 1, "daily 08:00", start, ny), task(t, 2, "daily 02:30", start, ny))
	want := []time.Time{at(ny, 2025, 3, 9, 3, 0), at(ny, 2025, 3, 9, 8, 0), at(ny, 2025, 3, 10, 2, 30)}
	n := h.settle()
	for i, w := range want {
		if !n.Equal(w) {
			t.Fatalf("wake %d at %s, want %s", i+1, n.In(ny), w)
		}
		h.s.Finished(1)
		h.s.Finished(2)
		h.clock.Set(n)
		n = h.wait()
	}
	ds := h.host.take()
	if len(ds) != 3 {
		t.Fatalf("%d decisions, want 3: %+v", len(ds), ds)
	}
	for _, d := range ds {
		if !d.Run || d.Trigger != OnTime {
			t.Fatalf("decision %+v: want an on-time run", d)
		}
	}
}

func TestSchedulerTwoDaySleep(t *testing.T) {
	loc := mustLoc(t, "Europe/Berlin")
	start := at(loc, 2025, 6, 2, 7, 0) // Monday
	h := newHarness(t, loc, start,
		task(t, 1, "daily 08:00", start, loc),           // late by 1 h: within 12 h
		task(t, 2, "daily 06:00", start, loc),           // late by 3 h: runs
		task(t, 3, "weekly wed 20:00", start, loc),      // late by 13 h: over 12 h
		task(t, 4, "every 1h", start, loc),              // late by 0: on time
		task(t, 5, "once 2025-06-04 12:00", start, loc), // late by 21 h: under a day
		task(t, 6, "once 2025-06-02 08:00", start, loc), // late by 2 days: skipped
	)
	h.settle()
	// Asleep from Monday 07:00 to Thursday 09:00: no timer fired meanwhile.
	h.clock.Set(at(loc, 2025, 6, 5, 9, 0))
	h.settle()
	got := map[ID]Decision{}
	for _, d := range h.host.take() {
		if _, dup := got[d.Task.ID]; dup {
			t.Fatalf("task %d decided twice: the missed runs piled up", d.Task.ID)
		}
		got[d.Task.ID] = d
	}
	check := func(id ID, run bool, trig Trigger, missed int, note string) {
		t.Helper()
		d, ok := got[id]
		if !ok {
			t.Fatalf("task %d: no decision", id)
		}
		if d.Run != run || (run && d.Trigger != trig) || d.Missed != missed || !strings.Contains(d.Note, note) {
			t.Fatalf("task %d (%s): %+v; want run=%v %s missed=%d note with %q", id, d.Task.Name, d, run, trig, missed, note)
		}
	}
	check(1, true, Late, 3, "ran late")
	check(2, true, Late, 2, "ran late")
	check(3, false, "", 0, "skipped")
	check(4, true, OnTime, 73, "73 earlier due times")
	check(5, true, Late, 0, "ran late")
	check(6, false, "", 0, "more than a day")
	if !got[1].Due.Equal(at(loc, 2025, 6, 5, 8, 0)) {
		t.Fatalf("task 1 decided for %s, want Thursday 08:00", got[1].Due)
	}
	if n := h.s.Next(6); !n.IsZero() {
		t.Fatalf("a skipped once has a next run at %s", n)
	}
}

func TestSchedulerNoPileUp(t *testing.T) {
	loc := time.UTC
	start := time.Date(2025, 6, 2, 10, 0, 0, 0, loc)
	h := newHarness(t, loc, start, task(t, 1, "every 15m", start, loc))
	h.settle()
	h.clock.Set(start.Add(15 * time.Minute))
	h.wait()
	if ds := h.host.take(); len(ds) != 1 || !ds[0].Run {
		t.Fatalf("first due: %+v, want a run", ds)
	}
	// The run is still going at the next due time.
	h.clock.Set(start.Add(30 * time.Minute))
	h.wait()
	ds := h.host.take()
	if len(ds) != 1 || ds[0].Run || !strings.Contains(ds[0].Note, "still going") {
		t.Fatalf("second due with the run going: %+v, want a skip saying so", ds)
	}
	if err := h.s.Begin(ds[0].Task); err == nil {
		t.Fatal("Run now started a second run beside the one going")
	}
	h.s.Finished(1)
	h.clock.Set(start.Add(45 * time.Minute))
	h.wait()
	if ds := h.host.take(); len(ds) != 1 || !ds[0].Run {
		t.Fatalf("third due after the run ended: %+v, want a run", ds)
	}
}

func TestSchedulerMissedAtStart(t *testing.T) {
	loc := time.UTC
	created := time.Date(2025, 6, 1, 9, 0, 0, 0, loc)
	tk := task(t, 1, "daily 08:00", created, loc)
	tk.Handled = time.Date(2025, 6, 2, 8, 0, 0, 0, loc)
	// Wrasse starts again on 3 June at 10:30: the 08:00 run is 2.5 h late.
	h := newHarness(t, loc, time.Date(2025, 6, 3, 10, 30, 0, 0, loc), tk)
	if n := h.settle(); !n.Equal(time.Date(2025, 6, 4, 8, 0, 0, 0, loc)) {
		t.Fatalf("waits for %s, want tomorrow 08:00", n)
	}
	ds := h.host.take()
	if len(ds) != 1 || !ds[0].Run || ds[0].Trigger != Late || !ds[0].Due.Equal(time.Date(2025, 6, 3, 8, 0, 0, 0, loc)) {
		t.Fatalf("decisions %+v, want a late run of today's 08:00", ds)
	}
	if h.s.Wakeups() != 0 {
		t.Fatalf("the start counted as %d wake-ups", h.s.Wakeups())
	}
}

func TestSchedulerWakesOncePerDueTime(t *testing.T) {
	loc := time.UTC
	start := time.Date(2025, 6, 2, 0, 0, 0, 0, loc)
	var list []Task
	// 1,000 tasks over 10 distinct times of day.
	for i := range 1000 {
		list = append(list, task(t, ID(i+1), fmtDaily(1+i%10, 0), start, loc))
	}
	h := newHarness(t, loc, start, list...)
	n := h.settle()
	for range 10 {
		for i := range 1000 {
			h.s.Finished(ID(i + 1))
		}
		h.clock.Set(n)
		n = h.wait()
	}
	if got := h.s.Wakeups(); got != 10 {
		t.Fatalf("%d wake-ups for 10 due times", got)
	}
	if got := len(h.host.take()); got != 1000 {
		t.Fatalf("%d decisions, want 1000", got)
	}
	// Nothing is due until tomorrow 01:00: moving through the rest of
	// the day wakes nothing.
	h.clock.Set(time.Date(2025, 6, 2, 23, 59, 0, 0, loc))
	select {
	case <-h.idle:
		t.Fatal("the scheduler woke with nothing due")
	default:
	}
	if got := h.s.Wakeups(); got != 10 {
		t.Fatalf("%d wake-ups, want still 10", got)
	}
}

func TestSchedulerChangesRearm(t *testing.T) {
	loc := time.UTC
	start := time.Date(2025, 6, 2, 10, 0, 0, 0, loc)
	h := newHarness(t, loc, start, task(t, 1, "daily 18:00", start, loc))
	if n := h.settle(); n.Hour() != 18 {
		t.Fatalf("waits for %s", n)
	}
	h.s.Set(task(t, 2, "daily 12:00", start, loc))
	if n := h.settle(); n.Hour() != 12 {
		t.Fatalf("after adding a 12:00 task it waits for %s", n)
	}
	off := task(t, 2, "daily 12:00", start, loc)
	off.Enabled = false
	h.s.Set(off)
	if n := h.settle(); n.Hour() != 18 {
		t.Fatalf("after switching it off it waits for %s", n)
	}
	h.s.Remove(1)
	if n := h.settle(); !n.IsZero() {
		t.Fatalf("with nothing on it waits for %s", n)
	}
}
