package sandbox_test

import (
	"os"
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
