package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Go's exec closes only descriptors marked close-on-exec, and the sandbox
// launcher (Main) executes the command with every other descriptor it
// got: whatever Wrasse inherited open from what started it (a desktop
// launcher's or terminal's leaked descriptors, a cgo library's) reaches
// every shell command, plugin command and MCP server, and Landlock does
// not govern a descriptor already open. Run from a terminal, the real
// app passed its inherited fds 10 and 251 on to a shell_exec command
// (seen with /proc/$$/fd). Here a file outside the policy, open without
// close-on-exec in the process that starts the sandbox, is read through
// the descriptor. The launcher should close everything above 2 (or mark
// it close-on-exec: close_range(3, ~0, CLOSE_RANGE_CLOEXEC)) before it
// executes the command.
func TestCommandCannotReadADescriptorWrasseInherited(t *testing.T) {
	requireLandlock(t)
	f := newFixture(t)
	secret := filepath.Join(f.outside, "held-open.txt")
	if err := os.WriteFile(secret, []byte("A6-INHERITED-SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Open(secret, syscall.O_RDONLY, 0) // no O_CLOEXEC: as an inherited descriptor is
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	p := f.commandPolicy()
	if out, ok := run(t, p, "cat "+secret); ok {
		t.Fatalf("the policy lets the command read %s by name (%s); the test needs it outside", secret, out)
	}
	out, _ := run(t, p, fmt.Sprintf("cat <&%d", fd))
	if strings.Contains(out, "A6-INHERITED-SECRET") {
		t.Errorf("a sandboxed command read a file outside its policy through descriptor %d, open in the process that started it: %q; want the launcher to close every descriptor above 2 before it runs the command", fd, out)
	}
}
