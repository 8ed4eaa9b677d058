package bench

import (
	"os"
	"syscall"
	"time"
)

// maxRSSKB returns the peak resident set of an exited child in KiB.
func maxRSSKB(ps *os.ProcessState) (int, bool) {
	if ps == nil {
		return 0, false
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return int(ru.Maxrss), true // KiB on Linux
}

// cpuTime returns the user + system CPU time this process has used.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
