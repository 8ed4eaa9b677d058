package chat

import (
	"fmt"
	"regexp"
	"testing"

	"fyne.io/fyne/v2/test"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
)

// TestVersionSwitchOnMessage: an edit then a regenerate give the message
// ‹ 3 / 3 ›; its arrows show the other versions, with what followed
// each, and the control is there again after the conversation reopens.
func TestVersionSwitchOnMessage(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("ferns are old"))
	h.send("tell me about ferns")
	h.idle()
	h.model.Reply(pt.Text("by spores"))
	h.send("how do they spread")
	h.idle()
	if s := h.versionSwitch(); s != nil {
		t.Fatal("a message with one version shows a version switch")
	}

	h.chat.beginEdit(h.rowsOf(rowUser)[0])
	h.model.Reply(pt.Text("mosses are older"))
	h.send("tell me about mosses")
	h.idle()
	if s := h.versionSwitch(); s == nil || s.label.Text != "2 / 2" {
		t.Fatalf("after an edit the message shows %v; want 2 / 2", h.switchText())
	}
	id := h.chat.Current()
	if c, _ := h.core.History().GetConversation(id); c.Title != "tell me about mosses" {
		t.Errorf("the title after editing the first message is %q; want it to follow", c.Title)
	}
	h.model.Reply(pt.Text("mosses are very old"))
	test.Tap(h.regenButton())
	h.idle()
	s := h.versionSwitch()
	if s == nil || s.label.Text != "3 / 3" || !s.next.Disabled() || s.prev.Disabled() {
		t.Fatalf("after a regenerate the message shows %v; want 3 / 3 with only ‹", h.switchText())
	}

	steps := []struct {
		back   bool
		label  string
		shows  []string
		hidden []string
	}{
		{true, "2 / 3", []string{"mosses are older"}, []string{"mosses are very old", "by spores"}},
		{true, "1 / 3", []string{"tell me about ferns", "ferns are old", "how do they spread", "by spores"}, []string{"mosses"}},
		{false, "2 / 3", []string{"tell me about mosses", "mosses are older"}, []string{"ferns", "by spores"}},
	}
	for _, st := range steps {
		b := h.versionSwitch().next
		if st.back {
			b = h.versionSwitch().prev
		}
		test.Tap(b)
		h.until("the switch to "+st.label, func() bool { return h.versionSwitch() != nil && h.versionSwitch().label.Text == st.label })
		h.idle()
		for _, want := range st.shows {
			if !h.shows(want) {
				t.Errorf("on %s the window does not show %q:\n%s", st.label, want, h.texts())
			}
		}
		for _, gone := range st.hidden {
			if h.shows(gone) {
				t.Errorf("on %s the window still shows %q", st.label, gone)
			}
		}
	}
	// What the store has live is what shows, and it lasts a reopen.
	if evs := h.stored(id); len(evs) < 2 || evs[0].Text != "tell me about mosses" || evs[0].Type != store.EventUserMessage {
		t.Fatalf("stored live events %+v", evs)
	}
	h.chat.NewConversation()
	h.chat.Open(id)
	if s := h.versionSwitch(); s == nil || s.label.Text != "2 / 3" {
		t.Fatalf("reopened, the message shows %v; want 2 / 3", h.switchText())
	}
}

// versionSwitch is the shown ‹ n / m › of a message, or nil.
func (h *harness) versionSwitch() *versionSwitch {
	for _, o := range h.visible() {
		if rv, ok := o.(*rowView); ok && rv.msg != nil && rv.shown == rv.msg.col && rv.msg.vsw.box.Visible() {
			return rv.msg.vsw
		}
	}
	return nil
}

func (h *harness) switchText() string {
	if s := h.versionSwitch(); s != nil {
		return s.label.Text
	}
	return "no switch"
}

// TestExportShowsOtherVersions: the Markdown export has the versions not
// shown, collapsed, before the one shown, which is marked.
func TestExportShowsOtherVersions(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("ferns are old"))
	h.send("tell me about ferns")
	h.idle()
	h.chat.beginEdit(h.rowsOf(rowUser)[0])
	h.model.Reply(pt.Text("mosses are older"))
	h.send("tell me about mosses")
	h.idle()
	h.model.Reply(pt.Text("mosses are very old"))
	test.Tap(h.regenButton())
	h.idle()
	var out bufCloser
	done := false
	h.chat.export(h.chat.Current(), "Plants", &out, func(err error) {
		if err != nil {
			t.Error(err)
		}
		done = true
	})
	h.until("the export", func() bool { return done })
	want := `# Plants

<details>
<summary>Version 1 of 3 (not shown)</summary>

### You · X

tell me about ferns

### Wrasse (fake-model) · X

ferns are old

</details>

<details>
<summary>Version 2 of 3 (not shown)</summary>

### You · X

tell me about mosses

### Wrasse (fake-model) · X

mosses are older

</details>

*Version 3 of 3, the one shown:*

## You · X

tell me about mosses

## Wrasse (fake-model) · X

mosses are very old
`
	if got := stampRE.ReplaceAllString(out.String(), "· X"); got != want {
		t.Errorf("export:\n%s\nwant:\n%s", got, want)
	}
}

var stampRE = regexp.MustCompile(`· \d{4}-\d\d-\d\d \d\d:\d\d`)

// TestVersionSwitchKeepsTheViewOnTheMessage: in a conversation taller
// than the view, switching the versions of the message at the top of the
// view shows that message where it was, not the end.
func TestVersionSwitchKeepsTheViewOnTheMessage(t *testing.T) {
	h := newHarness(t)
	ask := func(q string) {
		h.model.Reply(pt.Text("an answer to " + q + "\n\nwith a second paragraph\n\nand a third"))
		h.send(q)
		h.idle()
	}
	for i := range 12 {
		ask(fmt.Sprintf("question %d", i))
	}
	h.chat.beginEdit(h.rowsOf(rowUser)[2])
	ask("question 2, edited")
	for i := range 10 {
		ask(fmt.Sprintf("question %d after the edit", i))
	}
	edited := h.rowsOf(rowUser)[2]
	h.chat.list.list.ScrollToOffset(h.chat.list.top(h.chat.cur.index(edited)))
	if a := h.chat.list.anchorTop(); a.seq != edited.seq {
		t.Fatalf("the test could not put the edited message at the top (%+v)", a)
	}
	h.chat.switchVersion(edited, 1)
	h.idle()
	if n := len(h.rowsOf(rowUser)); n != 12 || h.rowsOf(rowUser)[2].text != "question 2" {
		t.Fatalf("%d messages after switching back; want the 12 of version 1", n)
	}
	top := h.chat.list.anchorTop()
	if r := h.chat.rowAt(h.chat.rowIndex(rowKey{seq: top.seq})); r == nil || r.text != "question 2" || top.delta != 0 {
		t.Fatalf("the view's top is %+v (%+v); want the switched message", top, r)
	}
}
