package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// CloseInherited marks every descriptor above standard error
// close-on-exec, so that what this process was given open (a desktop
// launcher's or terminal's leaked descriptors, a library's) reaches no
// program it executes: Landlock does not govern a descriptor already open.
// Descriptors stay usable in this process.
func CloseInherited() error {
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err == nil {
		return nil
	}
	// Before Linux 5.11: one by one.
	return cloexecEach()
}

// cloexecEach marks each descriptor /proc/self/fd lists above 2.
func cloexecEach() error {
	fds, err := openFDs()
	if err != nil {
		return err
	}
	for _, fd := range fds {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && err != unix.EBADF {
			return fmt.Errorf("mark descriptor %d close-on-exec: %w", fd, err)
		}
	}
	return nil
}
