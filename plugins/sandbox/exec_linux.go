package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// hasMountNS: Linux gives a process without privileges a mount namespace
// of its own (where the system allows it: mountNamespace).
const hasMountNS = true

// mountNamespace makes cmd start in a user and a mount namespace of its
// own, where the launcher (MountNamespace in Main) mounts over what
// Landlock cannot protect: a repository's .git/config and hooks, the shared
// /dev/shm, the modes of credential files. The user namespace maps the
// caller's own uid and gid to themselves, so files keep their owners; it
// is what lets a process without privileges own the mount namespace.
//
// The launcher is a multi-threaded Go program, which cannot unshare a user
// namespace itself: the clone does it, and hands the launcher
// CAP_SYS_ADMIN (to mount), CAP_SETPCAP (to empty the bounding set) and
// CAP_DAC_READ_SEARCH (to see into the person's folders whatever their
// modes) as ambient capabilities inside the namespace only.
// DropCapabilities gives them up before the program runs.
//
// Systems that refuse the clone (max_user_namespaces 0, a container's
// seccomp profile, unprivileged_userns_clone 0) are found by a probe: a
// clone with the same attributes whose program cannot run ("/", EACCES).
// It costs one clone per command, no state kept between commands. Then
// cmd starts as before and the launcher reports the gap.
func mountNamespace(cmd *exec.Cmd, p *Policy) {
	if p.NoMountNS {
		p.MountNSRefused = "switched off for this sandbox"
		return
	}
	if err := probeMountNS(); err != nil {
		// The person's limit of user namespaces used up is no system
		// that refuses them: a sandboxed command can use it up itself,
		// with namespaces it keeps alive, to have the next command run
		// without its mounts. That command does not start.
		if limitReached(err) {
			cmd.Err = fmt.Errorf("sandbox: no user namespace is left for the command (the limit, /proc/sys/user/max_user_namespaces, is used up: a program, perhaps an earlier sandboxed command, keeps many open; end it and try again): %w", err)
			return
		}
		// Out of processes or memory for the moment (which a command
		// can cause too) is no refusal either.
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.ENOMEM) {
			cmd.Err = fmt.Errorf("sandbox: the command's namespaces could not be made for now (too many processes or too little memory); try again: %w", err)
			return
		}
		p.MountNSRefused = err.Error()
		return
	}
	parent, err := mountNSID()
	if err != nil {
		p.MountNSRefused = err.Error()
		return
	}
	cmd.SysProcAttr = nsAttr(cmd.SysProcAttr)
	p.MountNS, p.ParentMountNS = true, parent
}

// probeMountNS is nil when a process started as Command starts commands
// gets its namespaces: the clone, the uid and gid maps and the ambient
// capabilities all happen before the program is executed, so a program
// that cannot run ("/") tells them apart (EACCES) from a refusal.
func probeMountNS() error {
	_, err := syscall.ForkExec("/", []string{"/"}, &syscall.ProcAttr{Sys: nsAttr(nil)})
	if err == nil || !errors.Is(err, syscall.EACCES) && !errors.Is(err, syscall.ENOENT) {
		return fmt.Errorf("the system refused a user namespace: %w", err)
	}
	return nil
}

// limitReached: the clone was refused (ENOSPC) while the system allows
// user namespaces (max_user_namespaces above 0): the limit is used up.
// A system that allows none (0) refuses with ENOSPC too.
func limitReached(err error) bool {
	if !errors.Is(err, syscall.ENOSPC) {
		return false
	}
	b, rerr := os.ReadFile("/proc/sys/user/max_user_namespaces")
	if rerr != nil {
		return false
	}
	n, perr := strconv.Atoi(strings.TrimSpace(string(b)))
	return perr == nil && n > 0
}

// ExpectCommand is Expect for a process Command or NamespaceCommand
// starts (a shell command, an MCP server, a plugin process): also whether it would get its mount namespace, by the
// probe Command makes. A policy such as AppArmor's that lets the clone
// through and refuses mounts inside is seen only when the launcher
// mounts; it reports the gap then.
func ExpectCommand(network bool) Status {
	st := Expect(network)
	st.MountNSAsked = true
	if err := probeMountNS(); err != nil {
		st.MountNSWhy = err.Error()
	} else {
		st.MountNS = true
	}
	return st
}

// nsAttr adds the namespaces to a (nil: new attributes), keeping what the
// caller set (Setsid, Setpgid, Pdeathsig).
func nsAttr(a *syscall.SysProcAttr) *syscall.SysProcAttr {
	if a == nil {
		a = &syscall.SysProcAttr{}
	}
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	uid, gid := os.Getuid(), os.Getgid()
	if a.UidMappings == nil {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	}
	if a.GidMappings == nil {
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
	// setgroups stays refused in the namespace; the process keeps its
	// supplementary groups, which show there as the overflow group.
	a.GidMappingsEnableSetgroups = false
	// CAP_DAC_READ_SEARCH: a command can take read and search away from
	// the person's folders in its grants (chmod 600 .git: chmod is outside
	// Landlock), and a launcher that could not look into them would leave
	// what lies there unprotected. It reaches only files whose owner and
	// group are mapped here, the person's own.
	a.AmbientCaps = append(a.AmbientCaps, unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_DAC_READ_SEARCH)
	return a
}

// mountNSID names this process's mount namespace (its nsfs device and
// inode).
func mountNSID() (string, error) {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/mnt", &st); err != nil {
		return "", fmt.Errorf("cannot tell this process's mount namespace: %w", err)
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino), nil
}
