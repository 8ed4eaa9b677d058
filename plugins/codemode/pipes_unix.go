//go:build unix

package codemode

import "syscall"

// pollable puts an inherited pipe in non-blocking mode, so that os.NewFile
// serves it through the runtime's poller: a goroutine waiting for the
// parent's reply then wakes without a thread handed off in a blocking read.
func pollable(fd int) { _ = syscall.SetNonblock(fd, true) }
