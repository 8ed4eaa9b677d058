//go:build unix

package sdk

import "syscall"

// openNonblock keeps open(2) from waiting on a pipe or device.
const openNonblock = syscall.O_NONBLOCK
