package elicit

import (
	"context"
	"encoding/json"
	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// everything is the MCP reference server's entry point, installed once
// by mcptest.
func everything(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a node server")
	}
	path := mcptest.Everything(t)
	return path
}

// TestLiveElicitation answers the reference server's questions through
// the window's dialog: its trigger-elicitation-request tool asks with a
// form of every field kind the spec has (its multiple choices too) and
// reports the answer it got.
func TestLiveElicitation(t *testing.T) {
	server := everything(t)
	w := window(t)
	do := serial()
	a := &Asker{Do: do}
	a.SetWindow(w)
	dialogs := make(chan *Dialog, 1)
	a.shown = func(d *Dialog) { dialogs <- d }

	ws := t.TempDir()
	dir := filepath.Join(cerebellum.CapabilitiesDir(ws), "everything")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: everything\ndescription: The MCP reference server's test tools.\nmcp:\n  command: node\n  args: [" + server + "]\n---\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	loader := mcp.NewLoader(mcp.Options{Asker: a})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader},
		Catalogs: &cerebellum.MemoryCatalogs{}, Settings: &cerebellum.MemorySettings{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Close() })
	if err := manage.New(reg, manage.Options{}).Enable("everything", nil); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := reg.Start(ctx, "everything"); err != nil {
		t.Fatalf("start: %v", err)
	}
	ask := func() (chan cerebellum.Result, *Dialog) {
		got := make(chan cerebellum.Result, 1)
		go func() {
			res, err := reg.Call(ctx, nil, "everything__trigger-elicitation-request", json.RawMessage(`{}`))
			if err != nil {
				res = cerebellum.Result{IsError: true, Content: err.Error()}
			}
			got <- res
		}()
		return got, <-dialogs
	}

	t.Run("accept", func(t *testing.T) {
		got, d := ask()
		do(func() {
			f := d.Form
			if fl := f.field("name"); fl == nil || !fl.f.Required {
				t.Error("the required name is not marked required")
			}
			if got := f.field("integer").entry.Text; got != "42" {
				t.Errorf("integer shows %q, want its default 42", got)
			}
			test.Tap(d.Accept) // name is required and empty: refused
			if !f.field("name").msg.Visible() {
				t.Error("accepting without the required name was not refused")
			}
			test.Type(f.field("name").entry, "Ada Lovelace")
			f.field("integer").entry.SetText("7")
			test.Tap(f.field("check").check)
			f.field("titledSingleSelectEnum").pick.SetSelected("Wonder Woman")
			test.Tap(d.Accept)
		})
		res := <-got
		for _, want := range []string{"User provided the requested information", "Name: Ada Lovelace", "Favorite Integer: 7", "Agreed to terms: true",
			`"titledSingleSelectEnum": "hero-3"`, `"untitledMultipleSelectEnum": [`} {
			if !strings.Contains(res.Content, want) {
				t.Errorf("the server's report lacks %q:\n%s", want, res.Content)
			}
		}
	})
	for _, tc := range []struct {
		name string
		tap  func(*Dialog) func()
		want string
	}{
		{"decline", func(d *Dialog) func() { return func() { test.Tap(d.Decline) } }, "User declined"},
		{"cancel", func(d *Dialog) func() { return func() { test.Tap(d.Cancel) } }, "User cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, d := ask()
			do(tc.tap(d))
			if res := <-got; !strings.Contains(res.Content, tc.want) {
				t.Errorf("the server's report lacks %q:\n%s", tc.want, res.Content)
			}
		})
	}
}
