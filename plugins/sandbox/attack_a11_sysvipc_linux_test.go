package sandbox_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a11: System V shared memory (and message queues, semaphores) is outside
// Landlock and the seccomp filter, and sandboxes share the person's IPC
// namespace: a sandboxed process attaches to any segment the person's
// programs made (same user: mode 0600 suffices) and reads or writes it.
// X11 clients (GTK, Qt, Chrome, Firefox, terminals) hand window contents
// to the X server in MIT-SHM segments: a command reads what the person's
// password manager or terminal shows, and writes into them. Commands list
// the segments in /proc/sysvipc/shm (their /proc is readable).
//
// Reproduction: shell_exec: python3 -c 'shmat(id from /proc/sysvipc/shm)…'
func TestA11SysVSharedMemoryOfThePerson(t *testing.T) {
	requireLandlock(t)
	const secret = "A11SECRET-window-pixels"
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	if err != nil {
		t.Fatalf("make a segment: %v", err)
	}
	t.Cleanup(func() { unix.SysvShmCtl(id, unix.IPC_RMID, nil) })
	mem, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	copy(mem, secret)
	defer unix.SysvShmDetach(mem)
	f := newFixture(t)
	home := homeWith(t, map[string]string{"Documents/n": ""})
	t.Setenv("HOME", home)
	// amd64 syscall numbers: shmat is 30.
	py := fmt.Sprintf(`import ctypes
l=ctypes.CDLL(None,use_errno=True)
l.syscall.restype=ctypes.c_void_p
a=l.syscall(30,%d,None,0)
print(ctypes.string_at(a,%d).decode() if a and a!=ctypes.c_void_p(-1).value else "shmat refused")`, id, len(secret))
	policies := map[string]sandbox.Policy{
		"shell command":    sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp}),
		"MCP server":       sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Program: "/usr/bin/python3", Temp: f.temp}),
		"plugin with exec": sandbox.ForPlugin(sandbox.PluginOptions{Protected: f.protected(), Exec: true}),
	}
	for who, p := range policies {
		t.Run(who, func(t *testing.T) {
			if out, _ := run(t, p, "/usr/bin/python3 -c '"+py+"'"); strings.Contains(out, secret) {
				t.Errorf("a sandboxed %s attached the person's System V shared memory segment %d and read it: %q; want shmget/shmat/msgget/semget refused by the seccomp filter (or a new IPC namespace for the sandbox)", who, id, out)
			}
		})
	}
}
