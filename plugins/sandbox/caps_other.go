//go:build !linux

package sandbox

// DropCapabilities is Linux's; other systems have no capability sets a
// sandboxed process could use to read other processes.
func DropCapabilities() error { return nil }
