package settings

import (
	"regexp"
	"strings"
	"unicode/utf8"

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
	btn   *escButton
	title *widget.Label
	// maxHeight bounds the block; longer text scrolls inside it.
	maxHeight float32
	// raw is the text as set (what Copy copies); the label shows it with
	// long lines wrapped at cols columns.
	raw  string
	cols int
}

var _ fyne.Widget = (*codeBlock)(nil)

// newCodeBlock makes an empty block; copy puts text on the clipboard.
func newCodeBlock(copy func(string), maxHeight float32) *codeBlock {
	b := &codeBlock{copy: copy, maxHeight: maxHeight}
	b.text = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	b.text.Selectable = true
	// The block wraps long lines itself (wrapLines), leaving the lines of
	// a source snippet whole so the caret stays under its column.
	b.text.Wrapping = fyne.TextWrapOff
	b.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.btn = newButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		if b.copy != nil {
			b.copy(b.raw)
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
	b.raw = text
	b.text.SetText(wrapLines(text, b.cols))
	b.btn.SetText("Copy")
	b.btn.SetIcon(theme.ContentCopyIcon())
	b.Refresh()
}

// Text is what the block shows (and Copy copies).
func (b *codeBlock) Text() string { return b.raw }

// Shown is the text as the block displays it, long lines wrapped.
func (b *codeBlock) Shown() string { return b.text.Text }

// setWidth wraps the text for a block width wide.
func (b *codeBlock) setWidth(width float32) {
	ch := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true}).Width
	if ch <= 0 {
		return
	}
	cols := int((width - 2*theme.InnerPadding() - theme.ScrollBarSize()) / ch)
	if cols == b.cols {
		return
	}
	b.cols = cols
	b.text.SetText(wrapLines(b.raw, cols))
}

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
	r.b.setWidth(size.Width)
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

// snippetLine matches the lines of a source excerpt in an error: "  >   7 | text"
// and the caret line "        |     ^".
var snippetLine = regexp.MustCompile(`^\s*>?\s*\d*\s\|( |$)`)

// minWrapColumns keeps a very narrow block from wrapping into confetti.
const minWrapColumns = 24

// wrapLines breaks lines longer than cols at a space where it can (else
// mid-word), indenting the continuation two spaces past the line's own
// indent. Snippet lines stay whole: wrapped, their caret would point at
// the wrong column. cols <= 0 (not laid out yet) wraps nothing.
func wrapLines(text string, cols int) string {
	if cols <= 0 {
		return text
	}
	cols = max(cols, minWrapColumns)
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		if utf8.RuneCountInString(line) <= cols || snippetLine.MatchString(line) {
			out = append(out, line)
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))] + "  "
		if utf8.RuneCountInString(indent) > cols/2 {
			indent = "  "
		}
		rest := []rune(line)
		first := true
		for len(rest) > 0 {
			width := cols
			prefix := ""
			if !first {
				prefix = indent
				width = cols - utf8.RuneCountInString(indent)
			}
			if len(rest) <= width {
				out = append(out, prefix+string(rest))
				break
			}
			cut := width
			for i := width; i > width/2; i-- {
				if rest[i] == ' ' {
					cut = i
					break
				}
			}
			out = append(out, prefix+strings.TrimRight(string(rest[:cut]), " "))
			rest = []rune(strings.TrimLeft(string(rest[cut:]), " "))
			first = false
		}
	}
	return strings.Join(out, "\n")
}
