package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a11: /dev/shm stays writable and readable to every command (docs: for
// Python's multiprocessing), shared with the person's own programs.
// `pass edit` decrypts the entry being edited to /dev/shm/pass.XXXX/
// (mode 0700, the person's: same user as the command), and so do gopass
// and sops' editors; a command reads it, or rewrites it before the
// editor closes (pass then encrypts the command's version). A command
// also leaves files there for the next command (or another conversation)
// to pick up, which the private TMPDIR was meant to end. No home grant
// needed.
//
// Reproduction: while the person runs `pass edit bank`: shell_exec
// `cat /dev/shm/pass.*/*`
func TestA11DevShmSharedWithThePersonsPrograms(t *testing.T) {
	requireLandlock(t)
	dir, err := os.MkdirTemp("/dev/shm", "pass.")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "bank.txt"), []byte("A11SECRET-hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	own, err := sandbox.CommandTemp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(own) })
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: own})
	if out, _ := run(t, p, "cat "+dir+"/*"); strings.Contains(out, "A11SECRET") {
		t.Errorf("a shell command with no home grant read the person's /dev/shm (%s): %q; want /dev/shm private to the command (a tmpfs of its own, or its own folder there)", dir, out)
	}
}

// a11: docs/plugins.md: "A sandboxed process sees its own processes'
// /proc entries only". Commands get /proc read-only, and Landlock only
// guards what ptrace guards (environ, maps, fd): every other process's
// cmdline, cwd-free status and the like stay readable, so a command reads
// the secrets the person's programs carry on their command lines
// (`mysql -pSECRET`, `curl -H 'Authorization: Bearer …'`, `sshpass -p`)
// and lists everything the person runs.
//
// Reproduction: shell_exec `cat /proc/*/cmdline | tr '\0' ' '`
func TestA11ProcCmdlineOfOtherProcesses(t *testing.T) {
	requireLandlock(t)
	outside := exec.Command("/bin/sh", "-c", "read x", "mysql-pA11SECRET")
	stdin, err := outside.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := outside.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); outside.Wait() })
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp})
	line := fmt.Sprintf("tr '\\0' ' ' < /proc/%d/cmdline", outside.Process.Pid)
	if out, _ := run(t, p, line); strings.Contains(out, "A11SECRET") {
		t.Errorf("a shell command read another process's command line: %q; want only its own processes' /proc entries, as docs/plugins.md says (hidepid, or /proc/self and /proc/thread-self only)", out)
	}
}
