package markdown

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// copiedFor is how long a Copy button says "Copied" before it reverts.
const copiedFor = time.Second

// codeBlock is a fenced or indented code block: a tinted box with the
// language as a caption, a Copy button, and the code in monospace.
//
// Long lines wrap at the edge (after a space where one is near) rather than
// scroll: a horizontal scroller inside the chat's vertical list takes the
// mouse wheel whenever the pointer is over it (Fyne turns vertical wheel
// motion into horizontal scrolling for a wider-than-tall scroller), and its
// offset would be lost or carried to another message whenever the
// virtualised list recycles the row. Wrapping keeps every character visible
// and the row's height a pure function of its width.
type codeBlock struct {
	widget.BaseWidget

	code    string
	lang    string
	body    *textFlow
	caption *textFlow
	button  *widget.Button
	opts    *Options
	flips   int // counts taps so that only the latest one's timer reverts
}

func newCodeBlock(code, lang string, opts *Options) *codeBlock {
	c := &codeBlock{code: code, lang: lang, opts: opts}
	c.body = newTextFlow([]span{{text: code}}, theme.SizeNameText, 0.93)
	c.body.pre = true
	c.caption = newTextFlow([]span{{text: lang, muted: true}}, theme.SizeNameCaptionText, 0)
	c.button = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), c.copy)
	c.button.Importance = widget.LowImportance
	c.ExtendBaseWidget(c)
	return c
}

// copy puts the exact code on the clipboard and says so for a second.
func (c *codeBlock) copy() {
	c.opts.copy(c.code)
	c.flips++
	flip := c.flips
	c.button.SetText("Copied")
	c.button.SetIcon(theme.ConfirmIcon())
	c.opts.after(copiedFor, func() {
		if c.flips != flip {
			return // tapped again since; that tap's timer reverts
		}
		c.button.SetText("Copy")
		c.button.SetIcon(theme.ContentCopyIcon())
	})
}

func (c *codeBlock) metrics() (pad, header float32) {
	pad = theme.SizeForWidget(theme.SizeNameInnerPadding, c)
	return pad, c.button.MinSize().Height
}

func (c *codeBlock) heightFor(width float32) float32 {
	pad, header := c.metrics()
	return header + c.body.heightFor(max(width-2*pad, 1)) + pad
}

func (c *codeBlock) MinSize() fyne.Size {
	c.ExtendBaseWidget(c)
	return c.BaseWidget.MinSize()
}

func (c *codeBlock) CreateRenderer() fyne.WidgetRenderer {
	bg := &canvas.Rectangle{}
	r := &codeRenderer{c: c, bg: bg, objects: []fyne.CanvasObject{bg, c.caption, c.button, c.body}}
	r.Refresh()
	return r
}

type codeRenderer struct {
	c       *codeBlock
	bg      *canvas.Rectangle
	objects []fyne.CanvasObject
}

func (r *codeRenderer) Destroy() {}

func (r *codeRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *codeRenderer) Layout(size fyne.Size) {
	c := r.c
	pad, header := c.metrics()
	r.bg.Resize(size)
	bs := c.button.MinSize()
	c.button.Move(fyne.NewPos(size.Width-bs.Width, 0))
	c.button.Resize(bs)
	capH := c.caption.heightFor(size.Width)
	c.caption.Move(fyne.NewPos(pad, (header-capH)/2))
	c.caption.Resize(fyne.NewSize(max(size.Width-bs.Width-2*pad, 1), capH))
	bw := max(size.Width-2*pad, 1)
	c.body.Move(fyne.NewPos(pad, header))
	c.body.Resize(fyne.NewSize(bw, c.body.heightFor(bw)))
}

func (r *codeRenderer) MinSize() fyne.Size {
	pad, _ := r.c.metrics()
	return fyne.NewSize(r.c.button.MinSize().Width+2*pad, r.c.heightFor(knownWidth(r.c.Size().Width)))
}

func (r *codeRenderer) Refresh() {
	r.bg.FillColor = theme.ColorForWidget(theme.ColorNameInputBackground, r.c)
	r.bg.StrokeColor = theme.ColorForWidget(theme.ColorNameSeparator, r.c)
	r.bg.StrokeWidth = 1
	r.bg.CornerRadius = theme.SizeForWidget(theme.SizeNameInputRadius, r.c)
	r.bg.Refresh()
	r.c.caption.Refresh()
	r.c.body.Refresh()
	r.c.button.Refresh()
	r.Layout(r.c.Size())
}
