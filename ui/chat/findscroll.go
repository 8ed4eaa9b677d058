package chat

import "github.com/wrasse-app/wrasse/ui/markdown"

// Scrolling to a find match inside a row: a message taller than the view
// is scrolled so the occurrence found shows, not only its first lines.

// matchOffset is how far below the top of row i occurrence n of q (lower
// case) lies, measured at the list's width with its measuring row; 0 for
// a row that is not a message or has no such occurrence.
func (m *messageList) matchOffset(i int, q string, n int) float32 {
	r := m.c.rowAt(i)
	if r == nil || m.width <= 0 || q == "" || (r.kind != rowUser && r.kind != rowAssistant) {
		return 0
	}
	m.measurer.bind(r, m.c.isLast(i), false)
	v := m.measurer.msg
	if v == nil || m.measurer.shown != v.col {
		return 0
	}
	return v.matchOffset(m.width, q, n)
}

// showAt highlights row i and scrolls it into view (the list's show),
// then, when the match dy below its top would not show (a row taller
// than the view), on to put the match a third of the way down the view.
func (m *messageList) showAt(i int, dy float32) {
	m.show(i)
	if h := m.list.Size().Height; i >= 0 && h > 0 && dy > h*2/3 {
		m.list.ScrollToOffset(m.top(i) + dy - h/3)
	}
}

// matchOffset is how far below the card's top occurrence n of q lies in
// the message's text when the card is width wide.
func (v *messageView) matchOffset(width float32, q string, n int) float32 {
	top, _ := v.col.padding()
	pad, gap := v.col.pad(), v.col.gap()
	inner := max(width-2*pad, 1)
	if v.header.Visible() {
		top += v.col.partHeight(v.header, inner) + gap
	}
	if v.r != nil && v.r.kind == rowUser {
		lines := v.user.lines(inner)
		for i, l := range lines {
			k := len(markdown.FindSpans(l, q))
			if n < k {
				return top + float32(i)*v.user.lineHeight()
			}
			n -= k
		}
		return top
	}
	if y, ok := v.md.MarkOffset(q, n, inner); ok {
		return top + y
	}
	return top
}

// markFound marks the current find match in the message's text when its
// row shows it (the list outlines the row and marks a plain text's
// other occurrences).
func (v *messageView) markFound(r *row) {
	if v.quiet {
		return
	}
	q, n := v.c.find.markIn(r)
	if r.kind == rowUser {
		v.user.setCurrent(n, false)
		v.md.SetMark("", -1)
		return
	}
	v.user.setCurrent(-1, false)
	v.md.SetMark(q, n)
}
