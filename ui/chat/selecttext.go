package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Selecting text inside a message. A reply is drawn as Markdown on
// Wrasse's own text widgets, and Fyne's RichText cannot be selected
// (fyne-io/fyne#5946), so Select text swaps the message for its text as
// written (a reply's Markdown source) in a selectable Label (Fyne 2.6+):
// drag to select, double-click a word, triple-click a line, Ctrl+C or the
// right-click menu to copy. Done gives the message back. One message at a
// time is in this mode; it ends when the conversation is shown anew.

// selectHead is the message row r belongs to (a long message's pieces
// share their message's mode).
func selectHead(r *row) *row {
	if r != nil && r.part != nil {
		return r.part.head
	}
	return r
}

// toggleSelect puts message r in select mode, or takes it out.
func (c *Chat) toggleSelect(r *row) {
	r = selectHead(r)
	if r == nil || (r.kind != rowUser && r.kind != rowAssistant) {
		return
	}
	prev := c.selecting
	c.selecting = r
	if prev == r {
		c.selecting = nil
	}
	from := -1
	for _, m := range []*row{prev, c.selecting} {
		if m == nil {
			continue
		}
		if i := c.cur.index(m); i >= 0 {
			for j := i; j <= i+m.span() && j < len(c.cur.rows); j++ {
				c.cur.rows[j].version++
			}
			if from < 0 || i < from {
				from = i
			}
		}
	}
	if from >= 0 {
		c.list.changed(from)
	}
}

// selecting reports whether row r shows its message as selectable text.
func (c *Chat) selectingRow(r *row) bool {
	return c.selecting != nil && selectHead(r) == c.selecting
}

// newSelectLabel is the selectable text of a message in select mode.
func newSelectLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	l.Hide()
	return l
}

// labelHeight is a wrapped label's height at width. A wrapped Label
// knows its height only once it has been given its width
// (fyne-io/fyne#5585), so it is given it first.
func labelHeight(l *widget.Label, width float32) float32 {
	if l.Text == "" {
		return 0
	}
	if l.Size().Width != width {
		l.Resize(fyne.NewSize(width, max(l.Size().Height, 1)))
	}
	return l.MinSize().Height
}

// bindSelect shows r in select mode or not: the selectable text in place
// of the message's own, and the button saying what it does.
func (v *messageView) bindSelect(r *row) {
	on := v.c.selectingRow(r)
	// Set even when only measuring: the label's height comes from its
	// own text layout, which SetText brings up to date.
	if on && v.sel.Text != r.body {
		v.sel.SetText(r.body)
	}
	if on {
		v.user.Hide()
		v.md.Hide()
		v.sel.Show()
	} else {
		v.sel.Hide()
	}
	text := "Select text"
	if on {
		text = "Done"
	}
	if v.quiet {
		v.selBtn.Text = text
	} else if v.selBtn.Text != text {
		v.selBtn.SetText(text)
	}
}
