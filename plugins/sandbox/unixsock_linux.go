//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock does not govern connect(2) to a pathname Unix socket, so a
// confined program could still reach any local service by its socket file:
// Wrasse's own control socket, a Docker daemon, an SSH agent. A process
// whose policy sets NoUnixSockets therefore also gets a seccomp filter that
// refuses to create Unix sockets at all: socket(AF_UNIX, …) fails with
// EACCES, and io_uring_setup with ENOSYS, since io_uring opens sockets
// without the socket system call (libuv and others fall back to threads).
// socketpair(2) stays allowed: a connected pair reaches no other process.
// A system call made for another architecture (32-bit calls on a 64-bit
// kernel) ends the process, since its numbers are not the ones checked.

// Offsets in struct seccomp_data: the system call number, the audit
// architecture, then the arguments (the low word of the first one on
// these little-endian machines).
const (
	seccompNr   = 0
	seccompArch = 4
	seccompArg0 = 16
)

// UnixSocketsRefusable reports whether this system can refuse Unix
// sockets to a process (a kernel with seccomp filters on a supported
// architecture): what NoUnixSockets asks.
func UnixSocketsRefusable() bool {
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	return err == nil
}

// denyUnixSockets installs the filter on every thread of this process; it
// holds for everything the process executes, for the rest of its life.
func denyUnixSockets() error {
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
	}
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
		kill  = unix.SECCOMP_RET_KILL_PROCESS
	)
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	prog := []unix.SockFilter{
		stmt(ld, seccompArch),
		jump(jeq, auditArch, 1, 0),
		stmt(ret, kill),
		stmt(ld, seccompNr),
		// amd64's x32 calls carry this bit; arm64 has no such calls.
		jump(jge, x32Bit, 0, 1),
		stmt(ret, errno(unix.ENOSYS)),
		jump(jeq, unix.SYS_IO_URING_SETUP, 0, 1),
		stmt(ret, errno(unix.ENOSYS)),
		jump(jeq, unix.SYS_SOCKET, 0, 3),
		stmt(ld, seccompArg0),
		jump(jeq, unix.AF_UNIX, 0, 1),
		stmt(ret, errno(unix.EACCES)),
		stmt(ret, allow),
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("%w: no_new_privs: %v", ErrRestrict, err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("%w: seccomp filter refusing unix sockets: %v", ErrRestrict, errno)
	}
	return nil
}
