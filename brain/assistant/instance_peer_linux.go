package assistant

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// peerOf asks the kernel which process is at the other end of conn
// (SO_PEERCRED: its pid and user at connect time) and describes it from
// /proc.
func peerOf(conn net.Conn) (Peer, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return Peer{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return Peer{}, err
	}
	if credErr != nil {
		return Peer{}, fmt.Errorf("SO_PEERCRED: %w", credErr)
	}
	p := describeProcess(int(cred.Pid))
	p.UID = int(cred.Uid)
	if p.Parent == nil {
		return p, nil
	}
	parent := describeProcess(p.Parent.PID)
	parent.Parent = nil
	p.Parent = &parent
	return p, nil
}

// describeProcess reads what /proc shows of pid: name, parent, executable
// and command line (the last two only for processes one may inspect).
func describeProcess(pid int) Peer {
	p := Peer{Known: true, PID: pid}
	dir := "/proc/" + strconv.Itoa(pid)
	if name, ppid, ok := procStat(pid); ok {
		p.Name = name
		if ppid > 0 {
			p.Parent = &Peer{Known: true, PID: ppid}
		}
	}
	if exe, err := os.Readlink(dir + "/exe"); err == nil {
		p.Exe = exe
	}
	if b, err := os.ReadFile(dir + "/cmdline"); err == nil {
		if s := strings.TrimRight(string(b), "\x00"); s != "" {
			p.Args = strings.Split(s, "\x00")
		}
	}
	return p
}

// procStat reads the name and parent of pid from /proc/PID/stat, whose
// second field, the name in parentheses, may itself hold spaces and
// parentheses.
func procStat(pid int) (name string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	return parseStat(string(b))
}

func parseStat(s string) (name string, ppid int, ok bool) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", 0, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 2 {
		return "", 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return "", 0, false
	}
	return s[open+1 : end], ppid, true
}

// startedBy reports whether process pid descends from process self
// (started by it, or by a process it started, …), with the chain from pid
// up to self's child for a person. pid == self is not: a connection from
// inside the serving process is the process itself.
func startedBy(self, pid int) ([]string, bool) {
	var chain []string
	cur := pid
	for range maxAncestry {
		if cur <= 1 || cur == self {
			break
		}
		name, ppid, ok := procStat(cur)
		if !ok {
			return nil, false
		}
		chain = append(chain, fmt.Sprintf("%s (pid %d)", name, cur))
		if ppid == self {
			return chain, true
		}
		cur = ppid
	}
	return nil, false
}
