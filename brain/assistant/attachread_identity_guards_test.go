//go:build unix

package assistant

// Attacks on reading attached files that held when helper a15 tried them
// (main at 864b2e4): kept as guards, each passes today.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func syscallMkfifo(p string) error { return syscall.Mkfifo(p, 0o600) }

// A link in a folder on the way (not the file itself) into ~/.ssh or
// ~/.aws, a chain of links, and credential names in other cases are all
// resolved by EvalSymlinks and refused by holdsCredentials.
func TestAttackAttachHeldFolderLinksAndNames(t *testing.T) {
	a, _, home := attackHome(t)
	creds := write(t, filepath.Join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = TOPSECRET\n")
	write(t, filepath.Join(home, ".ssh", "config"), "Host x TOPSECRET")
	docs := filepath.Join(home, "Documents")
	link := func(target, at string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(at), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, at); err != nil {
			t.Fatal(err)
		}
		return at
	}
	link(filepath.Join(home, ".ssh"), filepath.Join(docs, "backup"))
	link(filepath.Join(home, ".aws"), filepath.Join(docs, "cloud"))
	link(filepath.Join(docs, "cloud"), filepath.Join(docs, "chain1"))
	link("../Documents/chain1", filepath.Join(docs, "sub", "chain2"))
	write(t, filepath.Join(home, "proj", "ID_RSA"), "TOPSECRET rsa")
	write(t, filepath.Join(home, "proj", ".Env.Local"), "TOPSECRET env")
	for _, p := range []string{
		filepath.Join(docs, "backup", "config"),
		filepath.Join(docs, "cloud", "credentials"),
		filepath.Join(docs, "sub", "chain2", "credentials"),
		link(creds, filepath.Join(docs, "x", "README.txt")),
		link(filepath.Join(home, "proj", "ID_RSA"), filepath.Join(docs, "y", "README.txt")),
		link(filepath.Join(home, "proj", ".Env.Local"), filepath.Join(docs, "z", "README.txt")),
	} {
		if f, err := a.ReadAttachment(p); err == nil && strings.Contains(f.Text, "TOPSECRET") {
			t.Errorf("ReadAttachment(%s) read a credential: %q", p, f.Text)
		}
	}
}

// A pipe (or a link to a device) at the attached path is refused by
// ReadAttachment without hanging: the SDK opens without blocking and
// attach.ReadOpen takes regular files only.
func TestAttackAttachHeldPipeAndDevice(t *testing.T) {
	a, _, home := attackHome(t)
	fifo := filepath.Join(home, "Documents", "pipe.txt")
	if err := syscallMkfifo(fifo); err != nil {
		t.Skipf("no fifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := a.ReadAttachment(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Errorf("ReadAttachment of a pipe succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("ReadAttachment of a pipe hangs")
	}
	dev := filepath.Join(home, "Documents", "zero.txt")
	if err := os.Symlink("/dev/zero", dev); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ReadAttachment(dev); err == nil {
		t.Errorf("ReadAttachment of a link to /dev/zero succeeded")
	}
}
