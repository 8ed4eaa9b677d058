package chat

import (
	"context"
	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// withEverything adds the MCP reference server (server-everything,
// installed once by mcptest) to the harness's core as MCP server
// "everything".
func withEverything(t *testing.T, h *harness) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a node server")
	}
	dir := mcptest.Servers(t)
	entry := mcptest.ServerPath(dir, "server-everything")
	if _, err := h.core.GrantFolders(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := h.core.AddMCP(context.Background(), assistant.MCPServer{Name: "everything", MCPServer: skillmd.MCPServer{Command: "node", Args: []string{entry}}}, false); err != nil {
		t.Fatal(err)
	}
}

// yes approves every call.
var yes = gate.ApproverFunc(func(context.Context, gate.Request) (gate.Approval, error) { return gate.ApproveOnce, nil })

// typeKey presses a key in the composer.
func (h *harness) typeKey(k fyne.KeyName) {
	h.chat.composer.entry.TypedKey(&fyne.KeyEvent{Name: k})
}

// lastUserMessage is the text of the last message the model was sent.
func (h *harness) lastStoredUser() string {
	h.t.Helper()
	ev := h.stored(h.chat.Current())
	for i := len(ev) - 1; i >= 0; i-- {
		if ev[i].Type == store.EventUserMessage {
			return ev[i].Text
		}
	}
	h.t.Fatal("no user message stored")
	return ""
}

// menuShows says whether a visible entry of the composer's menu holds
// want (the entries' full texts: drawn, they are cut to the width).
func (h *harness) menuShows(want string) bool {
	for _, o := range h.visible() {
		if r, ok := o.(*menuRow); ok && strings.Contains(r.Text, want) {
			return true
		}
	}
	return false
}

// formEntry is the arguments form's entry with placeholder hint.
func (h *harness) formEntry(hint string) *widget.Entry {
	h.t.Helper()
	for _, o := range h.visible() {
		if e, ok := o.(*widget.Entry); ok && e.PlaceHolder == hint {
			return e
		}
	}
	h.t.Fatalf("no field %q in the form; the window shows:\n%s", hint, h.texts())
	return nil
}

func TestSlashListsPromptsAsksArgumentsAndInsertsTheMessages(t *testing.T) {
	h := newHarness(t)
	withEverything(t, h)
	e := h.chat.composer.entry
	h.win.Canvas().Focus(e)

	test.Type(e, "/")
	h.until("the prompts to be listed", func() bool {
		return h.menuShows("everything: args-prompt (Arguments Prompt) — A prompt with two arguments")
	})
	for _, want := range []string{"everything: simple-prompt (Simple Prompt) — A prompt with no arguments", "everything: resource-prompt"} {
		if !h.menuShows(want) {
			t.Errorf("the menu does not show %q; it shows:\n%s", want, h.texts())
		}
	}
	test.Type(e, "args")
	if h.menuShows("everything: simple-prompt") || !h.menuShows("everything: args-prompt") {
		t.Fatalf("typing narrowed nothing; the window shows:\n%s", h.texts())
	}
	h.typeKey(fyne.KeyReturn)
	// Its arguments are asked in the menu: city required, state not.
	if !h.shows("city *") || !h.shows("state") {
		t.Fatalf("no arguments form; the window shows:\n%s", h.texts())
	}
	test.Tap(h.button("Insert"))
	if !h.shows("fill in city") {
		t.Errorf("inserting without the required city said nothing; the window shows:\n%s", h.texts())
	}
	test.Type(h.formEntry("Name of the city"), "Lisbon")
	test.Tap(h.button("Insert"))
	h.until("the prompt's message in the composer", func() bool { return strings.Contains(e.Text, "Lisbon") })
	if h.chat.composer.menu.panel.Visible() {
		t.Error("the menu stays open after the prompt was inserted")
	}
	inserted := e.Text

	h.model.Reply(pt.Text("Sunny."))
	h.win.Canvas().Focus(e)
	h.typeKey(fyne.KeyReturn)
	h.idle()
	if got := h.lastStoredUser(); got != inserted || !strings.Contains(got, "weather") {
		t.Errorf("sent %q; want the prompt's message %q", got, inserted)
	}
}

func TestAtAttachesResourcesThatTravelWithTheMessage(t *testing.T) {
	h := newHarness(t)
	withEverything(t, h)
	e := h.chat.composer.entry
	h.win.Canvas().Focus(e)

	test.Type(e, "Compare @extension")
	h.until("the resources to be listed", func() bool {
		return h.menuShows("everything: extension.md <demo://resource/static/document/extension.md>")
	})
	h.typeKey(fyne.KeyReturn)
	if e.Text != "Compare " {
		t.Errorf("the mention stays in the message: %q", e.Text)
	}
	h.until("the chip to be read", func() bool { return h.shows("everything: extension.md · ") })

	// A template asks its variable; the + button starts a mention too.
	test.Tap(h.chat.composer.menu.plus)
	test.Type(e, "dynamic")
	h.until("the templates to be listed", func() bool { return h.menuShows("[template demo://resource/dynamic/blob/{resourceId}]") })
	h.typeKey(fyne.KeyDown)
	h.typeKey(fyne.KeyUp) // back to the first: the text template
	h.typeKey(fyne.KeyReturn)
	test.Type(h.formEntry("resourceId"), "4")
	test.Tap(h.button("Attach"))
	h.until("the template's chip to be read", func() bool { return h.shows("everything: demo://resource/dynamic/text/4 · ") })
	first := h.chat.composer.menu.list[1].contents[0].Text

	// The server says the subscribed resources changed: the chip is read
	// again and carries the new version.
	if out, err := h.core.CallTool(context.Background(), "everything__toggle-subscriber-updates", []byte(`{}`), yes); err != nil || out.Result.IsError {
		t.Fatalf("toggle-subscriber-updates = %+v, %v", out, err)
	}
	h.until("the chip to be updated", func() bool {
		return h.shows("demo://resource/dynamic/text/4 · ") && strings.Contains(h.texts(), "· updated")
	})
	latest := h.chat.composer.menu.list[1].contents[0].Text
	if latest == first && !strings.Contains(latest, "Resource 4") {
		t.Errorf("updated chip holds %q", latest)
	}

	test.Type(e, "and this.")
	h.model.Reply(pt.Text("They differ."))
	h.typeKey(fyne.KeyReturn)
	h.idle()
	sent := h.lastStoredUser()
	for _, want := range []string{
		"Compare and this.\n\n<resource server=\"everything\" uri=\"demo://resource/static/document/extension.md\" type=\"text/markdown\">\n",
		"<resource server=\"everything\" uri=\"demo://resource/dynamic/text/4\" type=\"text/plain\">\n" + strings.TrimRight(latest, "\n") + "\n</resource>",
	} {
		if !strings.Contains(sent, want) {
			t.Errorf("the sent message lacks %q:\n%.600s", want, sent)
		}
	}
	reqs := h.model.Requests()
	if len(reqs) == 0 || !strings.Contains(string(reqs[len(reqs)-1].Body), "demo://resource/dynamic/text/4") {
		t.Error("the model was not sent the attached resource")
	}
	if len(h.chat.composer.menu.list) != 0 || h.chat.composer.menu.chips.Visible() {
		t.Error("the chips stay after sending")
	}
}

func TestMenuEscapeAndTrigger(t *testing.T) {
	for _, tc := range []struct {
		text  string
		mode  menuMode
		query string
	}{
		{"/", menuPrompts, ""},
		{"/args p", menuPrompts, "args p"},
		{"/two\nlines", menuClosed, ""},
		{"hello", menuClosed, ""},
		{"mail me@example.com", menuClosed, ""},
		{"see @feat", menuResources, "feat"},
		{"@", menuResources, ""},
		{"see @feat and", menuClosed, ""},
	} {
		mode, _, q := trigger(tc.text)
		if mode != tc.mode || q != tc.query {
			t.Errorf("trigger(%q) = %v %q; want %v %q", tc.text, mode, q, tc.mode, tc.query)
		}
	}
	h := newHarness(t)
	e := h.chat.composer.entry
	h.win.Canvas().Focus(e)
	test.Type(e, "/")
	h.until("the menu to say no server offers prompts", func() bool { return h.shows("No enabled MCP server offers prompts.") })
	h.typeKey(fyne.KeyEscape)
	if h.chat.composer.menu.panel.Visible() || e.Text != "/" {
		t.Errorf("Esc: menu shown %v, text %q; want it closed and the text kept", h.chat.composer.menu.panel.Visible(), e.Text)
	}
}
