//go:build !linux || !(amd64 || arm64)

package sandbox

import "fmt"

// UnixSocketsRefusable is false: this build offers no way to refuse Unix
// sockets to a process.
func UnixSocketsRefusable() bool { return false }

// Filter cannot install a system call filter here: what Policy asks beyond
// files and TCP (NoUnixSockets, NoListen, TCP fast open and terminal
// injection refused) is not enforced, and the caller says so.
func Filter(Policy) error {
	return fmt.Errorf("%w: this system cannot filter a process's system calls (unix sockets, TCP fast open, terminal input)", ErrUnsupported)
}

// Confine is Restrict: this system has no system call filter, and what
// Filter would refuse is not refused.
func Confine(p Policy) (Status, error) { return Restrict(p) }
