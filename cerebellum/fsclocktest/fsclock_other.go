//go:build !linux

package fsclocktest

import "testing"

// WaitChangeTick does nothing: only Linux's stat gives the change time
// the manifest cache compares.
func WaitChangeTick(testing.TB, string) {}
