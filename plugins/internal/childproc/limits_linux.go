package childproc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// LimitMemory caps this process's address space at what it has reserved
// now plus room, so a plugin that allocates without end fails fast with
// "out of memory" instead of pushing the machine into swap. The Go
// runtime (and the race detector) reserve address space up front, so the
// cap is relative to that rather than absolute.
func LimitMemory(room uint64) error {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return err
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return fmt.Errorf("unexpected /proc/self/statm: %q", data)
	}
	pages, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return fmt.Errorf("unexpected /proc/self/statm: %w", err)
	}
	limit := pages*uint64(os.Getpagesize()) + room
	var cur syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &cur); err == nil && cur.Max < limit {
		limit = cur.Max
	}
	return syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit})
}
