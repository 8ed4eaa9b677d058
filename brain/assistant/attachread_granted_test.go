package assistant

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file attached from a granted folder is one the tools may read anyway.
// Once attached, fs_read of its path in that conversation was answered
// only by the attachment's record, which refuses the file as "changed or
// replaced since it was attached" after any edit: the model's own
// fs_write, the person's editor. The grant let fs_read read it; the
// attachment took that away for the rest of the conversation. A refused
// attachment read now goes to the plugin, whose folder rules decide (a
// file outside the folders is refused there as before, with the
// attachment's reason).
func TestAttachedFileInAGrantedFolderStaysReadableAfterAnEdit(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "projects", "plan.md"), "first plan")
	conv, res := callTurn(t, a, m, 0, []string{doc}, "fs_read", map[string]any{"path": doc})
	if res.IsError || !strings.Contains(res.Text, "first plan") {
		t.Fatalf("fs_read of the attached file: %q", res.Text)
	}
	_, res = callTurn(t, a, m, conv, nil, "fs_write", map[string]any{"path": doc, "content": "second plan"})
	if res.IsError {
		t.Fatalf("fs_write in the granted folder: %q", res.Text)
	}
	_, res = callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": doc})
	if res.IsError || !strings.Contains(res.Text, "second plan") {
		t.Errorf("fs_read of the attached file in a granted folder after an edit: %q (error %v); want the file as it is now", res.Text, res.IsError)
	}

	// Outside the folders a new version still ends the allowance, saying why.
	out := write(t, filepath.Join(home, "Documents", "memo.txt"), "first memo")
	conv, _ = callTurn(t, a, m, conv, []string{out}, "fs_read", map[string]any{"path": out})
	// Saved as editors save: a new file renamed over (a new inode, so
	// no dependence on the ctime's granularity).
	if err := os.Rename(write(t, out+".new", "second memo"), out); err != nil {
		t.Fatal(err)
	}
	_, res = callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": out})
	if !res.IsError || strings.Contains(res.Text, "second memo") || !strings.Contains(res.Text, "attach it again") {
		t.Errorf("fs_read of an attached file outside the folders after an edit: %q (error %v); want the attachment's refusal", res.Text, res.IsError)
	}
}

// The fallback to the plugin widens nothing: an attached file in a granted
// folder swapped for a link to a key, to a store no list names, or to
// Wrasse's database, or for a hard link to its settings, is refused by
// the attachment and then by the plugin's own rules. (A hard link to the key is read by the plugin, attached or
// not: TestGrantedFolderHardLinkToKeyReadByThePlugin.)
func TestAttachedFileInAGrantedFolderSwappedForSecrets(t *testing.T) {
	a, m, home := attackHome(t)
	purple := write(t, filepath.Join(home, ".purple", "accounts.xml"), "<password>TOPSECRET</password>")
	for _, tt := range []struct {
		name string
		swap func(t *testing.T, doc string)
	}{
		{"a link to the key", func(t *testing.T, doc string) { relink(t, sshKey(home), doc) }},
		{"a link to pidgin's accounts", func(t *testing.T, doc string) { relink(t, purple, doc) }},
		{"a link to the database", func(t *testing.T, doc string) { relink(t, filepath.Join(a.ws.Root, "wrasse.db"), doc) }},
		{"a hard link to the settings", func(t *testing.T, doc string) {
			cfg := filepath.Join(a.ws.Root, "config.json")
			if _, err := os.Stat(cfg); err != nil {
				write(t, cfg, `{"model":"TOPSECRET-settings"}`)
			}
			if err := os.Remove(doc); err != nil {
				t.Fatal(err)
			}
			mkHardLink(t, cfg, doc)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := write(t, filepath.Join(home, "projects", "p-"+strings.ReplaceAll(tt.name, " ", "-")+".txt"), "the plan")
			conv, res := callTurn(t, a, m, 0, []string{doc}, "fs_read", map[string]any{"path": doc})
			if res.IsError || !strings.Contains(res.Text, "the plan") {
				t.Fatalf("fs_read before the swap: %q", res.Text)
			}
			tt.swap(t, doc)
			_, res = callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": doc})
			if !res.IsError || strings.Contains(res.Text, "PRIVATE KEY") || strings.Contains(res.Text, "TOPSECRET") || strings.Contains(res.Text, "bolt") || strings.Contains(res.Text, `"model"`) {
				t.Errorf("fs_read of the attached file swapped for %s: %q (error %v); want a refusal", tt.name, res.Text, res.IsError)
			}
		})
	}
}

// A hard link in a granted folder to ~/.ssh/id_ed25519 is another path
// to the key, which the sandbox keeps unreadable by its own path: any of
// the person's processes outside a sandbox may plant one (a build script,
// a `cp -al` backup into the project; a sandboxed command cannot). The
// file API compares a file with other names with the person's credential
// files (sdk.Env.Credentials, from App.pluginProtected), so fs_read in
// any conversation refuses it, naming the key.
func TestGrantedFolderHardLinkToKeyReadByThePlugin(t *testing.T) {
	a, m, home := attackHome(t)
	doc := mkHardLink(t, sshKey(home), filepath.Join(home, "projects", "notes.txt"))
	_, res := callTurn(t, a, m, 0, nil, "fs_read", map[string]any{"path": doc})
	if !res.IsError || strings.Contains(res.Text, "PRIVATE KEY") || !strings.Contains(res.Text, "id_ed25519") {
		t.Errorf("fs_read of %s, a hard link to ~/.ssh/id_ed25519 in a granted folder: %q (error %v); want a refusal naming the key", doc, res.Text, res.IsError)
	}
}
