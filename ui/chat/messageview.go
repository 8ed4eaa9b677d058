package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/markdown"
)

// messageView shows one message: who wrote it, its text (the user's as
// written, the assistant's rendered from Markdown) and its actions: Copy,
// and Edit on the user's messages or Regenerate on the last reply.
type messageView struct {
	c     *Chat
	quiet bool // the measuring row: set what decides the height only
	r     *row
	col   *column
	role  *widget.Label
	meta  *widget.Label
	copy  *widget.Button
	edit  *widget.Button
	regen *widget.Button
	user  *wrapText
	md    *markdown.View
	// length says a reply stopped at the length limit (lengthnote.go).
	length *lengthNote
}

func newMessageView(c *Chat) *messageView {
	v := &messageView{c: c}
	v.role = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.meta = widget.NewLabel("")
	v.meta.TextStyle.Italic = true
	v.copy = widget.NewButtonWithIcon("", theme.ContentCopyIcon(), nil)
	v.copy.OnTapped = func() { c.copyWithTick(v.r, v.copy) }
	v.edit = widget.NewButtonWithIcon("", theme.DocumentCreateIcon(), func() { c.beginEdit(v.r) })
	v.regen = widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), func() { c.regenerate() })
	for _, b := range []*widget.Button{v.copy, v.edit, v.regen} {
		b.Importance = widget.LowImportance
	}
	header := newHeaderRow(false, nil, []*widget.Label{v.role, v.meta}, v.edit, v.regen, v.copy)
	v.user = newWrapText("", fyne.TextStyle{}, theme.ColorNameForeground)
	v.md = markdown.NewView(markdown.Options{Copy: c.env.Copy, OpenURL: c.env.OpenURL, After: c.after})
	v.length = newLengthNote(c)
	v.col = newColumn("", header, v.user, v.md, v.length.box)
	v.col.measureWith(v.md, v.md.HeightFor)
	return v
}

func (v *messageView) bind(r *row, last bool) {
	v.r = r
	running := v.c.running(v.c.cur)
	if r.kind == rowUser {
		setLabel(v.role, "You", v.quiet)
		setLabel(v.meta, "", v.quiet)
		v.col.bgCol = theme.ColorNameInputBackground
		if v.col.bg == nil {
			v.col.bg = newRect()
		}
		v.user.setText(r.text, v.quiet)
		v.user.Show()
		v.md.Hide()
		setVisible(v.edit, !running)
		v.regen.Hide()
	} else {
		setLabel(v.role, "Wrasse", v.quiet)
		meta := r.model
		switch r.status {
		case store.StatusStreaming:
			meta = "writing…"
		case store.StatusInterrupted:
			meta = "interrupted"
		case store.StatusLength:
			meta = "stopped: length"
		}
		setLabel(v.meta, meta, v.quiet)
		v.col.bg = nil
		v.md.SetMarkdown(r.text)
		v.md.Show()
		v.user.Hide()
		v.edit.Hide()
		setVisible(v.regen, last && !running)
	}
	v.length.bind(r, last, running)
	if !v.quiet {
		v.col.Refresh()
	}
}

func (v *messageView) heightFor(width float32) float32 { return v.col.heightFor(width) }

// setLabel sets a label's text; only measuring, it sets the text without
// drawing it (a header wraps when its labels do not fit).
func setLabel(l *widget.Label, text string, quiet bool) {
	if quiet {
		l.Text = text
		return
	}
	l.SetText(text)
}

func setVisible(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}
