package sandbox

import "errors"

// Sentinel errors; test with errors.Is.
var (
	// ErrRestrict means Landlock is available but refused the rules; the
	// process was not confined, so the caller must not run the code it
	// meant to confine.
	ErrRestrict = errors.New("cannot set up the sandbox")
	// ErrBadPolicy means a policy passed across a re-exec could not be read.
	ErrBadPolicy = errors.New("invalid sandbox policy")
	// ErrUnsupported means the system cannot enforce part of a policy (no
	// way to refuse unix sockets here); the caller says so and goes on.
	ErrUnsupported = errors.New("not supported on this system")
	// ErrNoPrivateFolder means there is no folder out of every other
	// sandbox's reach to give a server its own temporary files (no home).
	ErrNoPrivateFolder = errors.New("no private folder")
	// errKindChanged means a path the rules saw as a folder is now a file,
	// or the other way round: it gets no rule.
	errKindChanged = errors.New("the path changed kind since the rules were made")
	// errNotRegular means a file the launcher reads (git settings, a .git
	// file) is not a regular file: a FIFO or a device is never read.
	errNotRegular = errors.New("not a regular file")
	// ErrUsage means the sandbox re-exec was started with a wrong command line.
	ErrUsage = errors.New("usage: wrasse __sandbox-exec POLICY-JSON -- PROGRAM [ARG...]")
)
