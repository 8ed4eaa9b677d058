package sandbox

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_AARCH64
	// x32Bit is above every arm64 system call number: nothing matches it.
	x32Bit = 0x40000000
)
