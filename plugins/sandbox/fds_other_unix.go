//go:build unix && !linux

package sandbox

import (
	"errors"
	"fmt"
	"syscall"
)

// CloseInherited marks every descriptor above standard error
// close-on-exec, so that what this process was given open reaches no
// program it executes. Descriptors stay usable in this process.
func CloseInherited() error {
	fds, err := openFDs()
	if err != nil {
		return err
	}
	for _, fd := range fds {
		if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFD, syscall.FD_CLOEXEC); e != 0 && !errors.Is(e, syscall.EBADF) {
			return fmt.Errorf("mark descriptor %d close-on-exec: %w", fd, e)
		}
	}
	return nil
}
