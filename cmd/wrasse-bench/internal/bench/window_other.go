//go:build !linux

package bench

// dropCached does nothing outside Linux, where the page cache's folio sizes
// were measured (see window_linux.go).
func dropCached(string) error { return nil }
