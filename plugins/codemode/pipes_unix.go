//go:build unix

package codemode

import (
	"os"
	"syscall"

	"github.com/wrasse-app/wrasse/plugins/internal/rawpipe"
)

// pollable puts an inherited pipe (exec hands them over blocking) in
// non-blocking mode, so that os.NewFile serves it through the runtime's
// poller: a goroutine waiting on it holds no thread.
func pollable(fd int) { _ = syscall.SetNonblock(fd, true) }

// blockingPipe is os.Pipe without the runtime's poller: neither end is
// ever registered with this process's epoll, whose registration would
// outlive the end handed to the child (it belongs to the pipe, open in
// the child) and wake a poller thread here at every message either way.
func blockingPipe() (r, w *os.File, err error) {
	rd, wr, err := rawpipe.Pipe()
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(rd), "|0"), os.NewFile(uintptr(wr), "|1"), nil
}
