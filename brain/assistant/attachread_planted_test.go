//go:build unix

package assistant

// Third attack round on attached files (helper a16, main at 8f6251f).
// Each test here fails on that code: what it shows still gets through.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mkLink makes a symbolic link at at to target, making at's folder.
func mkLink(t *testing.T, target, at string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, at); err != nil {
		t.Fatal(err)
	}
	return at
}

// mkHardLink makes a hard link at at to target, or skips.
func mkHardLink(t *testing.T, target, at string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(at), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(target, at); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	return at
}

// sameAsCredential compares a hard-linked file with the credential files
// and the entries directly in each credential folder, one level only:
// Firefox keeps its saved passwords in ~/.mozilla/firefox/<profile>/
// logins.json (with key4.db), pass keeps ~/.password-store/<dir>/<site>.gpg,
// kwallet and Chrome likewise a level or two down. A hard link to any of
// them under a harmless name is attached and read into the message. The
// fix: compare the file's (dev, ino) with an index of every regular file
// under the credential folders (walked once and cached by the folders'
// mtimes), or better, refuse any hard-linked file (nlink > 1) outside the
// granted folders unless the person confirms.
func TestAttackAttachHardLinkDeepInCredentialFolder(t *testing.T) {
	for _, rel := range []string{
		".mozilla/firefox/abcd1234.default-release/logins.json",
		".password-store/work/bank.example.com.gpg",
		".config/google-chrome/Default/Login Data",
		".aws/sso/cache/sub/token.json",
	} {
		t.Run(rel, func(t *testing.T) {
			a, _, home := attackHome(t)
			secret := write(t, filepath.Join(home, rel), `{"password":"TOPSECRET"}`)
			notes := mkHardLink(t, secret, filepath.Join(home, "Documents", "hardlinked-minutes.txt"))
			if f, err := a.ReadAttachment(notes); err == nil && strings.Contains(f.Text, "TOPSECRET") {
				t.Errorf("ReadAttachment(%s), a hard link to ~/%s, read it into the message: %q", notes, rel, f.Text)
			}
		})
	}
}

// With no home folder known every symbolic link is refused, but a hard
// link is compared only with credentialPaths(homes), which is empty then
// (but for relocated stores): a hard link to ~/.aws/credentials under a
// harmless name is read. The fix: with no home known, refuse every file
// with nlink > 1 as holdsCredentials refuses every link (or resolve the
// home from os/user).
func TestAttackAttachHardLinkHomeUnknown(t *testing.T) {
	a, _, home := attackHome(t)
	creds := write(t, filepath.Join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = TOPSECRET\n")
	notes := mkHardLink(t, creds, filepath.Join(home, "Documents", "hardlinked-minutes.txt"))
	a.opts.Home = ""
	t.Setenv("HOME", "")
	if f, err := a.ReadAttachment(notes); err == nil && strings.Contains(f.Text, "TOPSECRET") {
		t.Errorf("with no home known, ReadAttachment(%s), a hard link to ~/.aws/credentials, read it: %q", notes, f.Text)
	}
}

// Credential stores matched by name only: pathWithin(~/.config/google-
// chrome-beta, ~/.config/google-chrome) is false, so the profiles of the
// beta, dev and unstable channels, and of browsers and password stores in
// no list (GNOME Web, qutebrowser, Pidgin's plain-text accounts.xml, the
// old GNOME keyring folder, VS Code's secret storage, a KeePass database
// by its extension), are reached by a README.txt link in a downloaded
// archive. The fix: a wider list (the -beta/-unstable channels; .purple,
// .gnome2/keyrings, .config/Code*/User/globalStorage, .local/share/
// qutebrowser, .config/epiphany, *.kdbx as a credential name), and better
// a rule: a link that leaves the folder of the link into a dot-folder of
// the home folder is refused unless the person names the target.
func TestAttackAttachLinkToUnlistedCredentialStore(t *testing.T) {
	for _, rel := range []string{
		".config/google-chrome-beta/Default/Login Data",
		".config/google-chrome-unstable/Default/Cookies",
		".config/chromium-dev/Default/Login Data",
		".purple/accounts.xml",
		".gnome2/keyrings/login.keyring",
		".config/Code/User/globalStorage/state.vscdb",
		".local/share/qutebrowser/webengine/Cookies",
		".config/epiphany/cookies.sqlite",
		"Documents/Passwords.kdbx",
		".config/keepassxc-secrets/export.csv",
	} {
		t.Run(rel, func(t *testing.T) {
			a, _, home := attackHome(t)
			secret := write(t, filepath.Join(home, rel), "password=TOPSECRET\n")
			readme := mkLink(t, secret, filepath.Join(home, "Downloads", "repo", "README.txt"))
			if f, err := a.ReadAttachment(readme); err == nil && strings.Contains(f.Text, "TOPSECRET") {
				t.Errorf("ReadAttachment(%s), a link to ~/%s, read it into the message: %q", readme, rel, f.Text)
			}
		})
	}
}

// A link to Wrasse's own process in /proc: /proc/self resolves to the
// core's pid, and holdsCredentials knows nothing of /proc. The core's
// environment (API keys passed as OPENAI_API_KEY and the like), its
// command line and its memory map are Wrasse's own data, which the
// promise says is never read; a README.txt linking to /proc/self/environ
// is read if it parses as text. The fix: refuse a real path under /proc
// (and /sys, /dev) in attachedFile, as a link or not.
func TestAttackAttachLinkToProcSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc here")
	}
	a, _, home := attackHome(t)
	for _, target := range []string{"/proc/self/environ", "/proc/self/status", "/proc/self/maps", "/proc/self/mountinfo"} {
		readme := mkLink(t, target, filepath.Join(home, "Downloads", filepath.Base(target), "README.txt"))
		if f, err := a.ReadAttachment(readme); err == nil {
			t.Errorf("ReadAttachment(%s), a link to %s, read the core's own process file (%d bytes): %.80q", readme, target, len(f.Text), f.Text)
		}
	}
}

// An attached file edited in place between the chip and the send (an
// editor saving without a rename; or only its ctime bumped by chmod, a
// sync client's xattr, an antivirus scan) is the same file, same device
// and inode, yet the send fails with "another file stands at its path
// now", which is false and sends the person looking for a swap that did
// not happen. The refusal itself is by design (the identity includes the
// ctime); the wording is not. The fix: when dev and ino match but the
// ctime does not, say "was changed (edited, or its permissions changed)
// since it was attached; attach it again", keeping errReplaced for a
// different inode.
func TestAttackAttachEditedInPlaceWording(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "Documents", "draft.txt"), "first draft")
	if _, err := a.ReadAttachment(doc); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(doc)
	// chmod changes only the ctime; wait past the file system's ctime
	// granularity without depending on the wall clock's value.
	for i := 0; i < 200; i++ {
		if err := os.Chmod(doc, 0o600|os.FileMode(i%2)<<6); err != nil {
			t.Fatal(err)
		}
		after, _ := os.Stat(doc)
		if identityOf(before) != identityOf(after) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, _, err := attackTurn(t, a, m, 0, []string{doc}, map[string]any{"path": doc})
	if err == nil {
		t.Skip("the send accepted the file whose ctime changed")
	}
	if strings.Contains(err.Error(), "another file stands at its path") {
		t.Errorf("sending %s after only its permissions changed (same inode): %v", doc, err)
	}
}

// Secrets outside the home folder are in no list: a README.txt linking to
// /etc/shadow (readable when the core runs as root, as in a container) or
// to an SSH host key (ssh_host_ed25519_key, a name credname does not
// know) is attached and read. The fix: add the ssh_host_*_key names to
// credname, and refuse links into /etc/shadow, /etc/gshadow, /etc/ssh,
// /etc/ssl/private (or any link to a file the person's own user could not
// read were it not root).
func TestAttackAttachLinkToSystemSecrets(t *testing.T) {
	a, _, home := attackHome(t)
	for _, target := range []string{"/etc/shadow", "/etc/gshadow", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssl/private/ssl-cert-snakeoil.key"} {
		if f, err := os.Open(target); err != nil {
			continue
		} else {
			f.Close()
		}
		readme := mkLink(t, target, filepath.Join(home, "Downloads", filepath.Base(target), "README.txt"))
		if f, err := a.ReadAttachment(readme); err == nil {
			t.Errorf("ReadAttachment(%s), a link to %s, read it (%d bytes)", readme, target, len(f.Text))
		}
	}
}
