package sandbox_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// filterHelperEnv makes this test binary, run in the sandbox, try the
// system calls the seccomp filter governs and report each result; its fd
// 3 is a pseudo-terminal and filterPortEnv a listening TCP port.
const (
	filterHelperEnv = "WRASSE_SANDBOX_FILTER_HELPER"
	filterPortEnv   = "WRASSE_SANDBOX_FILTER_PORT"
)

func TestFilterHelper(t *testing.T) {
	if os.Getenv(filterHelperEnv) != "1" {
		t.Skip("runs only as the helper of TestFilter")
	}
	port, _ := strconv.Atoi(os.Getenv(filterPortEnv))
	report := func(what string, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
		} else {
			fmt.Printf("%s: ok\n", what)
		}
	}
	b := byte('x')
	_, _, e := unix.Syscall(unix.SYS_IOCTL, 3, unix.TIOCSTI, uintptr(unsafe.Pointer(&b)))
	report("tiocsti", errnoErr(e))
	for _, typ := range []struct {
		name string
		t    int
	}{{"stream", unix.SOCK_STREAM}, {"seqpacket", unix.SOCK_SEQPACKET}, {"dgram", unix.SOCK_DGRAM}, {"raw", unix.SOCK_RAW},
		{"dgram cloexec", unix.SOCK_DGRAM | unix.SOCK_CLOEXEC}} {
		fds, err := unix.Socketpair(unix.AF_UNIX, typ.t, 0)
		if err == nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
		}
		report("socketpair "+typ.name, err)
	}
	to := &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		report("socket", err)
		return
	}
	report("fast open sendto", unix.Sendto(fd, []byte("x"), unix.MSG_FASTOPEN, to))
	unix.Close(fd)
	fd, _ = unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	_, err = unix.SendmsgN(fd, []byte("x"), nil, to, unix.MSG_FASTOPEN)
	report("fast open sendmsg", err)
	unix.Close(fd)
	fd, _ = unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	report("fast open connect option", unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_FASTOPEN_CONNECT, 1))
	report("nodelay option", unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1))
	unix.Close(fd)
	fd, _ = unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	err = unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}})
	if err == nil {
		err = unix.Listen(fd, 1)
	}
	report("listen", err)
	unix.Close(fd)
	fd, err = unix.Socket(unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_MPTCP)
	if err == nil {
		unix.Close(fd)
	}
	report("mptcp socket", err)
}

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// The seccomp filter every sandboxed process gets: no terminal input
// injection ever; no datagram socket pairs without unix sockets; no TCP
// fast open (nor MPTCP) without the network; no listening with NoListen.
// What the policy leaves allowed still works.
func TestFilter(t *testing.T) {
	requireLandlock(t)
	if !sandbox.UnixSocketsRefusable() {
		t.Fatal("this kernel has no seccomp filters")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	const denied, refused = "permission denied", "operation not permitted"
	cases := []struct {
		name string
		p    sandbox.Policy
		want map[string]string // report → result ("ok" or the error)
	}{
		{"a command with the network", sandbox.Policy{Exec: []string{"/"}, Network: true}, map[string]string{
			"tiocsti": refused, "socketpair dgram": "ok", "fast open sendto": "ok", "fast open connect option": "ok",
			"listen": "ok"}},
		{"a command without the network", sandbox.Policy{Exec: []string{"/"}}, map[string]string{
			"tiocsti": refused, "socketpair dgram": "ok", "fast open sendto": denied, "fast open sendmsg": denied,
			"fast open connect option": denied, "nodelay option": "ok", "mptcp socket": denied}},
		{"an MCP server", sandbox.Policy{Exec: []string{"/"}, Network: true, NoUnixSockets: true}, map[string]string{
			"tiocsti": refused, "socketpair stream": "ok", "socketpair seqpacket": "ok", "socketpair dgram": denied,
			"socketpair raw": denied, "socketpair dgram cloexec": denied, "fast open sendto": "ok"}},
		{"a plugin held to its hosts", sandbox.Policy{Exec: []string{"/"}, Network: true, NoListen: true}, map[string]string{
			"tiocsti": refused, "listen": denied, "fast open sendto": "ok"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pts := openPTS(t)
			// The launcher's own marker must not make the helper a launcher too.
			cmd := exec.Command("/bin/sh", "-c", "unset "+launcherEnv+"; exec \"$0\" -test.run='^TestFilterHelper$' -test.v", exe)
			if err := sandbox.Command(cmd, []string{exe}, tc.p); err != nil {
				t.Fatal(err)
			}
			cmd.Env = append(os.Environ(), launcherEnv+"=1", filterHelperEnv+"=1", filterPortEnv+"="+port)
			cmd.ExtraFiles = []*os.File{pts}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("helper: %v\n%s", err, out.String())
			}
			for what, result := range tc.want {
				if !strings.Contains(out.String(), what+": "+result+"\n") {
					t.Errorf("%s: want %q:\n%s", what, result, out.String())
				}
			}
		})
	}
}

// openPTS opens a pseudo-terminal's secondary end, not as a controlling
// terminal.
func openPTS(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pts.Close() })
	return pts
}
