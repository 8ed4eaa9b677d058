//go:build !linux

package plugins

// limitMemory does nothing where address-space limits are not enforced
// (macOS ignores RLIMIT_AS) or not available (Windows).
func limitMemory(room uint64) error { return nil }
