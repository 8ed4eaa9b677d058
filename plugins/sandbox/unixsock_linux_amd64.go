package sandbox

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_X86_64
	// x32Bit marks the x32 system calls (__X32_SYSCALL_BIT).
	x32Bit = 0x40000000
)

// chmodCalls are the system calls that set a file's mode, and the
// argument holding it.
var chmodCalls = []syscallArg{{unix.SYS_CHMOD, 1}, {unix.SYS_FCHMOD, 1}, {unix.SYS_FCHMODAT, 2}, {unix.SYS_FCHMODAT2, 2}}
