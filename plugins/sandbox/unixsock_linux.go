//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock governs files and TCP connect and bind, not every system call
// that reaches beyond the sandbox, so every confined process also gets a
// seccomp filter (Filter) for what Landlock leaves open:
//
//   - always: ioctl TIOCSTI and TIOCLINUX fail with EPERM. TIOCSTI pushes
//     bytes into a terminal's input, which the person's shell then runs
//     outside any sandbox. Sandboxed processes start in a session of their
//     own (no controlling terminal), and this holds even for a terminal
//     they would get hold of otherwise (an inherited descriptor, root).
//   - always: setxattr and its variants fail with EOPNOTSUPP (an ACL is
//     a chmod by other means); chmod, fchmod, fchmodat and fchmodat2 fail with EPERM when
//     the mode sets set-user-ID, set-group-ID or write for the group or
//     others. Landlock governs no chmod, and a process may change the
//     mode of any file its user owns, wherever it lies (as root, every
//     system file), even one it may not open: g+w on ~/.bashrc hands it
//     to every member of a shared group (openSUSE's "users"). chmod +x,
//     755 and 644 keep working; 775 and 664 do not.
//   - always: the kernel's keyrings (add_key, request_key, keyctl) and
//     System V IPC (shm*, msg*, sem*) fail with ENOSYS, as on a kernel
//     without them. Landlock governs neither: every process of the user
//     reaches the user keyring (Kerberos tickets on Fedora and RHEL, keys
//     cached by sssd and systemd-ask-password) and the user's shared
//     memory segments (X11 programs' window contents, MIT-SHM).
//   - always: socket(2) accepts only AF_UNIX (unless NoUnixSockets),
//     AF_INET, AF_INET6 and AF_NETLINK; any other family fails with
//     EAFNOSUPPORT (AF_VSOCK reaches the hypervisor host, AF_PACKET the
//     wire, with nothing Landlock checks), and io_uring_setup with ENOSYS,
//     since io_uring creates sockets without socket(2).
//   - NoUnixSockets: socket(AF_UNIX, …) fails with EACCES, and so does a
//     datagram socketpair(AF_UNIX, SOCK_DGRAM or SOCK_RAW), whose ends send
//     to any socket address with sendto(2) or connect(2) elsewhere. Landlock
//     does not govern connect(2) to a pathname Unix socket, so a confined
//     program could otherwise reach any local service by its socket file:
//     Wrasse's own control socket, a Docker daemon, an SSH agent, syslog.
//     A stream or seqpacket pair stays allowed: connected to each other,
//     its ends reach no other process.
//   - no Network: TCP fast open fails with EACCES (sendto, sendmsg and
//     sendmmsg with MSG_FASTOPEN, setsockopt TCP_FASTOPEN_CONNECT), since
//     it opens a connection without connect(2), which is what Landlock
//     checks; and so do SCTP and MPTCP sockets, which Landlock's TCP rules
//     do not cover.
//   - NoListen: listen(2) fails with EACCES: a plugin held to a list of
//     hosts serves nobody.
//
// A system call made for another architecture (32-bit calls on a 64-bit
// kernel) ends the process, since its numbers are not the ones checked:
// 32-bit programs do not run in the sandbox.

// Offsets in struct seccomp_data: the system call number, the audit
// architecture, then the arguments, 8 bytes each (the low word first on
// these little-endian machines; the calls checked take ints, so the
// kernel reads only that word).
const (
	seccompNr   = 0
	seccompArch = 4
	seccompArgs = 16
)

// UnixSocketsRefusable reports whether this system can refuse Unix
// sockets to a process (a kernel with seccomp filters on a supported
// architecture): what NoUnixSockets asks.
func UnixSocketsRefusable() bool {
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	return err == nil
}

// BPF instructions of the filter.
const (
	bpfLd   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfJset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	bpfAnd  = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	bpfRet  = unix.BPF_RET | unix.BPF_K
)

func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func jump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

func loadArg(i int) unix.SockFilter { return stmt(bpfLd, uint32(seccompArgs+8*i)) }

// loadArgHigh loads the upper half of argument i (both arches are
// little-endian).
func loadArgHigh(i int) unix.SockFilter { return stmt(bpfLd, uint32(seccompArgs+8*i+4)) }

var (
	retAllow = stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
	retKill  = stmt(bpfRet, unix.SECCOMP_RET_KILL_PROCESS)
)

func retErrno(e unix.Errno) unix.SockFilter {
	return stmt(bpfRet, unix.SECCOMP_RET_ERRNO|uint32(e))
}

// refuseIf returns errno e when the accumulator is k, else goes on.
func refuseIf(k uint32, e unix.Errno) []unix.SockFilter {
	return []unix.SockFilter{jump(bpfJeq, k, 0, 1), retErrno(e)}
}

// onCall runs body (which ends in a return) for system call nr and skips
// it for any other; the accumulator holds the call's number.
func onCall(nr uint32, body ...unix.SockFilter) []unix.SockFilter {
	return append([]unix.SockFilter{jump(bpfJeq, nr, 0, uint8(len(body)))}, body...)
}

// chmodRefused are the mode bits chmod may not set: set-user-ID,
// set-group-ID and write for the group or others.
const chmodRefused = unix.S_ISUID | unix.S_ISGID | 0o020 | 0o002

// createRefused are the mode bits a new file may not be made with:
// set-user-ID and set-group-ID, as chmod may not set them. Write for the
// group and others is kept off by the starting umask instead
// (startUmask), since every program asks for 0666 and lets the umask
// decide.
const createRefused = unix.S_ISUID | unix.S_ISGID

// startUmask are the bits every sandbox's umask holds when it starts, so
// what it creates is not writable to the group or others unless the
// program itself loosens its umask. The filter does not refuse that: a
// plain filter cannot answer umask() with the real mask, and npm and pip
// read the mask with umask(0) then umask(old) and chmod by what they read
// (a faked 0 made them ask for 0777, which the chmod rule refuses).
const startUmask = 0o022

// createCall is a system call that makes a file: its number, the argument
// holding its flags (-1 when it always creates) and the one holding the
// mode.
type createCall struct {
	nr          uint32
	flags, mode int
}

// createsFile are the open flags that make open use its mode argument:
// O_CREAT, and O_TMPFILE's own bit (O_TMPFILE includes O_DIRECTORY, which
// alone creates nothing).
const createsFile = unix.O_CREAT | (unix.O_TMPFILE &^ unix.O_DIRECTORY)

// absentCalls fail with ENOSYS in every sandbox: the kernel's keyrings
// and System V IPC, which reach the person's keys and shared memory past
// Landlock (see above).
var absentCalls = []uint32{unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY, unix.SYS_KEYCTL,
	unix.SYS_SHMGET, unix.SYS_SHMAT, unix.SYS_SHMCTL, unix.SYS_SHMDT,
	unix.SYS_MSGGET, unix.SYS_MSGSND, unix.SYS_MSGRCV, unix.SYS_MSGCTL,
	unix.SYS_SEMGET, unix.SYS_SEMOP, unix.SYS_SEMTIMEDOP, unix.SYS_SEMCTL}

// syscallArg is a system call and the argument the filter checks.
type syscallArg struct {
	nr  uint32
	arg int
}

// filterProgram is the seccomp filter p asks for (see above).
func filterProgram(p Policy) []unix.SockFilter {
	prog := []unix.SockFilter{
		stmt(bpfLd, seccompArch),
		jump(bpfJeq, auditArch, 1, 0),
		retKill,
		stmt(bpfLd, seccompNr),
		// amd64's x32 calls carry this bit; arm64 has no such calls.
		jump(bpfJge, x32Bit, 0, 1),
		retErrno(unix.ENOSYS),
	}
	ioctl := []unix.SockFilter{loadArg(1)}
	ioctl = append(ioctl, refuseIf(unix.TIOCSTI, unix.EPERM)...)
	ioctl = append(ioctl, refuseIf(unix.TIOCLINUX, unix.EPERM)...)
	prog = append(prog, onCall(unix.SYS_IOCTL, append(ioctl, retAllow)...)...)

	for _, c := range chmodCalls {
		prog = append(prog, onCall(c.nr,
			loadArg(c.arg),
			jump(bpfJset, chmodRefused, 0, 1),
			retErrno(unix.EPERM),
			retAllow)...)
	}

	// The same bits at creation: open, creat, mkdir and mknod with a
	// set-ID mode are refused; open reads its mode only when it creates.
	for _, c := range createCalls {
		body := []unix.SockFilter{loadArg(c.mode), jump(bpfJset, createRefused, 0, 1), retErrno(unix.EPERM), retAllow}
		if c.flags >= 0 {
			body = append([]unix.SockFilter{loadArg(c.flags), jump(bpfJset, createsFile, 0, uint8(len(body)))}, body...)
			body = append(body, retAllow)
		}
		prog = append(prog, onCall(c.nr, body...)...)
	}
	// openat2 carries its flags and mode in a structure seccomp cannot
	// read: ENOSYS, as on kernels before 5.6, and programs fall back to
	// openat.
	prog = append(prog, onCall(unix.SYS_OPENAT2, retErrno(unix.ENOSYS))...)
	// Extended attributes as on a file system without them: an ACL
	// (system.posix_acl_access) opens a file to others as chmod would,
	// past the mode check above, and Landlock does not govern xattr calls.
	// EOPNOTSUPP, not EPERM: cp -a, tar and rsync then go on without them.
	for _, nr := range []uint32{unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT} {
		prog = append(prog, onCall(nr, retErrno(unix.EOPNOTSUPP))...)
	}

	// Another process's resource limits may be read, not set: Landlock and
	// signals' scope do not govern prlimit, which checks the user only, so
	// a command could starve what Wrasse starts beside it (the git
	// watcher: an address-space limit of one byte killed it as it started).
	// setrlimit and ulimit name the calling process (pid 0).
	prog = append(prog, onCall(unix.SYS_PRLIMIT64,
		loadArg(0),
		jump(bpfJeq, 0, 4, 0), // pid 0: this process
		loadArg(2),
		jump(bpfJeq, 0, 0, 3), // a new limit given: refuse
		loadArgHigh(2),
		jump(bpfJeq, 0, 0, 1),
		retAllow,
		retErrno(unix.EPERM))...)

	for _, nr := range absentCalls {
		prog = append(prog, onCall(nr, retErrno(unix.ENOSYS))...)
	}

	// io_uring creates sockets without socket(2) (IORING_OP_SOCKET), past
	// the family allow-list below.
	prog = append(prog, onCall(unix.SYS_IO_URING_SETUP, retErrno(unix.ENOSYS))...)
	// Without the network, the protocols Landlock's TCP rules miss.
	var proto []unix.SockFilter
	if !p.Network {
		proto = append(proto, loadArg(2))
		proto = append(proto, refuseIf(unix.IPPROTO_SCTP, unix.EACCES)...)
		proto = append(proto, refuseIf(unix.IPPROTO_MPTCP, unix.EACCES)...)
	}
	// The family allow-list: what is not jumped to proto falls through to
	// EAFNOSUPPORT (vsock reaches the hypervisor, packet sockets the wire…).
	sock := []unix.SockFilter{loadArg(0)}
	if p.NoUnixSockets {
		sock = append(sock, refuseIf(unix.AF_UNIX, unix.EACCES)...)
	} else {
		sock = append(sock, jump(bpfJeq, unix.AF_UNIX, 3, 0))
	}
	sock = append(sock,
		jump(bpfJeq, unix.AF_INET, 2, 0),
		jump(bpfJeq, unix.AF_INET6, 1, 0),
		jump(bpfJeq, unix.AF_NETLINK, 0, uint8(len(proto)+1)))
	sock = append(append(sock, proto...), retAllow, retErrno(unix.EAFNOSUPPORT))
	prog = append(prog, onCall(unix.SYS_SOCKET, sock...)...)
	if p.NoUnixSockets {
		prog = append(prog, onCall(unix.SYS_SOCKETPAIR,
			loadArg(0),
			jump(bpfJeq, unix.AF_UNIX, 0, 5),
			loadArg(1),
			stmt(bpfAnd, 0xf), // the type without SOCK_NONBLOCK and SOCK_CLOEXEC
			jump(bpfJeq, unix.SOCK_STREAM, 2, 0),
			jump(bpfJeq, unix.SOCK_SEQPACKET, 1, 0),
			retErrno(unix.EACCES),
			retAllow)...)
	}
	if !p.Network {
		// The flags are sendto's and sendmmsg's fourth argument, sendmsg's third.
		for _, c := range []struct {
			nr  uint32
			arg int
		}{{unix.SYS_SENDTO, 3}, {unix.SYS_SENDMSG, 2}, {unix.SYS_SENDMMSG, 3}} {
			prog = append(prog, onCall(c.nr,
				loadArg(c.arg),
				jump(bpfJset, unix.MSG_FASTOPEN, 0, 1),
				retErrno(unix.EACCES),
				retAllow)...)
		}
		prog = append(prog, onCall(unix.SYS_SETSOCKOPT,
			loadArg(1),
			jump(bpfJeq, unix.IPPROTO_TCP, 0, 3),
			loadArg(2),
			jump(bpfJeq, unix.TCP_FASTOPEN_CONNECT, 0, 1),
			retErrno(unix.EACCES),
			retAllow)...)
	}
	if p.NoListen {
		prog = append(prog, onCall(unix.SYS_LISTEN, retErrno(unix.EACCES))...)
	}
	return append(prog, retAllow)
}

// Filter installs on every thread of this process the seccomp filter p
// asks for; it holds for everything the process executes, for the rest of
// its life. Call it after Restrict, before running what is confined.
func Filter(p Policy) error {
	prog := filterProgram(p)
	// Start with a umask at least as strict as startUmask.
	unix.Umask(unix.Umask(0) | startUmask)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("%w: no_new_privs: %v", ErrRestrict, err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("%w: seccomp filter: %v", ErrRestrict, errno)
	}
	return nil
}

// Confine restricts the calling process to p as far as the system can
// (Restrict), gives up its capabilities (DropCapabilities), then installs
// the system call filter p asks for (Filter): what a process that confines
// itself (a plugin or run_go process) calls instead of Restrict alone.
func Confine(p Policy) (Status, error) {
	st, err := Restrict(p)
	if err != nil {
		return st, err
	}
	if err := DropCapabilities(); err != nil {
		return st, err
	}
	return st, Filter(p)
}
