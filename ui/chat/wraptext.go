package chat

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/wrasse-app/wrasse/ui/markdown"
)

// wrapText is plain text wrapped at spaces (and inside words too long for
// a line) whose height for a width is exact before any layout: it breaks
// the lines itself, because a wrapped Label reports a wrong height until
// laid out (fyne-io/fyne#5585) and the virtualised list needs row heights
// up front.
type wrapText struct {
	widget.BaseWidget

	text      string
	style     fyne.TextStyle
	sizeName  fyne.ThemeSizeName
	colorName fyne.ThemeColorName
	// mark is lower-case text to mark where it occurs (find's query);
	// current is the occurrence marked as find's current one (-1: none).
	mark    string
	current int

	cacheWidth float32
	cacheSize  float32 // the text size the lines were broken at
	cacheText  string
	cacheLines []string
}

func newWrapText(text string, style fyne.TextStyle, colour fyne.ThemeColorName) *wrapText {
	w := &wrapText{text: text, style: style, sizeName: theme.SizeNameText, colorName: colour, current: -1}
	w.ExtendBaseWidget(w)
	return w
}

// setText changes the text; quiet only measures it (no redraw), for
// the list's measuring row.
func (w *wrapText) setText(text string, quiet bool) {
	if quiet {
		w.text = text
		return
	}
	w.SetText(text)
}

// setMark marks where q (lower case) occurs in the text; "" marks
// nothing.
func (w *wrapText) setMark(q string, quiet bool) {
	if q == w.mark {
		return
	}
	w.mark = q
	if !quiet {
		w.Refresh()
	}
}

// setCurrent marks occurrence n (from 0) of the mark as find's current
// one; -1 marks none.
func (w *wrapText) setCurrent(n int, quiet bool) {
	if n == w.current {
		return
	}
	w.current = n
	if !quiet {
		w.Refresh()
	}
}

// SetText shows text.
func (w *wrapText) SetText(text string) {
	if text == w.text {
		return
	}
	w.text = text
	w.Refresh()
}

func (w *wrapText) textSize() float32 { return w.Theme().Size(w.sizeName) }

func (w *wrapText) lineHeight() float32 {
	return fyne.MeasureText("M", w.textSize(), w.style).Height
}

// heightFor is the height of the wrapped text at width.
func (w *wrapText) heightFor(width float32) float32 {
	if w.text == "" {
		return 0
	}
	return float32(len(w.lines(width))) * w.lineHeight()
}

func (w *wrapText) lines(width float32) []string {
	size := w.textSize()
	if w.cacheLines != nil && w.cacheWidth == width && w.cacheSize == size && w.cacheText == w.text {
		return w.cacheLines
	}
	measure := func(s string) float32 { return fyne.MeasureText(s, size, w.style).Width }
	w.cacheLines = wrapLines(w.text, width, measure)
	w.cacheWidth, w.cacheSize, w.cacheText = width, size, w.text
	return w.cacheLines
}

// wrapLines breaks text into lines no wider than width: at newlines, then
// greedily at spaces, and inside a word only when it alone is too wide.
func wrapLines(text string, width float32, measure func(string) float32) []string {
	var out []string
	for _, para := range strings.Split(strings.ReplaceAll(text, "\t", "    "), "\n") {
		if para == "" || width <= 0 || measure(para) <= width {
			out = append(out, para)
			continue
		}
		line := ""
		for _, word := range strings.SplitAfter(para, " ") {
			if line != "" && measure(line+strings.TrimRight(word, " ")) > width {
				out = append(out, strings.TrimRight(line, " "))
				line = ""
			}
			for line == "" && measure(strings.TrimRight(word, " ")) > width {
				// A word wider than the line: cut it where it fills one.
				cut := fitPrefix(word, width, measure)
				out = append(out, word[:cut])
				word = word[cut:]
			}
			line += word
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// fitPrefix is the length in bytes of the longest prefix of s (at least
// one character) no wider than width.
func fitPrefix(s string, width float32, measure func(string) float32) int {
	var starts []int // byte offset after each rune
	for i := range s {
		if i > 0 {
			starts = append(starts, i)
		}
	}
	starts = append(starts, len(s))
	lo, hi := 0, len(starts)-1 // the answer is starts[k] for the largest k that fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if measure(s[:starts[mid]]) <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return starts[lo]
}

func (w *wrapText) MinSize() fyne.Size {
	w.ExtendBaseWidget(w)
	return w.BaseWidget.MinSize()
}

func (w *wrapText) CreateRenderer() fyne.WidgetRenderer {
	return &wrapRenderer{w: w}
}

type wrapRenderer struct {
	w     *wrapText
	texts []*canvas.Text
	marks []*canvas.Rectangle
	objs  []fyne.CanvasObject
	// marked counts the marks laid out, for tests.
	marked int
}

func (r *wrapRenderer) Destroy() {}

func (r *wrapRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *wrapRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.w.lineHeight())
}

func (r *wrapRenderer) Layout(size fyne.Size) {
	lines := r.w.lines(size.Width)
	th := r.w.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	col := th.Color(r.w.colorName, v)
	ts := r.w.textSize()
	lh := r.w.lineHeight()
	for len(r.texts) < len(lines) {
		r.texts = append(r.texts, &canvas.Text{})
	}
	r.objs = r.objs[:0]
	r.marked = 0
	if q := r.w.mark; q != "" {
		fill := th.Color(theme.ColorNameWarning, v)
		if c, ok := fill.(color.NRGBA); ok {
			c.A = 0x66
			fill = c
		} else {
			rr, gg, bb, _ := fill.RGBA()
			fill = color.NRGBA{R: uint8(rr >> 8), G: uint8(gg >> 8), B: uint8(bb >> 8), A: 0x66}
		}
		current := th.Color(theme.ColorNamePrimary, v)
		{
			rr, gg, bb, _ := current.RGBA()
			current = color.NRGBA{R: uint8(rr >> 8), G: uint8(gg >> 8), B: uint8(bb >> 8), A: 0xaa}
		}
		measure := func(s string) float32 { return fyne.MeasureText(s, ts, r.w.style).Width }
		for i, l := range lines {
			for _, span := range markdown.FindSpans(l, q) {
				if r.marked == len(r.marks) {
					r.marks = append(r.marks, &canvas.Rectangle{})
				}
				m := r.marks[r.marked]
				r.marked++
				x0, x1 := measure(l[:span[0]]), measure(l[:span[1]])
				m.FillColor = fill
				if r.marked-1 == r.w.current {
					m.FillColor = current
				}
				m.Move(fyne.NewPos(x0, float32(i)*lh))
				m.Resize(fyne.NewSize(x1-x0, lh))
				m.Refresh()
				r.objs = append(r.objs, m)
			}
		}
	}
	for i, l := range lines {
		t := r.texts[i]
		t.Text, t.TextStyle, t.TextSize, t.Color = l, r.w.style, ts, col
		t.Move(fyne.NewPos(0, float32(i)*lh))
		t.Resize(fyne.NewSize(size.Width, lh))
		t.Refresh()
		r.objs = append(r.objs, t)
	}
}

func (r *wrapRenderer) Refresh() {
	r.Layout(r.w.Size())
	canvas.Refresh(r.w)
}
