package sandbox

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
	"kernel.org/pub/linux/libs/security/libcap/psx"
)

// DropCapabilities gives up, on every thread of this process and for
// everything it executes, every capability it holds: the bounding set
// (so that executing a program as root grants none again), the ambient
// and inheritable sets, then the effective and permitted ones.
//
// Landlock keeps a confined process from other processes' /proc entries
// only as the kernel's ptrace-read check does, and that check lets a
// caller through when it holds every capability its target holds: a
// command run as root read /proc/PID/environ of Wrasse's MCP servers
// (their secrets) and of Wrasse itself. Without capabilities it reads
// only its own sandbox's processes, as any other user's command does; as
// root it also loses what the sandbox did not mean to grant (reading
// other users' files, changing owners, raw sockets).
//
// A process without capabilities (any user's but root's) has nothing to
// give up; it returns nil there.
func DropCapabilities() error {
	held, err := permittedCaps()
	if err != nil {
		return err
	}
	// The bounding set can be lowered only with CAP_SETPCAP; without it
	// nothing is held that executing a program could give back (no new
	// privileges, set by Restrict and Filter, stops setuid and file
	// capabilities).
	if held&(1<<unix.CAP_SETPCAP) != 0 {
		for c := uintptr(0); c < 64; c++ {
			if _, _, e := psx.Syscall3(unix.SYS_PRCTL, unix.PR_CAPBSET_DROP, c, 0); e != 0 {
				if e == unix.EINVAL { // past the kernel's last capability
					break
				}
				return fmt.Errorf("%w: drop capability %d from the bounding set: %v", ErrRestrict, c, e)
			}
		}
	}
	// Kernels before 4.3 have no ambient set (EINVAL): nothing to clear.
	if _, _, e := psx.Syscall6(unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0, 0); e != 0 && e != unix.EINVAL {
		return fmt.Errorf("%w: clear the ambient capabilities: %v", ErrRestrict, e)
	}
	if held == 0 {
		return nil
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if _, _, e := psx.Syscall3(unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&none[0])), 0); e != 0 {
		return fmt.Errorf("%w: give up capabilities: %v", ErrRestrict, e)
	}
	left, err := permittedCaps()
	if err != nil {
		return err
	}
	if left != 0 {
		return fmt.Errorf("%w: capabilities %#x are still held after giving them up", ErrRestrict, left)
	}
	return nil
}

// permittedCaps is the calling thread's permitted set, with its
// inheritable set (which executing a program as root adds back).
func permittedCaps() (uint64, error) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return 0, fmt.Errorf("%w: read this process's capabilities: %v", ErrRestrict, err)
	}
	return uint64(data[0].Permitted|data[0].Inheritable) | uint64(data[1].Permitted|data[1].Inheritable)<<32, nil
}
