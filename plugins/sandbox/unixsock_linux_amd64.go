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

// createCalls are the system calls that make a file with a mode, the
// argument holding their flags (-1: they always create) and the one
// holding the mode.
var createCalls = []createCall{{unix.SYS_OPEN, 1, 2}, {unix.SYS_OPENAT, 2, 3}, {unix.SYS_CREAT, -1, 1},
	{unix.SYS_MKDIR, -1, 1}, {unix.SYS_MKDIRAT, -1, 2}, {unix.SYS_MKNOD, -1, 1}, {unix.SYS_MKNODAT, -1, 2}}
