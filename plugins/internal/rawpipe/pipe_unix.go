//go:build unix

package rawpipe

import (
	"os"
	"syscall"
)

// Pipe returns the read and write descriptors of a new pipe, both
// close-on-exec, made under syscall.ForkLock so no fork in between can
// inherit them.
func Pipe() (r, w int, err error) {
	var p [2]int
	syscall.ForkLock.RLock()
	err = syscall.Pipe(p[:])
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, -1, os.NewSyscallError("pipe", err)
	}
	return p[0], p[1], nil
}
