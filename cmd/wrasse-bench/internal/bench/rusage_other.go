//go:build !linux

package bench

import (
	"os"
	"time"
)

// maxRSSKB is not read on this OS (units differ between systems).
func maxRSSKB(*os.ProcessState) (int, bool) { return 0, false }

// cpuTime is not read on this OS.
func cpuTime() (time.Duration, bool) { return 0, false }
