//go:build !unix

package sdk

// openNonblock: elsewhere opening a pipe by name does not wait for a writer.
const openNonblock = 0
