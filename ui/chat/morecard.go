package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// moreCard is the bar under a long message whose later pieces are not
// shown: how much is, Show more and Show all. The whole message is on the
// Copy button of its first row whatever is shown.
type moreCard struct {
	c     *Chat
	quiet bool
	r     *row
	col   *column
	text  *wrapText
	more  *widget.Button
	all   *widget.Button
}

func newMoreCard(c *Chat) *moreCard {
	m := &moreCard{c: c}
	m.text = newWrapText("", fyne.TextStyle{Italic: true}, theme.ColorNamePlaceHolder)
	m.more = widget.NewButtonWithIcon("Show more", theme.MoreHorizontalIcon(), func() { c.showMore(m.r, false) })
	m.all = widget.NewButtonWithIcon("Show all", theme.MenuExpandIcon(), func() { c.showMore(m.r, true) })
	m.more.Importance, m.all.Importance = widget.LowImportance, widget.LowImportance
	m.col = newColumn("", m.text, container.NewHBox(m.more, m.all, layout.NewSpacer()))
	m.col.trimTop = true
	return m
}

func (m *moreCard) bind(r *row) {
	m.r = r
	m.text.setText(r.text, m.quiet)
	if !m.quiet {
		m.col.Refresh()
	}
}
