package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// table is a GFM table: a grid with a bold header row, column alignment
// from the delimiter row, wrapped cells, grid lines and striped rows.
//
// Column widths come from the content: each column wants its widest cell
// (capped at maxColumnEms) and needs at least its longest word (capped at
// minColumnEms). When the table is narrower than it wants, columns shrink
// from wanted towards needed in proportion; when it is narrower still, all
// shrink alike and words break, so nothing is ever cut off or scrolled.
type table struct {
	widget.BaseWidget

	cells [][]*textFlow // rows × columns; row 0 is the header
	cols  int
}

const (
	maxColumnEms = 24
	minColumnEms = 8
)

func newTable(cells [][]*textFlow, cols int) *table {
	t := &table{cells: cells, cols: cols}
	t.ExtendBaseWidget(t)
	return t
}

func (t *table) cellPad() float32 {
	return theme.SizeForWidget(theme.SizeNameInnerPadding, t) * 0.75
}

// columnWidths returns the width of each column (cell padding included) for
// a table at most width wide.
func (t *table) columnWidths(width float32) []float32 {
	size := theme.SizeForWidget(theme.SizeNameText, t)
	pad := 2 * t.cellPad()
	want := make([]float32, t.cols)
	need := make([]float32, t.cols)
	for _, row := range t.cells {
		for c, cell := range row {
			want[c] = max(want[c], min(cell.naturalWidth(), maxColumnEms*size))
			need[c] = max(need[c], min(cell.minWordWidth(), minColumnEms*size))
		}
	}
	var wantSum, needSum float32
	for c := range want {
		need[c] = max(need[c], size) + pad
		want[c] = max(want[c]+pad, need[c])
		wantSum += want[c]
		needSum += need[c]
	}
	avail := width - float32(t.cols+1) // grid lines
	out := make([]float32, t.cols)
	switch {
	case wantSum <= avail:
		copy(out, want)
	case needSum <= avail:
		k := (avail - needSum) / (wantSum - needSum)
		for c := range out {
			out[c] = need[c] + (want[c]-need[c])*k
		}
	default:
		k := max(avail, float32(t.cols)) / needSum
		for c := range out {
			out[c] = need[c] * k
		}
	}
	return out
}

func (t *table) rowHeights(widths []float32) []float32 {
	pad := 2 * t.cellPad()
	hs := make([]float32, len(t.cells))
	for r, row := range t.cells {
		for c, cell := range row {
			hs[r] = max(hs[r], cell.heightFor(max(widths[c]-pad, 1)))
		}
		hs[r] += pad
	}
	return hs
}

func (t *table) heightFor(width float32) float32 {
	h := float32(len(t.cells) + 1) // grid lines
	for _, rh := range t.rowHeights(t.columnWidths(width)) {
		h += rh
	}
	return h
}

func (t *table) MinSize() fyne.Size {
	t.ExtendBaseWidget(t)
	return t.BaseWidget.MinSize()
}

func (t *table) CreateRenderer() fyne.WidgetRenderer {
	r := &tableRenderer{t: t, border: &canvas.Rectangle{}}
	r.header = &canvas.Rectangle{}
	for i := 2; i < len(t.cells); i += 2 {
		r.stripes = append(r.stripes, &canvas.Rectangle{})
	}
	for i := 1; i < len(t.cells)+t.cols-1; i++ {
		r.lines = append(r.lines, &canvas.Rectangle{})
	}
	r.objects = append(r.objects, r.header)
	for _, s := range r.stripes {
		r.objects = append(r.objects, s)
	}
	for _, row := range t.cells {
		for _, cell := range row {
			r.objects = append(r.objects, cell)
		}
	}
	for _, l := range r.lines {
		r.objects = append(r.objects, l)
	}
	r.objects = append(r.objects, r.border)
	r.Refresh()
	return r
}

type tableRenderer struct {
	t       *table
	header  *canvas.Rectangle
	stripes []*canvas.Rectangle
	lines   []*canvas.Rectangle // row separators, then column separators
	border  *canvas.Rectangle
	objects []fyne.CanvasObject
}

func (r *tableRenderer) Destroy() {}

func (r *tableRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *tableRenderer) Layout(size fyne.Size) {
	t := r.t
	widths := t.columnWidths(size.Width)
	heights := t.rowHeights(widths)
	pad := t.cellPad()
	total := float32(t.cols + 1)
	for _, w := range widths {
		total += w
	}
	height := float32(len(heights) + 1)
	for _, h := range heights {
		height += h
	}
	r.border.Move(fyne.NewPos(0, 0))
	r.border.Resize(fyne.NewSize(total, height))

	y := float32(1)
	line := 0
	for ri, row := range t.cells {
		switch {
		case ri == 0:
			r.header.Move(fyne.NewPos(0, 0))
			r.header.Resize(fyne.NewSize(total, heights[0]+1))
		case ri%2 == 0:
			s := r.stripes[ri/2-1]
			s.Move(fyne.NewPos(1, y))
			s.Resize(fyne.NewSize(total-2, heights[ri]))
		}
		x := float32(1)
		for c, cell := range row {
			cw := max(widths[c]-2*pad, 1)
			cell.Move(fyne.NewPos(x+pad, y+pad))
			cell.Resize(fyne.NewSize(cw, cell.heightFor(cw)))
			x += widths[c] + 1
		}
		y += heights[ri]
		if ri < len(t.cells)-1 {
			r.lines[line].Move(fyne.NewPos(0, y))
			r.lines[line].Resize(fyne.NewSize(total, 1))
			line++
		}
		y++
	}
	x := float32(1)
	for c := 0; c < t.cols-1; c++ {
		x += widths[c]
		r.lines[line].Move(fyne.NewPos(x, 0))
		r.lines[line].Resize(fyne.NewSize(1, height))
		line++
		x++
	}
}

func (r *tableRenderer) MinSize() fyne.Size {
	t := r.t
	size := theme.SizeForWidget(theme.SizeNameText, t)
	return fyne.NewSize(2*size, t.heightFor(knownWidth(t.Size().Width)))
}

func (r *tableRenderer) Refresh() {
	t := r.t
	sep := theme.ColorForWidget(theme.ColorNameSeparator, t)
	r.header.FillColor = theme.ColorForWidget(theme.ColorNameInputBackground, t)
	r.header.CornerRadius = 0
	for _, s := range r.stripes {
		s.FillColor = theme.ColorForWidget(theme.ColorNameHover, t)
		s.Refresh()
	}
	for _, l := range r.lines {
		l.FillColor = sep
		l.Refresh()
	}
	r.border.FillColor = nil
	r.border.StrokeColor = sep
	r.border.StrokeWidth = 1
	r.header.Refresh()
	r.border.Refresh()
	for _, row := range t.cells {
		for _, cell := range row {
			cell.Refresh()
		}
	}
	r.Layout(t.Size())
}
