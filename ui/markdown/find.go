package markdown

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// Find marks. A find bar marks where its query occurs in a message
// (SetMark), the current occurrence more strongly, and scrolls to it
// (MarkOffset). Occurrences are found in the text as shown, one line of
// a text at a time: words a line break separates are not matched.

// SetMark marks where q (lower case; "" for nothing) occurs in the text
// shown, and occurrence cur (from 0, in reading order; -1 for none) more
// strongly. It returns how many occurrences there are.
func (v *View) SetMark(q string, cur int) int {
	if q == "" && !v.marked {
		return 0 // the common case: a message bound with nothing to find
	}
	v.marked = q != ""
	width := knownWidth(v.Size().Width)
	n := 0
	for _, o := range v.objects {
		walkFlows(o, width, -1, func(f *textFlow, w, _ float32) bool {
			k := len(f.occurrences(q, w))
			at := -1
			if cur >= n && cur < n+k {
				at = cur - n
			}
			if f.mark != q || f.markAt != at {
				f.mark, f.markAt = q, at
				f.Refresh()
			}
			n += k
			return true
		})
	}
	return n
}

// MarkOffset is how far below the top of the view occurrence n (from 0)
// of q lies when the view is width wide, to scroll a tall message to it;
// false when there is no such occurrence. Nothing needs to be laid out.
func (v *View) MarkOffset(q string, n int, width float32) (float32, bool) {
	if q == "" || n < 0 {
		return 0, false
	}
	var y float32
	found := false
	s := &v.stack
	top := float32(0)
	for i, o := range v.objects {
		if !o.Visible() {
			continue
		}
		top += s.gapBefore(v.objects, i)
		walkFlows(o, width, top, func(f *textFlow, w, at float32) bool {
			occ := f.occurrences(q, w)
			if n < len(occ) {
				y, found = at+occ[n].y, true
				return false
			}
			n -= len(occ)
			return true
		})
		if found {
			return y, true
		}
		top += heightAt(o, width)
	}
	return 0, false
}

// walkFlows calls visit with each text of o in reading order, the width
// it has when o is width wide and its top below o's (exact for stacked
// blocks and list items; a table's cells and a quote's blocks count from
// the table's or the quote's top). A negative top measures nothing (the
// tops passed on are then meaningless). visit returns false to stop; so
// does walkFlows.
func walkFlows(o fyne.CanvasObject, width, top float32, visit func(f *textFlow, width, top float32) bool) bool {
	if !o.Visible() {
		return true
	}
	measure := top >= 0
	switch x := o.(type) {
	case *textFlow:
		return visit(x, width, top)
	case *codeBlock:
		pad, header := x.metrics()
		return visit(x.body, max(width-2*pad, 1), top+header)
	case *quote:
		_, inset := x.metrics()
		return walkFlows(x.content, max(width-inset, 1), top, visit)
	case *table:
		widths := x.columnWidths(width)
		heights := x.rowHeights(widths)
		y := top
		for r, row := range x.cells {
			for c, cell := range row {
				if c < len(widths) && !visit(cell, widths[c], y) {
					return false
				}
			}
			if r < len(heights) {
				y += heights[r]
			}
		}
		return true
	case *fyne.Container:
		switch l := x.Layout.(type) {
		case *stackLayout:
			y := top
			for i, c := range x.Objects {
				if !c.Visible() {
					continue
				}
				if !measure {
					if !walkFlows(c, width, top, visit) {
						return false
					}
					continue
				}
				y += l.gapBefore(x.Objects, i)
				if !walkFlows(c, width, y, visit) {
					return false
				}
				y += heightAt(c, width)
			}
			return true
		case *listLayout:
			mw := l.markerWidth(x.Objects)
			gap := l.gap * theme.Padding()
			y := top
			for i := 0; i+1 < len(x.Objects); i += 2 {
				if i > 0 {
					y += gap
				}
				marker, content := x.Objects[i], x.Objects[i+1]
				cw := max(width-mw, 1)
				if !walkFlows(content, cw, y, visit) {
					return false
				}
				if !measure {
					continue
				}
				mh := marker.MinSize().Height
				if f, ok := marker.(*textFlow); ok {
					mh = f.heightFor(mw)
				}
				y += max(mh, heightAt(content, cw))
			}
			return true
		}
	}
	return true
}

// occurrence is where a find query occurs in a flow laid out at a width:
// its line's top and its left and right ends.
type occurrence struct {
	line   int
	y      float32
	x0, x1 float32
}

// occurrences are where q occurs in the flow laid out at width, in order.
func (f *textFlow) occurrences(q string, width float32) []occurrence {
	if q == "" {
		return nil
	}
	lay := f.layoutAt(width)
	var out []occurrence
	y := float32(0)
	for li, line := range lay.lines {
		// The line's text: its fragments, with a space where a gap
		// separates two (words of different styles).
		var b strings.Builder
		starts := make([]int, len(line.frags))
		for j, fr := range line.frags {
			if j > 0 {
				prev := line.frags[j-1]
				if fr.x > prev.x+prev.w+0.5 {
					b.WriteByte(' ')
				}
			}
			starts[j] = b.Len()
			b.WriteString(fr.text)
		}
		xAt := func(off int, end bool) float32 {
			for j := len(line.frags) - 1; j >= 0; j-- {
				fr := line.frags[j]
				if off > starts[j] || (off == starts[j] && !end) {
					k := min(off-starts[j], len(fr.text))
					return fr.x + f.measure(fr.text[:k], fr.span, lay.size)
				}
			}
			return 0
		}
		for _, sp := range FindSpans(b.String(), q) {
			out = append(out, occurrence{line: li, y: y, x0: xAt(sp[0], false), x1: xAt(sp[1], true)})
		}
		y += line.height
	}
	return out
}

// FindSpans are the byte ranges of text where q (lower case) occurs,
// case-insensitively; a text whose lower case has another length (a few
// non-ASCII letters change it) is matched only as written. The chat's
// find counts and marks plain text with it too.
func FindSpans(text, q string) [][2]int {
	hay := strings.ToLower(text)
	if len(hay) != len(text) {
		hay = text
	}
	var out [][2]int
	for from := 0; q != "" && from <= len(hay)-len(q); {
		i := strings.Index(hay[from:], q)
		if i < 0 {
			break
		}
		out = append(out, [2]int{from + i, from + i + len(q)})
		from += i + len(q)
	}
	return out
}

// markRects places the find marks of a flow laid out at width (behind
// its text) on rectangles from pool, grown as needed; it returns the pool
// and how many of them are marks now.
func (f *textFlow) markRects(width float32, pool []*canvas.Rectangle) ([]*canvas.Rectangle, int) {
	if f.mark == "" {
		return pool, 0
	}
	occ := f.occurrences(f.mark, width)
	lay := f.layoutAt(width)
	others := markColor(theme.ColorForWidget(theme.ColorNameWarning, f), 0x66)
	current := markColor(theme.ColorForWidget(theme.ColorNamePrimary, f), 0xaa)
	for len(pool) < len(occ) {
		pool = append(pool, &canvas.Rectangle{})
	}
	for i, o := range occ {
		r := pool[i]
		r.FillColor = others
		if i == f.markAt {
			r.FillColor = current
		}
		r.Move(fyne.NewPos(o.x0, o.y))
		r.Resize(fyne.NewSize(o.x1-o.x0, lay.lines[o.line].height))
	}
	return pool, len(occ)
}

// markColor is c with alpha a.
func markColor(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}
