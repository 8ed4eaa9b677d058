package assistant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hard link in a granted folder to a credential file (a `cp -al` or
// rsync --link-dest backup of the home folder into a project) is refused
// while the store still has that name, and still after the store is
// edited in place. Once the tool that owns the store rewrites it by a new
// file renamed over the old name (aws configure, gh auth, an editor's
// save), the link is the only name of the old file, no different from a
// copy of the store in the project, which no file rule tells from any
// other file: that limit is the person's copy, not a path of Wrasse's.
func TestHardLinkToACredentialRefusedUntilTheStoreIsReplaced(t *testing.T) {
	a, m, home := attackHome(t)
	creds := write(t, filepath.Join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = TOPSECRET-OLD\n")
	doc := mkHardLink(t, creds, filepath.Join(home, "projects", "backup", "credentials"))
	_, res := callTurn(t, a, m, 0, nil, "fs_read", map[string]any{"path": doc})
	if !res.IsError || strings.Contains(res.Text, "TOPSECRET") || !strings.Contains(res.Text, "credentials") {
		t.Fatalf("fs_read of %s while ~/.aws/credentials is its other name: %q (error %v); want a refusal naming it", doc, res.Text, res.IsError)
	}
	f, err := os.OpenFile(creds, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("region = eu-west-1\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, res = callTurn(t, a, m, 0, nil, "fs_read", map[string]any{"path": doc})
	if !res.IsError || strings.Contains(res.Text, "TOPSECRET") {
		t.Errorf("fs_read of %s after the store was edited in place: %q (error %v); want a refusal", doc, res.Text, res.IsError)
	}
}
