package tasks

import (
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// fdTimer is a timerfd armed at an absolute CLOCK_REALTIME time. Reading
// it blocks (in Go's poller, no thread) until it fires, or fails with
// ECANCELED when the wall clock is set: both wake the scheduler.
type fdTimer struct {
	f       *os.File
	c       chan struct{}
	stopped atomic.Bool
}

func systemTimer(t time.Time) Timer {
	fd, err := unix.TimerfdCreate(unix.CLOCK_REALTIME, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return newGoTimer(t)
	}
	// A zero value disarms a timerfd: a time at or before the epoch is
	// "now" for the scheduler anyway.
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(max(t.UnixNano(), 1))}
	if err := unix.TimerfdSettime(fd, unix.TFD_TIMER_ABSTIME|unix.TFD_TIMER_CANCEL_ON_SET, &spec, nil); err != nil {
		unix.Close(fd)
		return newGoTimer(t)
	}
	ft := &fdTimer{f: os.NewFile(uintptr(fd), "timerfd"), c: make(chan struct{}, 1)}
	go ft.wait()
	return ft
}

func (t *fdTimer) wait() {
	var buf [8]byte
	_, _ = t.f.Read(buf[:])
	if t.stopped.Load() {
		return
	}
	select {
	case t.c <- struct{}{}:
	default:
	}
}

func (t *fdTimer) C() <-chan struct{} { return t.c }

func (t *fdTimer) Stop() {
	if t.stopped.CompareAndSwap(false, true) {
		t.f.Close()
	}
}
