package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// quote is a block quote: its blocks indented behind a vertical bar.
type quote struct {
	widget.BaseWidget
	content *fyne.Container
	indent  bool // false past the nesting depth where indenting stops
}

func newQuote(content *fyne.Container, indent bool) *quote {
	q := &quote{content: content, indent: indent}
	q.ExtendBaseWidget(q)
	return q
}

func (q *quote) metrics() (bar, inset float32) {
	p := theme.SizeForWidget(theme.SizeNamePadding, q)
	if !q.indent {
		return 0, 0
	}
	return p * 0.75, p * 3
}

func (q *quote) heightFor(width float32) float32 {
	_, inset := q.metrics()
	return heightAt(q.content, max(width-inset, 1))
}

func (q *quote) MinSize() fyne.Size {
	q.ExtendBaseWidget(q)
	return q.BaseWidget.MinSize()
}

func (q *quote) CreateRenderer() fyne.WidgetRenderer {
	r := &quoteRenderer{q: q, bar: &canvas.Rectangle{}}
	r.Refresh()
	return r
}

type quoteRenderer struct {
	q   *quote
	bar *canvas.Rectangle
}

func (r *quoteRenderer) Destroy() {}

func (r *quoteRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bar, r.q.content}
}

func (r *quoteRenderer) Layout(size fyne.Size) {
	bar, inset := r.q.metrics()
	r.bar.Resize(fyne.NewSize(bar, size.Height))
	r.q.content.Move(fyne.NewPos(inset, 0))
	r.q.content.Resize(fyne.NewSize(max(size.Width-inset, 1), size.Height))
}

func (r *quoteRenderer) MinSize() fyne.Size {
	_, inset := r.q.metrics()
	return fyne.NewSize(inset+r.q.content.MinSize().Width, r.q.heightFor(knownWidth(r.q.Size().Width)))
}

func (r *quoteRenderer) Refresh() {
	r.bar.FillColor = theme.ColorForWidget(theme.ColorNamePlaceHolder, r.q)
	r.bar.CornerRadius = 1
	r.bar.Refresh()
	r.q.content.Refresh()
	r.Layout(r.q.Size())
}
