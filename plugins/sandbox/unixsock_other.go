//go:build !linux || !(amd64 || arm64)

package sandbox

import "fmt"

// UnixSocketsRefusable is false: this build offers no way to refuse Unix
// sockets to a process.
func UnixSocketsRefusable() bool { return false }

func denyUnixSockets() error {
	return fmt.Errorf("%w: this system cannot refuse unix sockets to a process", ErrUnsupported)
}
