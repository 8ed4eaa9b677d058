package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// codeBlock shows text in a monospace, selectable block with a Copy
// button: install reports, validation errors, load failures, the index.
type codeBlock struct {
	widget.BaseWidget

	copy  func(string)
	text  *widget.Label
	btn   *widget.Button
	title *widget.Label
	// maxHeight bounds the block; longer text scrolls inside it.
	maxHeight float32
}

var _ fyne.Widget = (*codeBlock)(nil)

// newCodeBlock makes an empty block; copy puts text on the clipboard.
func newCodeBlock(copy func(string), maxHeight float32) *codeBlock {
	b := &codeBlock{copy: copy, maxHeight: maxHeight}
	b.text = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	b.text.Selectable = true
	// Lines keep their shape (file:line:col carets line up); long ones
	// scroll sideways.
	b.text.Wrapping = fyne.TextWrapOff
	b.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.btn = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		if b.copy != nil {
			b.copy(b.text.Text)
		}
		// The label says it worked until the text changes.
		b.btn.SetText("Copied")
		b.btn.SetIcon(theme.ConfirmIcon())
	})
	b.btn.Importance = widget.LowImportance
	b.ExtendBaseWidget(b)
	return b
}

// Set shows title and text (the copy button forgets it was used).
func (b *codeBlock) Set(title, text string) {
	b.title.SetText(title)
	b.title.Hidden = title == ""
	b.text.SetText(text)
	b.btn.SetText("Copy")
	b.btn.SetIcon(theme.ContentCopyIcon())
	b.Refresh()
}

// Text is what the block shows (and Copy copies).
func (b *codeBlock) Text() string { return b.text.Text }

// Title is the block's heading.
func (b *codeBlock) Title() string { return b.title.Text }

func (b *codeBlock) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	bg.StrokeWidth = 1
	scroll := container.NewScroll(b.text)
	head := container.NewBorder(nil, nil, nil, b.btn, b.title)
	body := container.NewBorder(head, nil, nil, nil, scroll)
	r := &codeBlockRenderer{b: b, bg: bg, scroll: scroll, body: body}
	return r
}

type codeBlockRenderer struct {
	b      *codeBlock
	bg     *canvas.Rectangle
	scroll *container.Scroll
	body   *fyne.Container
}

func (r *codeBlockRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	r.body.Resize(size)
}

// MinSize grows with the text up to maxHeight, then the text scrolls.
func (r *codeBlockRenderer) MinSize() fyne.Size {
	head := r.b.btn.MinSize().Height
	h := head + r.b.text.MinSize().Height + theme.ScrollBarSize()
	if r.b.maxHeight > 0 && h > r.b.maxHeight {
		h = r.b.maxHeight
	}
	return fyne.NewSize(r.b.btn.MinSize().Width*3, h)
}

func (r *codeBlockRenderer) Refresh() {
	r.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	r.bg.Refresh()
	r.body.Refresh()
}

func (r *codeBlockRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.body} }

func (r *codeBlockRenderer) Destroy() {}
