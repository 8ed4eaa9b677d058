package assistant

// Attacks on reading attached files that the code held when helper a14
// tried them (main at c2f8bc7): kept as guards, each passes today.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// callTurn runs a turn in conversation id attaching files, in which the
// model calls tool with args, approving every question (so what is held
// is held past the person's yes); it returns the conversation and the
// stored result.
func callTurn(t *testing.T, a *App, m *providertest.Model, id store.ID, files []string, tool string, args map[string]any) (store.ID, store.Event) {
	t.Helper()
	raw, _ := json.Marshal(args)
	return rawCallTurn(t, a, m, id, files, tool, string(raw))
}

// rawCallTurn is callTurn with the tool call's arguments as raw JSON, so
// that a model's odd JSON (a key twice, a key in another case) is sent as
// it is.
func rawCallTurn(t *testing.T, a *App, m *providertest.Model, id store.ID, files []string, tool, raw string) (store.ID, store.Event) {
	t.Helper()
	m.Reply(providertest.ToolCall(tool, raw))
	m.Reply(providertest.Text("Done."))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	id, err := a.Turn(ctx, id, "Look at the file.", TurnOptions{Files: files, Approver: approveAll})
	if err != nil {
		t.Fatalf("the turn calling %s: %v", tool, err)
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

// Spellings of the attached path other than the one attached (or its
// real path) are not answered by the core: they go to the plugin, which
// refuses them outside the granted folders. A spelling that cleans to the
// attached path reads the attached file, nothing else.
func TestAttackAttachHeldPathSpellings(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "Documents", "Report.txt"), "the attached report")
	conv, res := callTurn(t, a, m, 0, []string{doc}, "fs_read", map[string]any{"path": doc})
	if res.IsError || !strings.Contains(res.Text, "the attached report") {
		t.Fatalf("fs_read of the attached file: %q", res.Text)
	}
	write(t, filepath.Join(home, "Documents", "report.txt"), "another file") // differs only in case
	for _, p := range []string{
		"Documents/Report.txt",
		filepath.Join(home, "Documents", "report.txt"),
		filepath.Join(home, "Documents", "REPORT.TXT"),
		"/proc/self/root" + doc,
		filepath.Join(home, "Documents") + "/Re\u0301port.txt",
		filepath.Join(home, "Documents", "notes.txt"),
		filepath.Join(home, ".ssh", "id_ed25519"),
		filepath.Join(home, "Documents"),
	} {
		_, res := callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": p})
		if !res.IsError || strings.Contains(res.Text, "another file") || strings.Contains(res.Text, "PRIVATE KEY") || strings.Contains(res.Text, "notes") && !strings.Contains(res.Text, "notes.txt") {
			t.Errorf("fs_read of %q: %q (error %v); want a refusal", p, res.Text, res.IsError)
		}
	}
	for _, p := range []string{
		filepath.Join(home, "Documents", "..", "Documents", "Report.txt"),
		strings.Replace(doc, "/Documents/", "//Documents//", 1),
		doc + "/",
	} {
		_, res := callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": p})
		if strings.Contains(res.Text, "another file") {
			t.Errorf("fs_read of %q read another file: %q", p, res.Text)
		}
	}
}

// The other file tools are not answered for an attached file: writing,
// patching, listing its folder and grepping it go to the plugin and are
// refused outside the granted folders; the file is unchanged.
func TestAttackAttachHeldOtherTools(t *testing.T) {
	a, m, home := attackHome(t)
	doc := write(t, filepath.Join(home, "Documents", "report.txt"), "the attached report")
	conv, _ := callTurn(t, a, m, 0, []string{doc}, "fs_read", map[string]any{"path": doc})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"fs_write", map[string]any{"path": doc, "content": "overwritten"}},
		{"fs_patch", map[string]any{"path": doc, "search": "attached", "replace": "patched"}},
		{"fs_list", map[string]any{"path": filepath.Dir(doc)}},
		{"fs_grep", map[string]any{"path": doc, "pattern": "report"}},
		{"fs_find", map[string]any{"path": filepath.Dir(doc), "pattern": "*"}},
	} {
		_, res := callTurn(t, a, m, conv, nil, c.tool, c.args)
		if !res.IsError || strings.Contains(res.Text, "notes.txt") {
			t.Errorf("%s on the attached file: %q (error %v); want a refusal", c.tool, res.Text, res.IsError)
		}
	}
	if b, _ := os.ReadFile(doc); string(b) != "the attached report" {
		t.Errorf("the attached file became %q", b)
	}
}

// A folder named in TurnOptions.Files is recorded but answers nothing
// beneath it; a pipe or a huge sparse file put in the attached file's
// place is refused without hanging; line numbers past the int range are
// clamped (or refused by the tool's schema, as extra arguments are).
func TestAttackAttachHeldOddFiles(t *testing.T) {
	a, m, home := attackHome(t)
	dir := filepath.Join(home, "Documents")
	conv, res := callTurn(t, a, m, 0, []string{dir}, "fs_read", map[string]any{"path": filepath.Join(dir, "notes.txt")})
	if !res.IsError || strings.Contains(res.Text, "\tnotes") {
		t.Errorf("fs_read beneath an attached folder: %q (error %v)", res.Text, res.IsError)
	}

	doc := write(t, filepath.Join(home, "Documents", "report.txt"), "line one\nline two\n")
	conv, _ = callTurn(t, a, m, conv, []string{doc}, "fs_read", map[string]any{"path": doc})
	for _, args := range []map[string]any{
		{"path": doc, "start_line": 1e300},
		{"path": doc, "start_line": 9.3e18, "end_line": 9.3e18},
		{"path": doc, "start_line": 2, "end_line": 1e19},
		{"path": doc, "extra": map[string]any{"path": "/etc/passwd"}},
	} {
		_, res := callTurn(t, a, m, conv, nil, "fs_read", args)
		if strings.Contains(res.Text, "root:") {
			t.Errorf("fs_read %v: %q", args, res.Text)
		}
	}

	if err := os.Remove(doc); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(doc, 0o600); err != nil {
		t.Skipf("no fifo: %v", err)
	}
	if _, res := callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": doc}); !res.IsError {
		t.Errorf("fs_read of a pipe put in the attached file's place: %q", res.Text)
	}
	os.Remove(doc)
	f, err := os.Create(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		f.Close()
		t.Skipf("no sparse file: %v", err)
	}
	f.Close()
	// Refused as another file in its place (it is one), or as too large.
	if _, res := callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": doc}); !res.IsError || !strings.Contains(res.Text, "too large") && !strings.Contains(res.Text, "replaced since it was attached") {
		t.Errorf("fs_read of a 1 TB sparse file put in the attached file's place: %.200q", res.Text)
	}
}

// An attached file replaced after it was attached by a hard link to
// Wrasse's own data (config.json, a log) is refused: the SDK's guard
// compares what was opened with the protected files on every read.
func TestAttackAttachHeldHardLinkToWrasseDataLater(t *testing.T) {
	a, m, home := attackHome(t)
	ws := a.ws.Root
	logFile := write(t, filepath.Join(ws, "logs", "wrasse.log"), "a log line with a token")
	if _, err := os.Stat(filepath.Join(ws, "config.json")); err != nil {
		write(t, filepath.Join(ws, "config.json"), `{"model":"m"}`)
	}
	for _, target := range []string{filepath.Join(ws, "config.json"), logFile} {
		t.Run(filepath.Base(target), func(t *testing.T) {
			doc := write(t, filepath.Join(home, "Documents", "a-"+filepath.Base(target)+".txt"), "attached text")
			conv, res := callTurn(t, a, m, 0, []string{doc}, "fs_read", map[string]any{"path": doc})
			if res.IsError || !strings.Contains(res.Text, "attached text") {
				t.Fatalf("fs_read before the swap: %q", res.Text)
			}
			if err := os.Remove(doc); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(target, doc); err != nil {
				t.Skipf("no hard link: %v", err)
			}
			_, res = callTurn(t, a, m, conv, nil, "fs_read", map[string]any{"path": doc})
			if !res.IsError || strings.Contains(res.Text, "token") || strings.Contains(res.Text, `"model"`) {
				t.Errorf("fs_read of the attached file now a hard link to %s: %q (error %v)", target, res.Text, res.IsError)
			}
		})
	}
}
