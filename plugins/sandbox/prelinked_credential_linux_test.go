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
