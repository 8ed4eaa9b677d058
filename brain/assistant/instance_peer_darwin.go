package assistant

import (
	"errors"
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerOf asks the kernel which user and process are at the other end of
// conn (LOCAL_PEERCRED, LOCAL_PEERPID) and names the process and its
// parent from the process table.
func peerOf(conn net.Conn) (Peer, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return Peer{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var cred *unix.Xucred
	var pid int
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if credErr == nil {
			pid, credErr = unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID)
		}
	}); err != nil {
		return Peer{}, err
	}
	if credErr != nil {
		return Peer{}, fmt.Errorf("LOCAL_PEERCRED: %w", credErr)
	}
	p := Peer{Known: true, PID: pid, UID: int(cred.Uid)}
	p.Name, p.Parent = procInfo(pid)
	if p.Parent != nil {
		p.Parent.Name, _ = procInfo(p.Parent.PID)
	}
	return p, nil
}

// procInfo is the name and parent of pid from the kernel's process table.
func procInfo(pid int) (string, *Peer) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return "", nil
	}
	name := unix.ByteSliceToString(kp.Proc.P_comm[:])
	if kp.Eproc.Ppid <= 0 {
		return name, nil
	}
	return name, &Peer{Known: true, PID: int(kp.Eproc.Ppid)}
}

// startedBy reports whether process pid descends from process self, with
// the chain for a person (see the Linux version).
func startedBy(self, pid int) ([]string, bool) {
	var chain []string
	cur := pid
	for range maxAncestry {
		if cur <= 1 || cur == self {
			break
		}
		name, parent := procInfo(cur)
		if parent == nil {
			return nil, false
		}
		chain = append(chain, fmt.Sprintf("%s (pid %d)", name, cur))
		if parent.PID == self {
			return chain, true
		}
		cur = parent.PID
	}
	return nil, false
}
