package sandbox_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Issue 21 (attack a11): sshPrivate lists the private keys in ~/.ssh when the sandbox
// starts. When there is none yet (a new machine, keys kept in an agent or
// a hardware token, or ~/.ssh holding only known_hosts and config), no
// hole lies under ~/.ssh and the read-only rule covers the whole folder:
// a key the person makes later (`ssh-keygen`, `gh auth login` making one)
// is readable to every sandbox started before it, and MCP servers run for
// the whole session (a command's background process too). The other
// credentials are carved by name, whether or not they exist, and hold.
//
// Reproduction: ~/.ssh holds only known_hosts; grant ~; an MCP server
// starts; the person runs ssh-keygen -f ~/.ssh/id_ed25519; the server
// reads ~/.ssh/id_ed25519.
func TestHomeSSHKeyMadeAfterTheSandboxStarts(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{".ssh/known_hosts": "github.com ssh-ed25519 AAAA\n", ".ssh/config": "Host *\n"})
	for who, p := range homeGrantedPolicies(t, home) {
		t.Run(who, func(t *testing.T) {
			fifo := filepath.Join(home, "go-"+strings.ReplaceAll(who, " ", "-"))
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			key := filepath.Join(home, ".ssh/id_ed25519")
			defer os.Remove(key)
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			// The sandboxed process starts, then waits for the key to exist.
			cmd := exec.Command("/bin/sh", "-c", "read x < "+fifo+"; cat "+key)
			if err := sandbox.Command(cmd, []string{exe}, p); err != nil {
				t.Fatal(err)
			}
			cmd.Env = append(os.Environ(), launcherEnv+"=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Opening the fifo for writing waits until the sandbox has
			// started and opened it for reading.
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY----- A11SECRET\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			w.Write([]byte("go\n"))
			w.Close()
			cmd.Wait()
			if strings.Contains(out.String(), "A11SECRET") {
				t.Errorf("a sandboxed %s started before the person made ~/.ssh/id_ed25519 read it: %q; want ssh private keys unreadable whenever they appear (only the public entries readable, by name)", who, out.String())
			}
		})
	}
}
