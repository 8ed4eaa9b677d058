//go:build !unix

package chat

import "time"

// processCPU is not read on this system.
func processCPU() (time.Duration, bool) { return 0, false }
