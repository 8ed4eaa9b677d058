package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// headerMinLabel is the least width the first label keeps on a header's
// single line before the header wraps.
const headerMinLabel = 80

// headerRow is a card's or a line's header: fixed objects in front (an
// icon), labels that truncate with an ellipsis when space runs short (a
// tool's name, its capability) and fixed objects at the end (a state,
// buttons), so nothing overlaps at any width. A wrapping header puts the
// end objects on a second line when the first label would get less than
// headerMinLabel; heightFor says which, before any layout.
type headerRow struct {
	widget.BaseWidget

	lead   []fyne.CanvasObject
	labels []*widget.Label
	trail  []fyne.CanvasObject
	wrap   bool
	// squeezed are labels the last layout hid for want of room even for
	// an ellipsis (a label given no width draws its whole text); they
	// count as shown when measuring.
	squeezed map[*widget.Label]bool
}

func newHeaderRow(wrap bool, lead []fyne.CanvasObject, labels []*widget.Label, trail ...fyne.CanvasObject) *headerRow {
	h := &headerRow{lead: lead, labels: labels, trail: trail, wrap: wrap, squeezed: map[*widget.Label]bool{}}
	for _, l := range labels {
		l.Truncation = fyne.TextTruncateEllipsis
	}
	h.ExtendBaseWidget(h)
	return h
}

func (h *headerRow) gap() float32 { return h.Theme().Size(theme.SizeNamePadding) }

// natural is the width a label needs to show its text whole (a truncating
// label's MinSize is only its ellipsis).
func (h *headerRow) natural(l *widget.Label) float32 {
	if !h.shown(l) || l.Text == "" {
		return 0
	}
	th := h.Theme()
	size := th.Size(theme.SizeNameText)
	if l.SizeName != "" {
		size = th.Size(l.SizeName)
	}
	// One pixel more: the label truncates text that fits only exactly.
	return fyne.MeasureText(l.Text, size, l.TextStyle).Width + 2*th.Size(theme.SizeNameInnerPadding) + 1
}

// shown reports whether l is meant to show (the layout may have hidden
// it for want of room).
func (h *headerRow) shown(l *widget.Label) bool { return l.Visible() || h.squeezed[l] }

// span is the width of the visible objects side by side, with the gaps
// between them.
func (h *headerRow) span(objs []fyne.CanvasObject) (w float32, n int) {
	for _, o := range objs {
		if o.Visible() {
			w += o.MinSize().Width
			n++
		}
	}
	if n > 1 {
		w += h.gap() * float32(n-1)
	}
	return w, n
}

func (h *headerRow) lineHeight() float32 {
	lh := float32(0)
	for _, o := range h.all() {
		if o.Visible() {
			lh = max(lh, o.MinSize().Height)
		}
	}
	return lh
}

func (h *headerRow) all() []fyne.CanvasObject {
	out := append([]fyne.CanvasObject(nil), h.lead...)
	for _, l := range h.labels {
		out = append(out, l)
	}
	return append(out, h.trail...)
}

// oneLine reports whether the header fits a single line at width.
func (h *headerRow) oneLine(width float32) bool {
	if !h.wrap {
		return true
	}
	lead, nl := h.span(h.lead)
	trail, nt := h.span(h.trail)
	first := float32(0)
	for _, l := range h.labels {
		if w := h.natural(l); w > 0 {
			first = min(w, headerMinLabel)
			break
		}
	}
	gaps := float32(0)
	if nl > 0 {
		gaps += h.gap()
	}
	if nt > 0 {
		gaps += h.gap()
	}
	return lead+first+trail+gaps <= width
}

func (h *headerRow) heightFor(width float32) float32 {
	if h.oneLine(width) {
		return h.lineHeight()
	}
	return 2*h.lineHeight() + h.gap()
}

func (h *headerRow) MinSize() fyne.Size {
	h.ExtendBaseWidget(h)
	return h.BaseWidget.MinSize()
}

func (h *headerRow) CreateRenderer() fyne.WidgetRenderer { return &headerRenderer{h: h} }

type headerRenderer struct{ h *headerRow }

func (r *headerRenderer) Destroy() {}

func (r *headerRenderer) Objects() []fyne.CanvasObject { return r.h.all() }

func (r *headerRenderer) MinSize() fyne.Size {
	h := r.h
	lead, _ := h.span(h.lead)
	trail, _ := h.span(h.trail)
	if h.wrap {
		return fyne.NewSize(max(lead, trail), h.heightFor(h.Size().Width))
	}
	return fyne.NewSize(lead+trail+2*h.gap(), h.lineHeight())
}

func (r *headerRenderer) Layout(size fyne.Size) {
	h := r.h
	gap, lh := h.gap(), h.lineHeight()
	one := h.oneLine(size.Width)
	place := func(o fyne.CanvasObject, x, y, w float32) {
		m := o.MinSize()
		o.Move(fyne.NewPos(x, y+(lh-m.Height)/2))
		o.Resize(fyne.NewSize(w, m.Height))
	}
	// The end objects: on the right of the line, or of a second line.
	trail, _ := h.span(h.trail)
	ty, right := float32(0), size.Width
	if !one {
		ty = lh + gap
	}
	x := max(right-trail, 0)
	for _, o := range h.trail {
		if o.Visible() {
			place(o, x, ty, o.MinSize().Width)
			x += o.MinSize().Width + gap
		}
	}
	if one && trail > 0 {
		right -= trail + gap
	}
	x = 0
	for _, o := range h.lead {
		if o.Visible() {
			place(o, x, 0, o.MinSize().Width)
			x += o.MinSize().Width + gap
		}
	}
	// The labels share what is left, in order: the first keeps its whole
	// text as long as it can.
	th := h.Theme()
	least := fyne.MeasureText("…", th.Size(theme.SizeNameText), fyne.TextStyle{}).Width + 2*th.Size(theme.SizeNameInnerPadding)
	for _, l := range h.labels {
		if !h.shown(l) {
			continue
		}
		w := max(min(h.natural(l), right-x), 0)
		if w < least && l.Text != "" {
			h.squeezed[l] = true
			l.Hide()
			continue
		}
		if h.squeezed[l] {
			delete(h.squeezed, l)
			l.Show()
		}
		place(l, x, 0, w)
		x += w
	}
}

func (r *headerRenderer) Refresh() {
	r.Layout(r.h.Size())
	for _, o := range r.h.all() {
		o.Refresh()
	}
}

// minWidth is a layout that stacks its objects over its whole size and
// asks for at least width: the sidebar and the chat area keep room for
// their headers to truncate into however the window's split is dragged.
type minWidth float32

func (w minWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (w minWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	m := fyne.NewSize(float32(w), 0)
	for _, o := range objs {
		if o.Visible() {
			m = m.Max(o.MinSize())
		}
	}
	return m
}

// The least widths of the sidebar and the chat area.
const sidebarMinWidth, chatMinWidth = 200, 420
