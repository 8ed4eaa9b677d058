package chat

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/ui/tip"
)

// TestInstructionsFromHeader: the header's Instructions button edits the
// conversation's own instructions; they show as a banner at the top of
// the chat and reach the system prompt of its next turn.
func TestInstructionsFromHeader(t *testing.T) {
	h := newHarness(t)
	id := h.newConversation("hello")
	if h.chat.header.instructions.Disabled() || h.chat.header.banner.Visible() {
		t.Fatalf("after the first reply: button disabled %v, banner shown %v", h.chat.header.instructions.Disabled(), h.chat.header.banner.Visible())
	}
	h.instructionsEditor().SetText("Answer in French.\nBriefly.")
	test.Tap(h.button("Save"))
	h.until("the banner", func() bool { return h.chat.header.banner.Visible() })
	if !h.shows("Instructions: Answer in French. …") || h.chat.header.bannerText.Tip != "Answer in French.\nBriefly." {
		t.Errorf("banner %q tip %q", h.chat.header.bannerText.Text, h.chat.header.bannerText.Tip)
	}
	if c, _ := h.core.History().GetConversation(id); c.Instructions != "Answer in French.\nBriefly." {
		t.Errorf("stored %q", c.Instructions)
	}
	h.model.Reply(pt.Text("Bonjour."))
	h.send("hi again")
	h.idle()
	reqs := h.model.Requests()
	if sys := reqs[len(reqs)-1].System; !strings.Contains(sys, "Answer in French.\nBriefly.") {
		t.Errorf("the next turn's system prompt lacks them:\n%s", sys)
	}
	// Another conversation has none: no banner.
	h.chat.NewConversation()
	if h.chat.header.banner.Visible() {
		t.Error("the banner stays on a new conversation")
	}
	h.chat.Open(id)
	if !h.chat.header.banner.Visible() {
		t.Error("no banner back in the conversation")
	}
	// Set from elsewhere (the CLI): the banner follows.
	if err := h.core.SetConversationInstructions(id, ""); err != nil {
		t.Fatal(err)
	}
	h.until("the banner to go", func() bool { return !h.chat.header.banner.Visible() })
}

// instructionsEditor taps the header's Instructions button and returns
// the editor it opened.
func (h *harness) instructionsEditor() *widget.Entry {
	h.t.Helper()
	test.Tap(h.chat.header.instructions)
	for _, o := range h.visible() {
		if e, ok := o.(*widget.Entry); ok && e.MultiLine && strings.Contains(e.PlaceHolder, "this conversation") {
			return e
		}
	}
	h.t.Fatalf("no instructions editor; the window shows:\n%s", h.texts())
	return nil
}

// TestInstructionsBeforeTheFirstMessage: a new conversation takes
// instructions before anything is sent; they show at once, its first
// request has them, and the conversation keeps them.
func TestInstructionsBeforeTheFirstMessage(t *testing.T) {
	h := newHarness(t)
	if h.chat.header.instructions.Disabled() {
		t.Fatal("a conversation not created yet offers no instructions")
	}
	h.instructionsEditor().SetText("Answer in Welsh.")
	test.Tap(h.button("Save"))
	if !h.chat.header.banner.Visible() || !h.shows("Instructions: Answer in Welsh.") {
		t.Fatalf("no banner for the draft; the window shows:\n%s", h.texts())
	}
	// Another new conversation starts without them.
	h.chat.NewConversation()
	if h.chat.header.banner.Visible() {
		t.Fatal("the draft followed to another new conversation")
	}
	h.instructionsEditor().SetText("Answer in Welsh.")
	test.Tap(h.button("Save"))
	h.model.Reply(pt.Text("Shwmae."))
	h.send("hello")
	h.idle()
	reqs := h.model.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].System, "Answer in Welsh.") {
		t.Fatalf("%d requests; the first request's system prompt lacks the draft", len(reqs))
	}
	id := h.chat.cur.id
	if c, _ := h.core.History().GetConversation(id); id == 0 || c.Instructions != "Answer in Welsh." {
		t.Errorf("conversation %v keeps %q", id, c.Instructions)
	}
	if !h.chat.header.banner.Visible() || h.chat.cur.draftInstructions != "" {
		t.Errorf("after the first reply: banner %v, draft %q", h.chat.header.banner.Visible(), h.chat.cur.draftInstructions)
	}
}

// TestHeaderShowsConversationUsage: the header says the conversation's
// tokens in and out and their cost, with the cache in its tooltip.
func TestHeaderShowsConversationUsage(t *testing.T) {
	h := newHarness(t)
	h.chat.NewConversation()
	h.model.Reply(pt.Text("ok"), pt.Usage(1200, 30))
	h.send("count")
	h.idle()
	u := h.chat.header.usage
	h.until("the usage", func() bool { return u.Visible() })
	if !u.Visible() || !strings.HasPrefix(u.Text, "1.2k in · 30 out · ") {
		t.Fatalf("usage label %q (visible %v)", u.Text, u.Visible())
	}
	if !strings.Contains(u.Tip, "This conversation: 1.2k in") || !strings.Contains(u.Tip, "Settings → Usage") {
		t.Errorf("tooltip %q", u.Tip)
	}
	h.model.Reply(pt.Text("ok"), pt.Usage(800, 20))
	h.send("again")
	h.idle()
	h.until("the new usage", func() bool { return strings.HasPrefix(u.Text, "2k in") })
	if !strings.HasPrefix(u.Text, "2k in · 50 out") {
		t.Errorf("after a second reply: %q", u.Text)
	}
}

// TestHeaderLabelsAndTooltips: the strip and the context gauge are named,
// and every icon-only button of the header and the sidebar says what it
// does on hover.
func TestHeaderLabelsAndTooltips(t *testing.T) {
	h := newHarness(t)
	h.newConversation("hello")
	if !h.shows("Loaded:") {
		t.Error("the loaded strip has no label")
	}
	if w := h.chat.status.window.Text; !strings.HasPrefix(w, "Context ") {
		t.Errorf("the gauge's label %q", w)
	}
	for _, root := range []fyne.CanvasObject{h.chat.header.bar, h.chat.sidebar.object} {
		for _, o := range visibleUnder(root) {
			switch b := o.(type) {
			case *tip.Button:
				if b.Tip == "" {
					t.Errorf("button with icon %v has no tooltip", b.Icon.Name())
				}
			case *widget.Button:
				if b.Text == "" && b.Icon != nil {
					t.Errorf("icon-only button %v without a tooltip", b.Icon.Name())
				}
			}
		}
	}
	// Hovering shows the tip.
	find := h.chat.header.bar.(*fyne.Container).Objects[1].(*fyne.Container).Objects[3].(*tip.Button) // usage, picker, instructions, find
	find.MouseIn(nil)
	if !h.shows("Find in this conversation (Ctrl+F)") {
		t.Errorf("no tooltip shown on hover:\n%s", h.texts())
	}
	find.MouseOut()
	if h.shows("Find in this conversation (Ctrl+F)") {
		t.Error("the tooltip stays after the pointer left")
	}
}

// visibleUnder lists the visible objects under root.
func visibleUnder(root fyne.CanvasObject) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		out = append(out, o)
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(root)
	return out
}

// The export carries the conversation's instructions under its heading.
func TestExportCarriesInstructions(t *testing.T) {
	h := newHarness(t)
	id := h.newConversation("hello")
	if err := h.core.SetConversationInstructions(id, "Answer in French.\nBriefly."); err != nil {
		t.Fatal(err)
	}
	var out bufCloser
	var done bool
	h.chat.export(id, "Greeting", &out, func(err error) {
		if err != nil {
			t.Error(err)
		}
		done = true
	})
	h.until("the export", func() bool { return done })
	want := "# Greeting\n\n> **Instructions for this conversation**\n>\n> Answer in French.\n> Briefly.\n\n## You"
	if !strings.HasPrefix(out.String(), want) {
		t.Errorf("export starts\n%s\nwant\n%s", out.String()[:min(len(out.String()), 200)], want)
	}
}
