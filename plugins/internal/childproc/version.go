package childproc

import "fmt"

// Version is the version of the protocols between Wrasse and its child
// processes (a plugin's and a code mode program's), sent in the parent's
// first message (load, run) and checked by the child before it does
// anything else. Both sides are the same executable, so a mismatch means
// the executable on disk was replaced under the running app. Bump it with
// every incompatible change to either protocol or to the framing.
//
//	4: the load no longer carries maxResultBytes nor the tools' outputSchema.
//	5: one child-process package for both protocols; code mode's run carries
//	   the version too; lines are written without HTML escapes.
const Version = 5

// CheckVersion refuses a parent speaking another version than Version,
// saying what to do; the error wraps ErrVersion.
func CheckVersion(got int) error {
	if got == Version {
		return nil
	}
	return fmt.Errorf("%w: this child process speaks protocol version %d and Wrasse sent version %d: the wrasse executable on disk differs from the running app; restart Wrasse",
		ErrVersion, Version, got)
}

// MemoryRoom is how much a child process's address space may grow once
// the code it runs (a plugin, a program) is about to start (LimitMemory).
const MemoryRoom = 2 << 30
