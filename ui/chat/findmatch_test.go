package chat

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// TestFindStepsThroughOccurrences: find counts occurrences, not
// messages; Next and Previous go from one occurrence to the next inside
// one tall reply, scroll it so the one found is in view, and mark it as
// the current one.
func TestFindStepsThroughOccurrences(t *testing.T) {
	h := newHarness(t)
	var b strings.Builder
	for i := range 160 {
		switch i {
		case 10, 80, 150:
			fmt.Fprintf(&b, "Paragraph %d has the Needle in it.\n\n", i)
		default:
			fmt.Fprintf(&b, "Paragraph %d is hay.\n\n", i)
		}
	}
	h.model.Reply(pt.Text(b.String()))
	h.send("a needle in a haystack, please")
	h.idle()

	h.chat.ShowFind()
	test.Type(h.chat.find.entry, "needle")
	reply := h.rowsOf(rowAssistant)[0]
	view := h.chat.list.list.Size().Height
	for _, st := range []struct {
		count string
		row   *row
		n     int
	}{
		{"4 of 4", reply, 2},
		{"3 of 4", reply, 1},
		{"2 of 4", reply, 0},
		{"1 of 4", h.rowsOf(rowUser)[0], 0},
	} {
		f := h.chat.find
		if got := f.count.Text; got != st.count {
			t.Fatalf("count %q, want %q", got, st.count)
		}
		if f.lit != st.row || f.litN != st.n || h.chat.list.highlight != st.row {
			t.Fatalf("%s: lit occurrence %d of %p (highlight %p), want %d of %p", st.count, f.litN, f.lit, h.chat.list.highlight, st.n, st.row)
		}
		i := h.chat.cur.index(st.row)
		y := h.chat.list.top(i) + h.chat.list.matchOffset(i, "needle", st.n)
		off := h.chat.list.list.GetScrollOffset()
		if y < off || y > off+view {
			t.Errorf("%s: the match at %.0f is out of the view [%.0f, %.0f]", st.count, y, off, off+view)
		}
		v := h.rowViewOf(st.row)
		if v == nil {
			t.Fatalf("%s: the row of the match is not shown", st.count)
		}
		if st.row == reply {
			if marked, current := markedFlows(v); marked != 3 || current != 1 {
				t.Errorf("%s: %d occurrences marked, %d as current; want 3 and 1", st.count, marked, current)
			}
		} else if v.msg.user.current != 0 {
			t.Errorf("%s: the message marks occurrence %d as current, want 0", st.count, v.msg.user.current)
		}
		f.prev()
	}
	// Past the first, Previous goes round to the last.
	if got := h.chat.find.count.Text; got != "4 of 4" {
		t.Errorf("count %q after going round, want 4 of 4", got)
	}
}

// markedFlows counts the find marks drawn in a reply's texts (the
// rectangles of the marks' colours), and how many are the current one.
func markedFlows(v *rowView) (marked, current int) {
	th := v.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	others := withAlpha(th.Color(theme.ColorNameWarning, variant), 0x66)
	cur := withAlpha(th.Color(theme.ColorNamePrimary, variant), 0xaa)
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *canvas.Rectangle:
			switch x.FillColor {
			case others:
				marked++
			case cur:
				marked++
				current++
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(v.msg.md)
	return marked, current
}

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}
