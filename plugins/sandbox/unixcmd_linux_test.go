package sandbox_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// A command reaches no local service by its socket file (Landlock does
// not govern connect(2) to one): the person's tmux server, Wrasse's own
// control socket. The Shell's unixSockets setting (UnixSockets) lets the
// person allow them; a plugin with exec never gets them.
func TestCommandRefusesUnixSockets(t *testing.T) {
	requireLandlock(t)
	if !sandbox.UnixSocketsRefusable() {
		t.Fatal("this kernel cannot filter system calls (seccomp)")
	}
	f := newFixture(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A service of the person's, its socket in a granted folder.
	sock := filepath.Join(f.granted, "svc.sock")
	ln, err := net.Listen("unix", sock)
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
	for _, c := range []struct {
		name  string
		p     sandbox.Policy
		allow bool
	}{
		{"command", sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: true}), false},
		{"command, unix sockets allowed", sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp,
			Network: true, UnixSockets: true}), true},
		{"plugin with exec", sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{f.granted}, Protected: f.protected(), Files: true, Exec: true}), false},
	} {
		c.p.Exec = append(c.p.Exec, filepath.Dir(exe))
		out, ok := run(t, c.p, probeEnv+"="+sock+" "+exe)
		if ok != c.allow {
			t.Errorf("%s: connecting to %s succeeded=%v, want %v: %s", c.name, sock, ok, c.allow, out)
		}
		if !c.allow && !strings.Contains(out, "permission denied") {
			t.Errorf("%s: refused without the filter's EACCES: %s", c.name, out)
		}
		// A pipe between its own processes still works.
		if out, ok := run(t, c.p, "echo piped | cat"); !ok || !strings.Contains(out, "piped") {
			t.Errorf("%s: a pipeline failed: %s", c.name, out)
		}
	}
	if p := sandbox.ForPlugin(sandbox.PluginOptions{Files: true}); p.NoUnixSockets {
		t.Error("a plugin without exec lost its unix sockets (its own dials are checked against its folders)")
	}
}
