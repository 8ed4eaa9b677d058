package provider

import "time"

// Clock is the time source of the providers' timeouts: SystemClock in
// use, a fake in tests (providertest.Clock) so a test steps time instead
// of waiting for it.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed, unless
	// the Timer is stopped first.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc.
type Timer interface {
	// Stop cancels the call; false when it already ran or was stopped.
	Stop() bool
	// Reset makes the call happen d from now (again).
	Reset(d time.Duration) bool
}

// SystemClock returns the real clock.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
