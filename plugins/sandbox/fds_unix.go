//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
)

// openFDs are this process's descriptors above standard error, as the
// system lists them (/proc/self/fd on Linux, /dev/fd elsewhere).
func openFDs() ([]int, error) {
	dir := "/dev/fd"
	if runtime.GOOS == "linux" {
		dir = "/proc/self/fd"
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list open descriptors: %w", err)
	}
	var fds []int
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			fds = append(fds, fd)
		}
	}
	return fds, nil
}
