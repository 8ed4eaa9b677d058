//go:build !linux

package sandbox

// ABI is 0: Landlock exists only on Linux.
func ABI() int { return 0 }

// Restrict enforces nothing outside Linux; the Status says so.
func Restrict(p Policy) (Status, error) {
	return Status{NetworkAsked: !p.Network}, nil
}
