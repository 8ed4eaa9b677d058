package chat

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// TestSelectTextInAMessage: Select text shows a reply as selectable
// text (its Markdown as written); a drag selects part of it and Ctrl+C
// copies that part; Done gives the rendered reply back.
func TestSelectTextInAMessage(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("Ferns **reproduce** by spores, not seeds.\n\nMosses do too."))
	h.send("how do ferns reproduce")
	h.idle()
	reply := h.rowsOf(rowAssistant)[0]
	v := h.rowViewOf(reply)
	if v == nil || v.msg.sel.Visible() {
		t.Fatal("the reply is not shown, or starts in select mode")
	}
	test.Tap(v.msg.selBtn)
	v = h.rowViewOf(reply)
	l := v.msg.sel
	if !l.Visible() || v.msg.md.Visible() || !l.Selectable || l.Text != reply.text || v.msg.selBtn.Text != "Done" {
		t.Fatalf("select mode: label shown %v (%q), Markdown shown %v, button %q", l.Visible(), l.Text, v.msg.md.Visible(), v.msg.selBtn.Text)
	}
	// The row is as tall as the selectable text needs.
	if got, want := v.msg.col.Size().Height, v.msg.col.heightFor(v.msg.col.Size().Width); got != want || l.Size().Height < l.MinSize().Height {
		t.Errorf("row height %v, want %v; label %v for %v", got, want, l.Size(), l.MinSize())
	}

	// A drag across the first words, as the mouse does.
	sel := selectableOf(t, l)
	pad := l.Theme().Size(theme.SizeNameInnerPadding)
	start := fyne.NewPos(pad+1, pad+4)
	end := start.AddXY(fyne.MeasureText("Ferns **reprod", l.Theme().Size(theme.SizeNameText), fyne.TextStyle{}).Width, 0)
	sel.(fyne.Draggable).Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: end}, Dragged: fyne.NewDelta(end.X-start.X, 0)})
	sel.(fyne.Draggable).DragEnd()
	got := l.SelectedText()
	if got == "" || got == l.Text || got[0] != 'F' {
		t.Fatalf("selected %q; want the first words", got)
	}
	h.win.Canvas().Focus(sel.(fyne.Focusable))
	sel.(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutCopy{})
	if clip := fyne.CurrentApp().Clipboard().Content(); clip != got {
		t.Errorf("Ctrl+C copied %q, want the selection %q", clip, got)
	}

	test.Tap(v.msg.selBtn)
	v = h.rowViewOf(reply)
	if v.msg.sel.Visible() || !v.msg.md.Visible() || v.msg.selBtn.Text != "Select text" {
		t.Error("Done does not give the rendered reply back")
	}
}

// selectableOf is the part of a selectable label that takes the mouse.
func selectableOf(t *testing.T, l *widget.Label) fyne.CanvasObject {
	t.Helper()
	for _, o := range test.WidgetRenderer(l).Objects() {
		if _, ok := o.(fyne.Draggable); ok {
			return o
		}
	}
	t.Fatal("the label has nothing to select with")
	return nil
}
