package sandbox_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// A sandboxed command cannot read another process's environment from
// /proc, as root too: Landlock's ptrace-read check lets through a caller
// holding every capability of its target, so root's full set read the
// secrets of every process outside the sandbox (an MCP server's, Wrasse's
// own). The command sandbox gives them all up before the program runs:
// the bounding set too, so executing a program as root grants none
// again. Its own processes stay readable.
func TestCommandReadsNoOtherProcessEnvironment(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	const secret = "sk-sibling-environ-0123456789"
	// A process outside the sandbox, running once it said so (its
	// environment is in place only once exec has finished).
	sibling := exec.Command("/bin/sh", "-c", "echo ready; read x")
	sibling.Env = []string{"SIBLING_SECRET=" + secret}
	stdin, err := sibling.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := sibling.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sibling.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); sibling.Wait() })
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("the sibling said %q: %v", line, err)
	}
	environ := filepath.Join("/proc", strconv.Itoa(sibling.Process.Pid), "environ")
	// Unconfined, this process reads it: the test reads what it means to.
	if b, err := os.ReadFile(environ); err != nil || !strings.Contains(string(b), secret) {
		t.Fatalf("unconfined, %s: %v %q", environ, err, b)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []sandbox.Policy{
		f.commandPolicy(),
		sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp}),
	} {
		p.Exec = append(p.Exec, filepath.Dir(exe))
		// $$ is the process the launcher became: an MCP server may read
		// only that one's /proc entry, a command every one of its own.
		out, _ := run(t, p, "tr '\\0' '\\n' < "+environ+"; echo; tr '\\0' '\\n' < /proc/$$/environ | grep -a ^PATH=; grep -a '^Cap' /proc/$$/status")
		if strings.Contains(out, secret) {
			t.Errorf("a sandboxed command read %s: %s", environ, out)
		}
		if !strings.Contains(out, "PATH=") {
			t.Errorf("a sandboxed command cannot read its own process's environment: %s", out)
		}
		for _, set := range []string{"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"} {
			if !strings.Contains(out, set+":\t0000000000000000") {
				t.Errorf("a sandboxed command holds capabilities (%s): %s", set, out)
			}
		}
	}
}
