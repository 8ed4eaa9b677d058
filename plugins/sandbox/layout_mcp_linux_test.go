package sandbox_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestRuntimePrefix(t *testing.T) {
	base := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	node := mk("nvm/versions/node/v22/bin/node")
	shim := mk("pyenv/shims/python3")
	loose := mk("tools/server")
	link := filepath.Join(base, "link-to-node")
	if err := os.Symlink(node, link); err != nil {
		t.Fatal(err)
	}
	root := sandbox.Clean(base)
	cases := []struct{ program, want string }{
		{node, filepath.Join(root, "nvm/versions/node/v22")},
		{link, filepath.Join(root, "nvm/versions/node/v22")},
		{shim, filepath.Join(root, "pyenv")},
		{loose, filepath.Join(root, "tools")},
		{"node", ""},
		{filepath.Join(base, "missing"), ""},
	}
	for _, tc := range cases {
		if got := sandbox.RuntimePrefix(tc.program); got != tc.want {
			t.Errorf("RuntimePrefix(%q) = %q; want %q", tc.program, got, tc.want)
		}
	}
}

// ForMCP keeps the workspace's protected paths out even when the granted
// folder holds the workspace, and gives the runtime what it reads.
func TestForMCPLayout(t *testing.T) {
	f := newFixture(t)
	home := filepath.Dir(f.ws)
	p := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home,
		Program: "/bin/sh", Dir: filepath.Join(f.ws, "brain", "cerebellum", "x"), Temp: f.temp, Network: false})
	if !p.NoUnixSockets || p.Network {
		t.Fatalf("policy %+v: want no unix sockets and no network", p)
	}
	cases := []struct{ name, line string }{
		{"read the database", "cat " + f.ws + "/wrasse.db"},
		{"read config.json", "cat " + f.ws + "/config.json"},
		{"write into brain/cerebellum", "mkdir " + f.ws + "/brain/cerebellum/evil"},
		{"write its own folder", "echo x > " + f.ws + "/brain/cerebellum/x/SKILL.md"},
		{"read outside", "cat " + f.outside + "/o.txt"},
		{"read /etc/passwd", "cat /etc/passwd"},
	}
	for _, tc := range cases {
		if out, ok := run(t, p, tc.line); ok || strings.Contains(out, "SECRET-KEY") {
			t.Errorf("%s: `%s` succeeded: %s", tc.name, tc.line, out)
		}
	}
	for _, line := range []string{
		"cat " + f.ws + "/brain/cerebellum/x/SKILL.md",
		"cd " + f.ws + "/brain/cerebellum/x && ./run.sh",
		"echo x > " + f.granted + "/n && cat " + f.granted + "/n",
		"echo x > " + f.temp + "/t",
	} {
		if out, ok := run(t, p, line); !ok {
			t.Errorf("`%s` failed: %s", line, out)
		}
	}
}

// unixHelperEnv makes this test binary, run in the sandbox, try the
// system calls NoUnixSockets refuses and report what happened.
const unixHelperEnv = "WRASSE_SANDBOX_UNIX_HELPER"

func TestUnixSocketHelper(t *testing.T) {
	if os.Getenv(unixHelperEnv) != "1" {
		t.Skip("runs only as the helper of TestNoUnixSockets")
	}
	report := func(what string, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
		} else {
			fmt.Printf("%s: ok\n", what)
		}
	}
	_, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	report("unix socket", err)
	_, err = unix.Socket(unix.AF_UNIX|1<<32, unix.SOCK_STREAM, 0)
	report("unix socket with high bits", err)
	_, err = unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	report("inet socket", err)
	_, err = unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	report("socketpair", err)
	_, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, 0, 0)
	report("io_uring", errno)
}

// NoUnixSockets: the kernel refuses a confined process any unix socket
// (so the control socket, which Landlock cannot guard), and io_uring,
// while a socket pair and internet sockets still work.
func TestNoUnixSockets(t *testing.T) {
	requireLandlock(t)
	if !sandbox.UnixSocketsRefusable() {
		t.Fatal("this kernel cannot refuse unix sockets (no seccomp filters)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The launcher's own marker must not make the helper a launcher too.
	cmd := exec.Command("/bin/sh", "-c", "unset "+launcherEnv+"; exec \"$0\" -test.run='^TestUnixSocketHelper$' -test.v", exe)
	p := sandbox.Policy{Exec: []string{"/"}, Network: true, NoUnixSockets: true}
	if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), launcherEnv+"=1", unixHelperEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("helper: %v\n%s", err, out.String())
	}
	for _, want := range []string{"unix socket: permission denied", "unix socket with high bits: permission denied",
		"inet socket: ok", "socketpair: ok", "io_uring: function not implemented"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("helper output lacks %q:\n%s", want, out.String())
		}
	}
}
