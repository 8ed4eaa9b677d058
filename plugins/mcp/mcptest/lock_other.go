//go:build !unix

package mcptest

// lock is a no-op where flock is missing: there the tests install one
// package at a time at worst twice.
func lock(string) (unlock func(), err error) { return func() {}, nil }
