//go:build unix

package assistant

// Attacks on reading attached files (attachread.go), by helper a15: each
// test here FAILS on the code it was written against (main at 864b2e4,
// which holds 71864e8 "fs_read reads only the very file the chip read"),
// showing a way around the promise that a link to a credential is not
// attached and that only the very file the chip read is sent and read.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wrasse-app/wrasse/brain/store"
)

// holdsCredentials compares the real path with the home folder as a
// string (filepath.Rel), but the real path comes from EvalSymlinks, which
// also resolves a link in the home folder's own path. Where the home
// folder is reached through a link — Fedora Silverblue, Kinoite and the
// other ostree systems ship /home as a link to /var/home; many NAS and
// company machines link /home/alice to /data/alice; on macOS the same
// file is also /System/Volumes/Data/Users/alice — every real path lies
// outside "home" and no credential store is recognised: a README.txt
// leading to ~/.aws/credentials is read into the message. The fix: resolve
// the home folder too (EvalSymlinks(home)) before comparing, or better
// compare identities: refuse when any folder on the real path, or the
// file, is (os.SameFile) one of the credential stores as stat'ed.
func TestAttackAttachHomeReachedThroughLink(t *testing.T) {
	a, _, home := attackHome(t)
	alias := filepath.Join(t.TempDir(), "home-link") // /home/alice → /var/home/alice
	if err := os.Symlink(home, alias); err != nil {
		t.Fatal(err)
	}
	a.opts.Home = alias
	t.Setenv("HOME", alias)
	for _, cred := range []string{".aws/credentials", ".config/gh/hosts.yml", ".ssh/config"} {
		t.Run(cred, func(t *testing.T) {
			write(t, filepath.Join(home, cred), "TOPSECRET "+cred)
			readme := filepath.Join(alias, "Documents", "repo-"+filepath.Base(cred), "README.txt")
			if err := os.MkdirAll(filepath.Dir(readme), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(alias, cred), readme); err != nil {
				t.Fatal(err)
			}
			if f, err := a.ReadAttachment(readme); err == nil && strings.Contains(f.Text, "TOPSECRET") {
				t.Errorf("ReadAttachment(%s), a link to ~/%s with the home folder reached through a link, read it into the message: %q", readme, cred, f.Text)
			}
		})
	}
}

// holdsCredentials knows the credential stores only at their usual names
// under the home folder (gate.CredentialStores, sandbox.CredentialFiles),
// but the sandbox also refuses them where the environment moves them
// (sandbox relocatedCredentials: XDG_CONFIG_HOME, GNUPGHOME,
// AWS_SHARED_CREDENTIALS_FILE, GH_CONFIG_DIR, ...). A person who keeps
// their dotfiles in ~/dotfiles/config (XDG_CONFIG_HOME) has gh's token in
// ~/dotfiles/config/gh/hosts.yml: a README.txt linking there is read into
// the message, though no tool may read that file. The fix: export the
// sandbox's relocated list (CredentialFiles plus relocatedCredentials, as
// absolute paths) and check the real path against it too.
func TestAttackAttachLinkToRelocatedCredentialStore(t *testing.T) {
	a, _, home := attackHome(t)
	cfg := filepath.Join(home, "dotfiles", "config")
	t.Setenv("XDG_CONFIG_HOME", cfg)
	awsFile := filepath.Join(home, "secrets", "aws-creds")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", awsFile)
	for _, target := range []string{
		write(t, filepath.Join(cfg, "gh", "hosts.yml"), "github.com:\n  oauth_token: TOPSECRET-gh\n"),
		write(t, filepath.Join(cfg, "sops", "age", "keys.txt"), "AGE-SECRET-KEY-TOPSECRET\n"),
		write(t, awsFile, "[default]\naws_secret_access_key = TOPSECRET-aws\n"),
	} {
		t.Run(filepath.Base(target), func(t *testing.T) {
			readme := filepath.Join(home, "Documents", "r-"+filepath.Base(target), "README.txt")
			if err := os.MkdirAll(filepath.Dir(readme), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, readme); err != nil {
				t.Fatal(err)
			}
			if f, err := a.ReadAttachment(readme); err == nil && strings.Contains(f.Text, "TOPSECRET") {
				t.Errorf("ReadAttachment(%s), a link to %s (a credential store the sandbox refuses where the environment moved it), read it: %q", readme, target, f.Text)
			}
		})
	}
}

// A hard link is not a symbolic link, so attachedFile sees real == abs
// and never asks holdsCredentials: a notes.txt that is a hard link to
// ~/.ssh/id_ed25519 (same file system; made by any process of the
// person's, e.g. a script in a cloned repository, or a `cp -al` backup)
// is read into the message as "notes.txt". Perhaps an intended limit (no
// archive format the window opens makes hard links out of the folder),
// but it is the same harm as the link the fix refuses and cheap to close:
// when the opened file has nlink > 1, refuse it if its identity is that
// of a file in a credential store (stat the stores' files, or compare
// with the SDK's guard the way Wrasse's own data is compared).
func TestAttackAttachHardLinkToKeyUnderHarmlessName(t *testing.T) {
	a, _, home := attackHome(t)
	notes := filepath.Join(home, "Documents", "meeting-notes.txt")
	if err := os.Link(sshKey(home), notes); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	if f, err := a.ReadAttachment(notes); err == nil && strings.Contains(f.Text, "PRIVATE KEY") {
		t.Errorf("ReadAttachment(%s), a hard link to ~/.ssh/id_ed25519, read the key into the message: %q", notes, f.Text)
	}
}

// attachSeen forgets every chip at once when its 1024th path comes
// (put replaces the whole map), and attachedFiles checks a path only when
// it is remembered: after the chip of invoice.txt, 1024 more chips (a
// folder of files dropped, or a long session: attachSeen is never emptied
// after a send) make the check pass silently for a file swapped since —
// here by a hard link to the private key, which no link check sees — and
// fs_read of the attached path returns the key. The same holds after a
// restart of the core, or for a path sent without a chip. The fix: evict
// one entry (the oldest) rather than all, and have the window pass the
// chip's identity with the path (TurnOptions.Files as store.AttachedFile
// from ReadAttachment), so that the check never depends on a cache.
func TestAttackAttachSeenEvictedThenSwapped(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "Documents", "invoice.txt"), "harmless invoice text")
	if f, err := a.ReadAttachment(doc); err != nil || !strings.Contains(f.Text, "harmless") {
		t.Fatalf("the chip's reading: %+v, %v", f, err)
	}
	many := filepath.Join(home, "Documents", "dropped")
	for i := range maxAttachSeen {
		p := write(t, filepath.Join(many, fmt.Sprintf("f%04d.txt", i)), "filler")
		if _, err := a.ReadAttachment(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(sshKey(home), doc); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	_, res, err := attackTurn(t, a, m, 0, []string{doc}, map[string]any{"path": doc})
	if err == nil && strings.Contains(res.Text, "PRIVATE KEY") {
		t.Errorf("the chip read %s, 1024 more chips were read, the file was swapped for a hard link to the key, and the send accepted it: fs_read returned %q", doc, res.Text)
	}
}

// Device and inode numbers are reused: once the attached file is deleted
// its inode number is free, and the next file created on that file system
// may get it (ext4 reuses freed inodes of the group at once). A process
// that deletes the attached invoice.txt, waits for (or here provokes) a
// credential file to be written that gets the freed number — a token
// cache refresh in ~/.aws/sso/cache, a new key — and hard-links it at
// invoice.txt passes openAttached's dev/ino comparison: fs_read returns
// the credential. The fix: record more than dev/ino (the birth time
// statx stx_btime, or ctime with size, or the file's generation number)
// and refuse on any difference; and refuse a file with nlink > 1 in a
// credential store as above.
func TestAttackAttachInodeReused(t *testing.T) {
	a, m, home := attackHome(t)
	cache := filepath.Join(home, ".aws", "sso", "cache")
	if err := os.MkdirAll(cache, 0o700); err != nil { // there before: the person's token cache
		t.Fatal(err)
	}
	doc := filepath.Join(home, "Documents", "invoice.txt")
	// Other processes on a shared machine may take the freed number
	// first: try again with a fresh attachment, a few times.
	var conv store.ID
	var secret string
	for try := 0; try < 20 && secret == ""; try++ {
		write(t, doc, "harmless invoice text")
		st, err := os.Stat(doc)
		if err != nil {
			t.Fatal(err)
		}
		want := st.Sys().(*syscall.Stat_t).Ino
		var res store.Event
		conv, res, err = attackTurn(t, a, m, conv, []string{doc}, map[string]any{"path": doc})
		if err != nil || !strings.Contains(res.Text, "harmless") {
			t.Fatalf("fs_read before: %q, %v", res.Text, err)
		}
		if err := os.Remove(doc); err != nil {
			t.Fatal(err)
		}
		p := write(t, filepath.Join(cache, fmt.Sprintf("token%03d.json", try)), `{"accessToken":"TOPSECRET-sso"}`)
		if s, err := os.Stat(p); err == nil && s.Sys().(*syscall.Stat_t).Ino == want {
			secret = p
		}
	}
	if secret == "" {
		t.Skip("the freed inode number was not reused in 20 tries on this file system")
	}
	if err := os.Link(secret, doc); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	_, res, err := attackTurn(t, a, m, conv, nil, map[string]any{"path": doc})
	if err == nil && strings.Contains(res.Text, "TOPSECRET") {
		t.Errorf("fs_read of the attached %s, deleted and replaced by a hard link to %s which reused its inode number, returned it: %q", doc, secret, res.Text)
	}
}

// When the home folder is unknown (HOME unset or relative, as under some
// service managers, `env -i`, or a launcher that clears the environment;
// Options.Home is not set in production) holdsCredentials answers false
// for every credential store: it fails open, and a README.txt linking to
// /home/alice/.aws/credentials is read into the message. The fix: when
// home() is empty or not absolute, refuse every attached link (or resolve
// the home folder from the user database, os/user.Current().HomeDir).
func TestAttackAttachHomeUnknownFailsOpen(t *testing.T) {
	a, _, home := attackHome(t)
	creds := write(t, filepath.Join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = TOPSECRET\n")
	readme := filepath.Join(home, "Documents", "repo", "README.txt")
	if err := os.MkdirAll(filepath.Dir(readme), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(creds, readme); err != nil {
		t.Fatal(err)
	}
	a.opts.Home = ""
	for _, h := range []string{"", "."} {
		t.Run(fmt.Sprintf("HOME=%q", h), func(t *testing.T) {
			t.Setenv("HOME", h)
			if f, err := a.ReadAttachment(readme); err == nil && strings.Contains(f.Text, "TOPSECRET") {
				t.Errorf("with HOME=%q, ReadAttachment(%s), a link to ~/.aws/credentials, read it: %q", h, readme, f.Text)
			}
		})
	}
}

// holdsCredentials compares spellings, but on a case-insensitive file
// system (macOS's APFS and HFS+ by default, Windows' NTFS) EvalSymlinks
// returns the case the link was written in: a README.txt linking to
// ~/.AWS/credentials or ~/.SSH/config reaches the real files, and its real
// path is spelled ".AWS/credentials", which matches no store. The same
// file is also /System/Volumes/Data/Users/alice/.aws/credentials on macOS
// (a firmlink, no symbolic link to resolve). Shown here on the check
// itself, since this machine's file system is case-sensitive. The fix:
// compare identities (os.SameFile of the real path's folders against the
// stores as stat'ed), or at least fold case (strings.EqualFold) where the
// file system does.
func TestAttackAttachCredentialSpellingsOnCaseInsensitiveFS(t *testing.T) {
	a, _, home := attackHome(t)
	for _, real := range []string{
		filepath.Join(home, ".AWS", "credentials"),
		filepath.Join(home, ".SSH", "config"),
		filepath.Join(home, ".Config", "gh", "hosts.yml"),
		filepath.Join(home, ".GNUPG", "private-keys-v1.d", "key.key"),
		filepath.Join("/System/Volumes/Data", home, ".aws", "credentials"),
	} {
		if !a.holdsCredentials(real) {
			t.Errorf("holdsCredentials(%s) = false; on macOS or Windows that is a credential file", real)
		}
	}
}
