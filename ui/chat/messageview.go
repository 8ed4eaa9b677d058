package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/wrasse-app/wrasse/ui/tip"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/ui/markdown"
)

// messageView shows one message: who wrote it, its text (the user's as
// written, the assistant's rendered from Markdown) and its actions: Copy,
// and Edit on the user's messages or Regenerate on the last reply. A long
// message's later pieces (longtext.go) show their text alone, on rows of
// their own that follow its first without a gap.
type messageView struct {
	c      *Chat
	quiet  bool // the measuring row: set what decides the height only
	r      *row
	col    *column
	header *headerRow
	role   *widget.Label
	meta   *widget.Label
	copy   *tip.Button
	edit   *tip.Button
	regen  *tip.Button
	// vsw is ‹ 2 / 3 › on a message with versions (versions.go).
	vsw *versionSwitch
	// sel is the message as selectable text, selBtn what turns that on
	// and off (selecttext.go).
	sel    *widget.Label
	selBtn *widget.Button
	user   *wrapText
	md     *markdown.View
	// images are a user message's pictures (messagethumbs.go).
	images *messageImages
	// length says a reply stopped at the length limit (lengthnote.go).
	length *lengthNote
	// look is what decides the card's layout as last bound: what
	// changes it needs the whole card laid out and drawn again, anything
	// else only the part that changed (see bind).
	look messageLook
}

// messageLook is what of a message's card decides its layout.
type messageLook struct {
	bound, user, header, trimTop, trimBottom, edit, regen, length, cont, images bool
	vers                                                                        store.Version
	selecting                                                                   bool
}

func newMessageView(c *Chat) *messageView {
	v := &messageView{c: c}
	v.role = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.meta = widget.NewLabel("")
	v.meta.TextStyle.Italic = true
	v.copy = tip.NewButton("", theme.ContentCopyIcon(), "Copy this message", nil)
	v.copy.OnTapped = func() { c.copyWithTick(v.r, &v.copy.Button) }
	v.edit = tip.NewButton("", theme.DocumentCreateIcon(), "Edit this message and send it again (the old one is kept as a version)", func() { c.beginEdit(v.r) })
	v.regen = tip.NewButton("", theme.ViewRefreshIcon(), "Answer again (this reply is kept as a version)", func() { c.regenerate() })
	v.vsw = newVersionSwitch(v)
	v.sel = newSelectLabel()
	v.selBtn = widget.NewButton("Select text", func() { c.toggleSelect(v.r) })
	v.selBtn.Importance = widget.LowImportance
	header := newHeaderRow(false, nil, []*widget.Label{v.role, v.meta}, v.vsw.box, v.selBtn, v.edit, v.regen, v.copy)
	v.user = newWrapText("", fyne.TextStyle{}, theme.ColorNameForeground)
	var parser *markdown.Parser
	if c.list != nil {
		parser = c.list.parser
	}
	v.md = markdown.NewView(markdown.Options{Copy: c.env.Copy, OpenURL: c.env.OpenURL, After: c.after, Parsed: c.parsed, Parser: parser})
	v.header = header
	v.length = newLengthNote(c)
	v.images = newMessageImages()
	v.col = newColumn("", header, v.user, v.images.Object(), v.md, v.sel, v.length.box)
	v.col.measureWith(v.md, v.md.HeightFor)
	v.col.measureWith(v.sel, func(w float32) float32 { return labelHeight(v.sel, w) })
	return v
}

func (v *messageView) bind(r *row, last bool) {
	v.r = r
	running := v.c.running(v.c.cur)
	// A later piece of a long message has no header, and the rows of one
	// message meet without padding between them.
	setVisible(v.header, r.part == nil)
	v.col.trimTop = r.part != nil
	v.col.trimBottom = r.long != nil && r.span() > 0 || r.part != nil && !lastPiece(r)
	if r.kind == rowUser {
		setLabel(v.role, "You", v.quiet)
		setLabel(v.meta, "", v.quiet)
		v.col.bgCol = theme.ColorNameInputBackground
		if v.col.bg == nil {
			v.col.bg = newRect()
		}
		v.user.setText(r.body, v.quiet)
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
		v.md.SetMarkdown(r.body)
		v.md.Show()
		v.user.Hide()
		v.edit.Hide()
		setVisible(v.regen, last && !running)
	}
	v.vsw.bind(r, running, v.quiet)
	v.bindSelect(r)
	v.markFound(r)
	v.images.bind(r, v.c.imageSource(), v.quiet)
	v.length.bind(r, last, running)
	if r.span() > 0 {
		// Of a long reply the note would sit under its first piece; the
		// header's "stopped: length" says it.
		setVisible(v.length.box, false)
	}
	if v.quiet {
		return
	}
	look := messageLook{bound: true, user: r.kind == rowUser, header: v.header.Visible(), trimTop: v.col.trimTop,
		trimBottom: v.col.trimBottom, edit: v.edit.Visible(), regen: v.regen.Visible(),
		length: v.length.box.Visible(), cont: v.length.cont.Visible(), vers: r.vers, selecting: v.sel.Visible(),
		images: v.images.box.Visible()}
	if look != v.look {
		v.look = look
		v.col.Refresh()
		return
	}
	// Only text changed, and the text widgets redrew themselves: lay the
	// card out again for its new height, refreshing no label (a truncating
	// label shapes its text again at every refresh).
	(&headerRenderer{h: v.header}).Layout(v.header.Size())
	(&columnRenderer{c: v.col}).Layout(v.col.Size())
	canvas.Refresh(v.col)
}

// lastPiece reports whether piece row r is the last row of its message
// (no bar follows it).
func lastPiece(r *row) bool {
	l := r.part.head.long
	return l.more == nil && r.part.n == len(l.parts)
}

// setLabel sets a label's text; only measuring, it sets the text without
// drawing it (a header wraps when its labels do not fit).
func setLabel(l *widget.Label, text string, quiet bool) {
	if quiet {
		l.Text = text
		return
	}
	// The same text again would lay the label out again, and a truncating
	// label shapes its text anew each time: a row bound again when a turn
	// starts or ends, or scrolled back into view, costs nothing then.
	if l.Text != text {
		l.SetText(text)
	}
}

func setVisible(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}
