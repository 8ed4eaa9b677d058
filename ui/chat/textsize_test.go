package chat

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// largeText is the default theme with its text sizes at 1.4 times, as the
// window's Ctrl+plus sets them.
type largeText struct{ fyne.Theme }

func (l largeText) Size(n fyne.ThemeSizeName) float32 {
	s := l.Theme.Size(n)
	if n == theme.SizeNameText {
		return s * 1.4
	}
	return s
}

// After the text size changes, the rows are measured again: a reply's row
// grows with its text instead of keeping the height it had (its lines
// would run over the next row).
func TestTextSizeChangeMeasuresRowsAgain(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("A reply long enough to take a few lines of the list at the usual text size, so that larger text needs more of them to show it whole."))
	h.send("hello")
	h.idle()
	replyRow := func() int {
		for i := range h.chat.rowCount() {
			if h.chat.rowAt(i).kind == rowAssistant {
				return i
			}
		}
		t.Fatal("no reply row")
		return -1
	}
	i := replyRow()
	before := h.chat.list.heightOf(i)
	fyne.CurrentApp().Settings().SetTheme(largeText{theme.DefaultTheme()})
	h.chat.TextSizeChanged()
	h.idle()
	if after := h.chat.list.heightOf(replyRow()); after <= before {
		t.Fatalf("the reply's row is %v high at the larger text, %v before: not measured again", after, before)
	}
}

// A wrapped text breaks its lines again at a new text size, not only at a
// new width: at a larger size the old breaks would run past the edge.
func TestWrapTextBreaksAgainAtANewTextSize(t *testing.T) {
	test.NewTempApp(t)
	w := newWrapText("one two three four five six seven eight nine ten eleven twelve", fyne.TextStyle{}, theme.ColorNameForeground)
	before := len(w.lines(200))
	fyne.CurrentApp().Settings().SetTheme(largeText{theme.DefaultTheme()})
	if after := len(w.lines(200)); after <= before {
		t.Fatalf("%d lines at the larger text, %d before: the old breaks were kept", after, before)
	}
}

// The sidebar's rows are measured again too: at the old height a larger
// title and detail would be clipped.
func TestTextSizeChangeMeasuresSidebarRowsAgain(t *testing.T) {
	h := newHarness(t)
	h.model.Reply(pt.Text("hello"))
	h.send("hi")
	h.idle()
	s := h.chat.sidebar
	before, beforeMin := s.rowH, s.rowMin
	fyne.CurrentApp().Settings().SetTheme(largeText{theme.DefaultTheme()})
	h.chat.TextSizeChanged()
	h.idle()
	if s.rowH <= before || s.rowMin.Height <= beforeMin.Height {
		t.Fatalf("sidebar rows %v high (reported %v) at the larger text, %v (%v) before: not measured again", s.rowH, s.rowMin, before, beforeMin)
	}
	if got := s.createRow().MinSize(); got != s.rowContent().MinSize() {
		t.Errorf("a row reports %v, its content measures %v", got, s.rowContent().MinSize())
	}
}
