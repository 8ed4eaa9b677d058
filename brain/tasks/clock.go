package tasks

import "time"

// Clock is the scheduler's time: tests drive a fake one (taskstest) across
// midnight, a daylight-saving change or a long sleep without waiting.
type Clock interface {
	Now() time.Time
	// At returns a timer that fires once the wall clock reaches t: also
	// when the computer slept through t (it fires on waking), and early
	// when the wall clock is set, so the caller looks again.
	At(t time.Time) Timer
}

// Timer is one armed wake-up.
type Timer interface {
	// C receives once when the timer fires.
	C() <-chan struct{}
	// Stop disarms it; the channel then never receives.
	Stop()
}

// SystemClock is the computer's wall clock. On Linux its timers are
// timerfds on CLOCK_REALTIME set to the absolute due time, which the
// kernel fires on waking from a sleep that passed it (Go's own timers
// count only time awake); elsewhere they are Go timers woken at least
// every SleepCheck so a sleep is noticed soon after waking.
type SystemClock struct{}

// Now is time.Now.
func (SystemClock) Now() time.Time { return time.Now() }

// At arms a timer for t.
func (SystemClock) At(t time.Time) Timer { return systemTimer(t) }

// SleepCheck bounds a Go timer's wait where the system has no wall-clock
// timers: a computer that slept through a due time is noticed within it.
const SleepCheck = 5 * time.Minute

// goTimer is a Go timer for t, capped at SleepCheck.
type goTimer struct {
	t *time.Timer
	c chan struct{}
}

func newGoTimer(at time.Time) *goTimer {
	g := &goTimer{c: make(chan struct{}, 1)}
	g.t = time.AfterFunc(min(time.Until(at), SleepCheck), func() {
		select {
		case g.c <- struct{}{}:
		default:
		}
	})
	return g
}

func (g *goTimer) C() <-chan struct{} { return g.c }
func (g *goTimer) Stop()              { g.t.Stop() }
