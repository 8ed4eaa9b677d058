//go:build !linux

package childproc

import "os"

// fastFile returns f: raw system calls are used on Linux only.
func fastFile(f *os.File) FileIO { return f }

// WakeMonitor is needed only on Linux, where pipes are read and written
// with raw system calls (rawio_linux.go); here every read and write enters
// the scheduler's system-call path, which wakes the monitor.
func WakeMonitor() {}
