package assistant

// Attacks on reading attached files (attachread.go), by helper a14: each
// test here FAILS on the code it was written against (main at c2f8bc7),
// showing a way around the promise that only exactly the file the person
// attached is read, and never their credentials.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// attackTurn runs a turn in conversation id (0: a new one) attaching
// files, in which the model calls fs_read with args. It returns the turn's
// error and, when the turn ran, the call's result as stored.
func attackTurn(t *testing.T, a *App, m *providertest.Model, id store.ID, files []string, args map[string]any) (store.ID, store.Event, error) {
	t.Helper()
	raw, _ := json.Marshal(args)
	m.Reply(providertest.ToolCall("fs_read", string(raw)))
	m.Reply(providertest.Text("Read."))
	id, err := a.Turn(context.Background(), id, "Look at the file.", TurnOptions{Files: files})
	if err != nil {
		return id, store.Event{}, err
	}
	evs, err := a.db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == store.EventToolResult {
			return id, evs[i], nil
		}
	}
	t.Fatalf("the turn in %s stored no tool result", id)
	return id, store.Event{}, nil
}

// sshKey is the private key fakeHome writes.
func sshKey(home string) string { return filepath.Join(home, ".ssh", "id_ed25519") }

// attackHome is attachHome with $HOME set to the fake home, as it is in
// production: the gate's private paths (gate.CredentialStores, relative
// to os.UserHomeDir) then cover the fake home's ~/.ssh and ~/.aws, so
// what these tests show gets past the gate too.
func attackHome(t *testing.T) (*App, *providertest.Model, string) {
	t.Helper()
	a, home, _, _ := attachHome(t)
	t.Setenv("HOME", home)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "gpt-test")
	return a, m, home
}

// The window reads a file into its chip when it is attached
// (ReadAttachment) and passes only its path when the message is sent
// (TurnOptions.Files), where attachedFiles resolves the path's links
// again. A process that can write in the folder the file came from
// (~/Downloads: a browser, a sync client, a sandboxed tool granted that
// folder) swaps the file for a symbolic link to a credential file while
// the person types: the message carries the harmless text the chip read,
// but the conversation records the credential as the attached file, and
// the model's fs_read of the harmless path returns it. The sandbox keeps
// these files (plugins/sandbox credentialFiles) unreadable to every tool
// whatever is granted; the gate asks before a call naming ~/.ssh or
// ~/.aws (also through a link), but its list (gate.CredentialStores) is
// shorter than the sandbox's, so these pass without a question. The fix:
// carry what the chip read (real path and device/inode) from
// ReadAttachment to the turn and refuse a file whose resolution changed
// since; and refuse (or ask for) a Real among the sandbox's credential
// paths unless the person named it directly.
func TestAttackAttachSwappedForCredentialLinkBeforeSend(t *testing.T) {
	for _, cred := range []string{".claude/.credentials.json", ".config/sops/age/keys.txt", ".cache/huggingface/token"} {
		// (~/.config/gh/hosts.yml, ~/.ssh and ~/.aws are held here: the gate asks.)
		t.Run(cred, func(t *testing.T) {
			a, m, home := attackHome(t)
			secret := write(t, filepath.Join(home, cred), "TOPSECRET-TOKEN")
			doc := write(t, filepath.Join(home, "Documents", "invoice.txt"), "harmless invoice text")
			chip, err := a.ReadAttachment(doc)
			if err != nil || !strings.Contains(chip.Text, "harmless invoice text") {
				t.Fatalf("the chip's reading: %+v, %v", chip, err)
			}
			relink(t, secret, doc) // the swap, while the person types

			_, res, err := attackTurn(t, a, m, 0, []string{doc}, map[string]any{"path": doc})
			if err == nil && strings.Contains(res.Text, "TOPSECRET-TOKEN") {
				t.Errorf("fs_read of the attached %s returned ~/%s, which it was swapped for after the chip read it: %q", doc, cred, res.Text)
			}
		})
	}
}

// A file that is a symbolic link when the person attaches it is read by
// where it leads, and its content goes in the message: a README.txt in a
// downloaded archive or a cloned repository (both carry symbolic links)
// that leads to ~/.ssh/id_ed25519 or ~/.aws/credentials is attached as
// README.txt, and the chip shows only "README.txt · text · 11 B". No gate
// looks at a message, so the key goes to the model's provider as the
// person sends. The plugin refuses exactly this on a granted folder (sdk
// errCredentialLink: "name that file itself to read it"), and its sandbox
// never lets a tool read these files at all. (fs_read of README.txt
// afterwards is asked about by the gate for these two, which resolves the
// link; see the test above for credentials it does not know.) The fix:
// in attachedFile, when Real is not Path, refuse a Real that is a
// credential by name (credname.Is, as the SDK does) or lies among the
// sandbox's credential paths or the gate's private paths; say "attach the
// file itself if you mean to send it".
func TestAttackAttachLinkLeadsToSecrets(t *testing.T) {
	tests := []struct {
		name   string
		target func(t *testing.T, home string) string
		secret string // what must not come back
	}{
		{"ssh private key", func(t *testing.T, home string) string { return sshKey(home) }, "PRIVATE KEY"},
		{"aws credentials", func(t *testing.T, home string) string {
			return write(t, filepath.Join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = AWSSECRET\n")
		}, "AWSSECRET"},
		{"a project's .env", func(t *testing.T, home string) string {
			return write(t, filepath.Join(home, "projects", "shop", ".env"), "STRIPE_KEY=sk_live_SECRET\n")
		}, "sk_live_SECRET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _, home := attackHome(t)
			target := tt.target(t, home)
			readme := filepath.Join(home, "Documents", "repo", "README.txt")
			if err := os.MkdirAll(filepath.Dir(readme), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, readme); err != nil {
				t.Fatal(err)
			}
			if f, err := a.ReadAttachment(readme); err == nil && strings.Contains(f.Text, tt.secret) {
				t.Errorf("ReadAttachment(%s), a link to %s, read it into the message: %.80q", readme, target, f.Text)
			}
		})
	}
}

// What an attached path leads to is fixed by its real path only, not by
// the file found there: a process that can write in the attached file's
// folder replaces it with a hard link to ~/.ssh/id_ed25519 (same file
// system; no symbolic link anywhere, so sameAtRealPath passes, the SDK
// checks hard links only against Wrasse's own data, and the gate sees a
// plain path in Documents) and the next fs_read of the attached path in
// that conversation returns the private key. The fix: record the file's
// identity (device and inode) when it is attached and refuse a read that
// opens another file ("it was replaced since it was attached; attach it
// again"); and refuse a file with other names (nlink > 1) whose identity
// is that of a file in the sandbox's credential paths.
func TestAttackAttachReplacedByHardLinkToKey(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "Documents", "invoice.txt"), "harmless invoice text")
	args := map[string]any{"path": doc}
	conv, res, err := attackTurn(t, a, m, 0, []string{doc}, args)
	if err != nil || res.IsError || !strings.Contains(res.Text, "harmless invoice text") {
		t.Fatalf("fs_read before the swap: %q (error %v, %v)", res.Text, res.IsError, err)
	}
	if err := os.Remove(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(sshKey(home), doc); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	_, res, err = attackTurn(t, a, m, conv, nil, args)
	if err == nil && strings.Contains(res.Text, "PRIVATE KEY") {
		t.Errorf("fs_read of the attached %s, replaced by a hard link to the private key since, returned the key: %q", doc, res.Text)
	}
}
