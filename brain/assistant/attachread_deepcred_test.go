package assistant

import (
	"path/filepath"
	"strings"
	"testing"
)

// A hard link in a granted folder to a file deeper than directly in a
// credential folder (a pass entry in a sub-folder, a browser profile's
// saved passwords, a Flatpak app's files) is another name of a secret the
// sandbox never reads: attaching it and fs_read of it are both refused,
// naming the store's file, as a hard link to ~/.ssh/id_ed25519 is.
func TestGrantedFolderHardLinkDeepInCredentialFolder(t *testing.T) {
	for _, rel := range []string{
		".password-store/work/bank.example.com.gpg",
		".mozilla/firefox/abcd1234.default-release/logins.json",
		".config/google-chrome/Default/Login Data",
		".gnupg/private-keys-v1.d/sub/x.key",
		".var/app/org.example.App/config/token",
	} {
		t.Run(rel, func(t *testing.T) {
			a, m, home := attackHome(t)
			secret := write(t, filepath.Join(home, filepath.FromSlash(rel)), "PRIVATE KEY TOPSECRET")
			doc := mkHardLink(t, secret, filepath.Join(home, "projects", "notes.txt"))
			if f, err := a.ReadAttachment(doc); err == nil || strings.Contains(f.Text, "TOPSECRET") {
				t.Errorf("ReadAttachment(%s), a hard link to ~/%s in a granted folder: %q, %v; want a refusal", doc, rel, f.Text, err)
			}
			_, res := callTurn(t, a, m, 0, nil, "fs_read", map[string]any{"path": doc})
			if !res.IsError || strings.Contains(res.Text, "TOPSECRET") || !strings.Contains(res.Text, filepath.Base(rel)) {
				t.Errorf("fs_read of %s, a hard link to ~/%s in a granted folder: %q (error %v); want a refusal naming it", doc, rel, res.Text, res.IsError)
			}
		})
	}
}
