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
