package sandbox

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_AARCH64
	// x32Bit is above every arm64 system call number: nothing matches it.
	x32Bit = 0x40000000
)

// chmodCalls are the system calls that set a file's mode, and the
// argument holding it (arm64 has no chmod(2)).
var chmodCalls = []syscallArg{{unix.SYS_FCHMOD, 1}, {unix.SYS_FCHMODAT, 2}, {unix.SYS_FCHMODAT2, 2}}

// createCalls are the system calls that make a file with a mode, the
// argument holding their flags (-1: they always create) and the one
// holding the mode.
var createCalls = []createCall{{unix.SYS_OPENAT, 2, 3}, {unix.SYS_MKDIRAT, -1, 2}, {unix.SYS_MKNODAT, -1, 2}}
