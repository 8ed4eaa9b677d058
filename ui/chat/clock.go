package chat

import "time"

// sidebarTick is how often the sidebar's relative times ("3 min ago") are
// redrawn while nothing else redraws them: they count in minutes.
const sidebarTick = time.Minute

// clock is the time the sidebar reads and its coarse tick; tests drive a
// fake one instead of sleeping.
type clock interface {
	Now() time.Time
	// Every calls fn on a goroutine of its own every d until stop is
	// called (fn hands its work to the UI goroutine).
	Every(d time.Duration, fn func()) (stop func())
}

// wallClock is the real time.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) Every(d time.Duration, fn func()) func() {
	t := time.NewTicker(d)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-t.C:
				fn()
			case <-done:
				return
			}
		}
	}()
	return func() {
		t.Stop()
		close(done)
	}
}
