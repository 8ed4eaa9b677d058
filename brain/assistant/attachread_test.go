package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/attach"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// attachHome is a home folder with the workspace inside it, the projects
// folder granted and a long text file in Documents, which is not: its
// line 20000 lies far beyond the 200 KB a message carries.
func attachHome(t *testing.T) (a *App, home, ws, doc string) {
	t.Helper()
	home = fakeHome(t)
	ws = filepath.Join(home, ".local", "share", "wrasse")
	a = openHome(t, ws, home)
	if _, err := a.GrantFolders(filepath.Join(home, "projects")); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 1; i <= 25000; i++ {
		fmt.Fprintf(&b, "line %05d of the report\n", i)
	}
	if b.Len() <= attach.MaxTextBytes {
		t.Fatalf("the document is %d bytes, not past the %d a message carries", b.Len(), attach.MaxTextBytes)
	}
	doc = filepath.Join(home, "Documents", "report.txt")
	if err := os.WriteFile(doc, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return a, home, ws, doc
}

// readTurn runs a turn in conversation id (0: a new one) attaching files,
// in which the model calls fs_read with args, and returns the
// conversation and the call's result as stored.
func readTurn(t *testing.T, a *App, m *providertest.Model, id store.ID, files []string, args map[string]any) (store.ID, store.Event) {
	t.Helper()
	raw, _ := json.Marshal(args)
	m.Reply(providertest.ToolCall("fs_read", string(raw)))
	m.Reply(providertest.Text("Read."))
	id, err := a.Turn(context.Background(), id, "Look at the file.", TurnOptions{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := a.db.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == store.EventToolResult {
			return id, evs[i]
		}
	}
	t.Fatalf("the turn in %s stored no tool result", id)
	return id, store.Event{}
}

// A file the person attaches is readable by the model's fs_read in that
// conversation, past the 200 KB the message carried, outside the granted
// folders and without granting its folder, also after a restart; the same
// call from another conversation is refused, saying why; and deleting the
// conversation takes the allowance with it. On main fs_read refused the
// file as outside the allowed folders.
func TestAttachedFileReadableInItsConversation(t *testing.T) {
	a, home, ws, doc := attachHome(t)
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "gpt-test")
	far := map[string]any{"path": doc, "start_line": 20000, "end_line": 20001}

	conv, res := readTurn(t, a, m, 0, []string{doc}, far)
	if res.IsError || !strings.Contains(res.Text, "line 20000 of the report") || !strings.Contains(res.Text, "line 20001 of the report") {
		t.Fatalf("fs_read of the attached file in its conversation: %q (error %v); want lines 20000-20001", res.Text, res.IsError)
	}
	if got := a.Folders(); len(got) != 1 || got[0] != filepath.Join(home, "projects") {
		t.Errorf("the granted folders became %v; attaching grants none", got)
	}

	other, res := readTurn(t, a, m, 0, nil, far)
	if !res.IsError || strings.Contains(res.Text, "line 20000") || !strings.Contains(res.Text, "attached to another conversation") {
		t.Errorf("fs_read of the file from another conversation: %q (error %v); want it refused, saying it was attached elsewhere", res.Text, res.IsError)
	}
	// Its folder is not granted with it: a neighbour stays out of reach.
	if _, res := readTurn(t, a, m, conv, nil, map[string]any{"path": filepath.Join(home, "Documents", "notes.txt")}); !res.IsError || strings.Contains(res.Text, "notes\n") {
		t.Errorf("fs_read of a file beside the attached one: %q (error %v); want it refused", res.Text, res.IsError)
	}

	// A restart keeps the allowance: it is stored with the conversation.
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	a = openHome(t, ws, home)
	useModel(t, a, m, "gpt-test")
	if _, res := readTurn(t, a, m, conv, nil, far); res.IsError || !strings.Contains(res.Text, "line 20000 of the report") {
		t.Fatalf("fs_read of the attached file after a restart: %q (error %v)", res.Text, res.IsError)
	}

	if err := a.DeleteConversation(context.Background(), conv); err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.Attached(conv); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the deleted conversation's attached files: %v; want them gone with it", err)
	}
	if _, res := readTurn(t, a, m, other, nil, far); !res.IsError || strings.Contains(res.Text, "line 20000") || strings.Contains(res.Text, "attached to another conversation") {
		t.Errorf("fs_read after the conversation was deleted: %q (error %v); want a plain refusal", res.Text, res.IsError)
	}
}

// What an attached path leads to is fixed when it is attached: a link
// swapped in at the file, or for a folder on its way, is not followed to
// Wrasse's database or anywhere else, and a link the person attached keeps
// leading to the file it led to then.
func TestAttachedFileLinksSwappedLater(t *testing.T) {
	tests := []struct {
		name string
		// attach makes the file to attach and returns its path; swap
		// changes things afterwards.
		attach func(t *testing.T, home, ws string) string
		swap   func(t *testing.T, home, ws, path string)
		want   string // in the result; a refusal when it is an error text
		err    bool
	}{
		{
			name: "the file replaced by a link to wrasse.db",
			attach: func(t *testing.T, home, ws string) string {
				return write(t, filepath.Join(home, "Documents", "a.txt"), "attached text")
			},
			swap: func(t *testing.T, home, ws, path string) {
				relink(t, filepath.Join(ws, "wrasse.db"), path)
			},
			want: "symbolic link", err: true,
		},
		{
			name: "the file replaced by a link to a file beside it",
			attach: func(t *testing.T, home, ws string) string {
				return write(t, filepath.Join(home, "Documents", "a.txt"), "attached text")
			},
			swap: func(t *testing.T, home, ws, path string) {
				relink(t, filepath.Join(home, "Documents", "notes.txt"), path)
			},
			want: "symbolic link", err: true,
		},
		{
			name: "its folder replaced by a link to the workspace's brain folder",
			attach: func(t *testing.T, home, ws string) string {
				return write(t, filepath.Join(home, "Documents", "brain", "identity.md"), "attached text")
			},
			swap: func(t *testing.T, home, ws, path string) {
				dir := filepath.Dir(path)
				if err := os.Rename(dir, dir+".old"); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(ws, "brain"), dir); err != nil {
					t.Fatal(err)
				}
			},
			want: "symbolic link", err: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, home, ws, _ := attachHome(t)
			m := providertest.NewModel(t, providertest.OpenAI)
			useModel(t, a, m, "gpt-test")
			path := tt.attach(t, home, ws)
			args := map[string]any{"path": path}
			conv, res := readTurn(t, a, m, 0, []string{path}, args)
			if res.IsError || !strings.Contains(res.Text, "attached text") {
				t.Fatalf("fs_read before the swap: %q (error %v)", res.Text, res.IsError)
			}
			tt.swap(t, home, ws, path)
			_, res = readTurn(t, a, m, conv, nil, args)
			if res.IsError != tt.err || !strings.Contains(res.Text, tt.want) {
				t.Errorf("fs_read after the swap: %q (error %v); want %q (error %v)", res.Text, res.IsError, tt.want, tt.err)
			}
			if strings.Contains(res.Text, "You are Wrasse") || strings.Contains(res.Text, "bolt") {
				t.Errorf("fs_read after the swap read Wrasse's own files: %q", res.Text)
			}
		})
	}
}

// Wrasse's own data cannot be attached: not its database, config.json or
// logs, nor a link or hard link to one. The window's reading refuses it
// with a message for the person, and a message that names one anyway
// fails its turn before anything is stored.
func TestAttachingWrasseDataIsRefused(t *testing.T) {
	a, home, ws, _ := attachHome(t)
	w := workspace.Workspace{Root: ws}
	logFile := write(t, filepath.Join(filepath.Dir(w.Log()), "wrasse.log"), "a log line")
	link := filepath.Join(home, "Documents", "settings.json")
	if err := os.Symlink(w.Config(), link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(home, "Documents", "copy.db")
	if err := os.Link(w.Database(), hard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Config()); err != nil {
		write(t, w.Config(), `{"model":"m"}`)
	}
	for _, p := range []string{w.Database(), w.Config(), logFile, link, hard} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			_, err := a.ReadAttachment(p)
			if !errors.Is(err, attach.ErrUnreadable) || !strings.Contains(err.Error(), "Wrasse's own data") {
				t.Errorf("ReadAttachment(%s): %v; want it refused as Wrasse's own data", p, err)
			}
			before, _ := a.db.ListConversations()
			_, err = a.Turn(context.Background(), 0, "Look at the file.", TurnOptions{Files: []string{p}})
			if err == nil || !strings.Contains(err.Error(), "Wrasse's own data") {
				t.Errorf("a turn attaching %s: %v; want it refused as Wrasse's own data", p, err)
			}
			if after, _ := a.db.ListConversations(); len(after) != len(before) {
				t.Errorf("the refused turn left a conversation behind")
			}
		})
	}
	// An ordinary file reads as attach.Read reads it.
	doc := write(t, filepath.Join(home, "Documents", "plain.txt"), "plain text")
	f, err := a.ReadAttachment(doc)
	if err != nil || f.Text != "plain text" || f.Path != doc {
		t.Errorf("ReadAttachment(%s) = %+v, %v", doc, f, err)
	}
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// relink replaces path with a symbolic link to target.
func relink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// A file that is itself a symbolic link is not attached, whatever it
// leads to (no list of where secrets live is complete: a browser's beta
// profile, a chat client's accounts): the message names the target to
// attach instead, and a link to Wrasse's own data says so.
func TestAttachingASymbolicLinkNamesItsTarget(t *testing.T) {
	a, home, ws, _ := attachHome(t)
	for _, target := range []string{
		write(t, filepath.Join(home, "Documents", "real.txt"), "attached text"),
		write(t, filepath.Join(home, ".config", "google-chrome-beta", "Default", "notes.txt"), "a saved password"),
		write(t, filepath.Join(home, ".purple", "accounts.xml"), "<password>hunter2</password>"),
	} {
		link := filepath.Join(home, "Downloads", "README-"+filepath.Base(target))
		if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		f, err := a.ReadAttachment(link)
		if !errors.Is(err, attach.ErrUnreadable) || !strings.Contains(err.Error(), "attach that file itself") || !strings.Contains(err.Error(), target) {
			t.Errorf("ReadAttachment(a link to %s) = %q, %v; want refused, naming the target", target, f.Text, err)
		}
		if _, err := a.Turn(context.Background(), 0, "see", TurnOptions{Files: []string{link}}); err == nil {
			t.Errorf("a turn attaching the link to %s ran", target)
		}
	}
	link := filepath.Join(home, "Downloads", "db-link")
	if err := os.Symlink(filepath.Join(ws, "wrasse.db"), link); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ReadAttachment(link); err == nil || !strings.Contains(err.Error(), "Wrasse's own data") {
		t.Errorf("a link to wrasse.db: %v; want refused as Wrasse's own data", err)
	}
	// The target itself, named by the person, is attached.
	if f, err := a.ReadAttachment(filepath.Join(home, "Documents", "real.txt")); err != nil || f.Text != "attached text" {
		t.Errorf("the target itself: %q, %v", f.Text, err)
	}
}
