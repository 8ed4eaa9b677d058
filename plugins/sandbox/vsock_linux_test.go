package sandbox_test

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// With the network off, the seccomp filter refuses SCTP, MPTCP and TCP
// fast open (what Landlock's TCP rules miss) but lets every other socket
// family through. AF_VSOCK reaches the hypervisor host and other guests'
// services (CID 2 is the host) on any virtual machine with a vsock device
// (cloud VMs, Firecracker, WSL 2, Kata), with no connect(2) Landlock
// checks: here the host answers a sandboxed command's connect (a reset,
// not a refusal by this kernel). An allow-list of families (unix only
// where allowed, inet and inet6 with the network, netlink) would close
// this and the families yet to come.
func TestNoNetworkReachesNoHypervisorSocket(t *testing.T) {
	requireLandlock(t)
	fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Skipf("no vsock here: %v", err)
	}
	unix.Close(fd)
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 for the probe")
	}
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: false})
	probe := `/usr/bin/python3 -c 'import socket
s = socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM)
print("created")
s.settimeout(5)
try:
    s.connect((2, 1024)); print("connected")
except OSError as e:
    print("connect:", e.errno)
'`
	out, _ := run(t, p, probe)
	if strings.Contains(out, "created") {
		t.Errorf("a sandboxed shell command with the network off opened an AF_VSOCK socket (%s); want every socket family but those allowed refused (EACCES) without the network", strings.TrimSpace(out))
	}
}
