//go:build unix

package assistant

// Third attack round (helper a16, main at 8f6251f): attacks that held,
// kept as guards (each passes on that code), and one wording failure.

import (
	"encoding/json"
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

// The model's arguments cannot make the core read another file: with the
// path given twice (the attached one and a secret, in either order), or
// as "PATH"/"Path" (Go's JSON matches keys without case), the core
// matches one spelling against the attached files, but reads only the
// file it opened for that record; the other spelling names nothing read.
func TestAttackAttachHeldOddArgumentJSON(t *testing.T) {
	a, m, home := attackHome(t)
	secret := write(t, filepath.Join(home, "private", "diary.txt"), "TOPSECRET diary")
	doc := write(t, filepath.Join(home, "Documents", "report.txt"), "report text")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	conv, res := rawCallTurn(t, a, m, 0, []string{doc}, "fs_read", `{"path":`+q(doc)+`}`)
	if res.IsError || !strings.Contains(res.Text, "report text") {
		t.Fatalf("fs_read of the attached file: %q", res.Text)
	}
	for _, raw := range []string{
		`{"path":` + q(doc) + `,"path":` + q(secret) + `}`,
		`{"path":` + q(secret) + `,"path":` + q(doc) + `}`,
		`{"PATH":` + q(doc) + `,"path":` + q(secret) + `}`,
		`{"path":` + q(secret) + `,"Path":` + q(doc) + `}`,
		`{"path":` + q(doc) + `,"paths":[` + q(secret) + `]}`,
	} {
		_, res := rawCallTurn(t, a, m, conv, nil, "fs_read", raw)
		if strings.Contains(res.Text, "TOPSECRET") {
			t.Errorf("fs_read %s read the other file: %q", raw, res.Text)
		}
	}
}
