//go:build unix

package assistant

// Third attack round (helper a16, main at 8f6251f): attacks that held,
// kept as guards (each passes on that code), and one wording failure.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A credential store that is itself a link out of the home folder
// (~/.aws -> /mnt/secrets/aws): a link straight to the store's target
// file, and a hard link to it, are both refused (credentialPaths adds each
// store with its links resolved; sameAsCredential stats through the link).
func TestAttackAttachHeldStoreItselfALink(t *testing.T) {
	a, _, home := attackHome(t)
	mnt := t.TempDir()
	creds := write(t, filepath.Join(mnt, "aws", "credentials"), "[default]\naws_secret_access_key = TOPSECRET\n")
	if err := os.Symlink(filepath.Join(mnt, "aws"), filepath.Join(home, ".aws")); err != nil {
		t.Fatal(err)
	}
	readme := mkLink(t, creds, filepath.Join(home, "Downloads", "repo", "README.txt"))
	if f, err := a.ReadAttachment(readme); err == nil && strings.Contains(f.Text, "TOPSECRET") {
		t.Errorf("ReadAttachment(%s), a link to %s (the target of ~/.aws), read it: %q", readme, creds, f.Text)
	}
	hard := mkHardLink(t, creds, filepath.Join(home, "Downloads", "minutes.txt"))
	if f, err := a.ReadAttachment(hard); err == nil && strings.Contains(f.Text, "TOPSECRET") {
		t.Errorf("ReadAttachment(%s), a hard link to %s (the target of ~/.aws), read it: %q", hard, creds, f.Text)
	}
}

// A link to /proc/self/environ (the core's environment, API keys in it)
// is refused today, but only because its NUL-separated bytes parse as a
// binary file (attach.Parse), not because it is Wrasse's own data: see
// TestAttackAttachLinkToProcSelf for the /proc files that are text.
func TestAttackAttachHeldProcSelfEnvironAsBinary(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc here")
	}
	a, _, home := attackHome(t)
	readme := mkLink(t, "/proc/self/environ", filepath.Join(home, "Downloads", "env", "README.txt"))
	if f, err := a.ReadAttachment(readme); err == nil {
		t.Errorf("ReadAttachment(%s), a link to /proc/self/environ, read the core's environment: %.80q", readme, f.Text)
	}
}
