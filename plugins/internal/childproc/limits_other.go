//go:build !linux

package childproc

// LimitMemory does nothing where address-space limits are not enforced
// (macOS ignores RLIMIT_AS) or not available (Windows).
func LimitMemory(room uint64) error { return nil }
