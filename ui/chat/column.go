package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// measured is a part of a card whose height depends on its width.
type measured interface {
	fyne.CanvasObject
	heightFor(width float32) float32
}

// column stacks the parts of a card (a header, a body, buttons) inside
// padding, on an optional tinted, rounded background. Its height for a
// width is the sum of its visible parts' heights, computed without a
// layout pass, so the message list can size rows up front. Parts that are
// not measured take their MinSize height (buttons and one-line labels,
// whose MinSize is right).
type column struct {
	widget.BaseWidget

	bg    *canvas.Rectangle // nil: no background
	bgCol fyne.ThemeColorName
	parts []fyne.CanvasObject
	// heights measures parts that are not ours (a Markdown view).
	heights map[fyne.CanvasObject]func(width float32) float32
	// trimTop and trimBottom drop the padding above or below: the rows of
	// one long message's pieces follow each other as one text.
	trimTop, trimBottom bool
}

// measureWith makes o's height at a width come from fn.
func (c *column) measureWith(o fyne.CanvasObject, fn func(width float32) float32) {
	if c.heights == nil {
		c.heights = map[fyne.CanvasObject]func(float32) float32{}
	}
	c.heights[o] = fn
}

func newColumn(bg fyne.ThemeColorName, parts ...fyne.CanvasObject) *column {
	c := &column{parts: parts, bgCol: bg}
	if bg != "" {
		c.bg = &canvas.Rectangle{}
	}
	c.ExtendBaseWidget(c)
	return c
}

func (c *column) pad() float32 { return c.Theme().Size(theme.SizeNameInnerPadding) }

// padding is the padding above and below the parts.
func (c *column) padding() (top, bottom float32) {
	top, bottom = c.pad(), c.pad()
	if c.trimTop {
		top = 0
	}
	if c.trimBottom {
		bottom = 0
	}
	return top, bottom
}
func (c *column) gap() float32 { return c.Theme().Size(theme.SizeNamePadding) }

func (c *column) partHeight(o fyne.CanvasObject, width float32) float32 {
	if fn := c.heights[o]; fn != nil {
		return fn(width)
	}
	if m, ok := o.(measured); ok {
		return m.heightFor(width)
	}
	return o.MinSize().Height
}

// heightFor is the card's height at width.
func (c *column) heightFor(width float32) float32 {
	pad, gap := c.pad(), c.gap()
	inner := max(width-2*pad, 1)
	h, n := float32(0), 0
	for _, p := range c.parts {
		if !p.Visible() {
			continue
		}
		h += c.partHeight(p, inner)
		n++
	}
	if n > 1 {
		h += gap * float32(n-1)
	}
	top, bottom := c.padding()
	return h + top + bottom
}

func (c *column) MinSize() fyne.Size {
	c.ExtendBaseWidget(c)
	return c.BaseWidget.MinSize()
}

func (c *column) CreateRenderer() fyne.WidgetRenderer {
	return &columnRenderer{c: c}
}

type columnRenderer struct {
	c    *column
	objs []fyne.CanvasObject
}

func (r *columnRenderer) Destroy() {}

func (r *columnRenderer) Objects() []fyne.CanvasObject {
	r.objs = r.objs[:0]
	if r.c.bg != nil {
		r.objs = append(r.objs, r.c.bg)
	}
	return append(r.objs, r.c.parts...)
}

func (r *columnRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.c.heightFor(r.c.Size().Width))
}

func (r *columnRenderer) Layout(size fyne.Size) {
	pad, gap := r.c.pad(), r.c.gap()
	if r.c.bg != nil {
		r.c.bg.Move(fyne.NewPos(0, 0))
		r.c.bg.Resize(size)
	}
	inner := max(size.Width-2*pad, 1)
	y, _ := r.c.padding()
	for _, p := range r.c.parts {
		if !p.Visible() {
			continue
		}
		h := r.c.partHeight(p, inner)
		p.Move(fyne.NewPos(pad, y))
		p.Resize(fyne.NewSize(inner, h))
		y += h + gap
	}
}

func (r *columnRenderer) Refresh() {
	if r.c.bg != nil {
		th := r.c.Theme()
		v := fyne.CurrentApp().Settings().ThemeVariant()
		r.c.bg.FillColor = th.Color(r.c.bgCol, v)
		r.c.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
		r.c.bg.Refresh()
	}
	r.Layout(r.c.Size())
	for _, p := range r.c.parts {
		p.Refresh()
	}
}

func newRect() *canvas.Rectangle { return &canvas.Rectangle{} }
