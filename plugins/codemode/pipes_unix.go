//go:build unix

package codemode

import (
	"os"
	"syscall"
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
	var p [2]int
	syscall.ForkLock.RLock() // no fork between the pipe and close-on-exec
	err = syscall.Pipe(p[:])
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, os.NewSyscallError("pipe", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
