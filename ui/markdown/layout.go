package markdown

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// sizer is an object whose height depends on the width it is given.
type sizer interface {
	heightFor(width float32) float32
}

// layoutSizer is a layout that can tell its height for a width without
// laying out.
type layoutSizer interface {
	heightFor(objects []fyne.CanvasObject, width float32) float32
}

// heightAt is the height o needs at width. Fyne's MinSize only knows the
// width an object was last given; this asks for a given one.
func heightAt(o fyne.CanvasObject, width float32) float32 {
	if !o.Visible() {
		return 0
	}
	switch x := o.(type) {
	case sizer:
		return x.heightFor(width)
	case *fyne.Container:
		if l, ok := x.Layout.(layoutSizer); ok {
			return l.heightFor(x.Objects, width)
		}
	}
	return o.MinSize().Height
}

// knownWidth is w, or unbounded (nothing wraps) before the first layout.
func knownWidth(w float32) float32 {
	if w <= 0 {
		return math.MaxFloat32
	}
	return w
}

// minWidthOf is the narrowest width o stays readable at.
func minWidthOf(objects []fyne.CanvasObject) float32 {
	var w float32
	for _, o := range objects {
		if o.Visible() {
			w = max(w, o.MinSize().Width)
		}
	}
	return w
}

// stackLayout stacks blocks vertically at the full width with a gap
// between them; headings ask for more room above.
type stackLayout struct {
	gap   float32 // multiple of the theme padding
	width float32 // last laid-out width, for MinSize
}

func newStack(gap float32, objects ...fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: &stackLayout{gap: gap}, Objects: objects}
}

func (s *stackLayout) gapBefore(objects []fyne.CanvasObject, i int) float32 {
	if i == 0 {
		return 0
	}
	g := s.gap * theme.Padding()
	if a, ok := objects[i].(interface{ spaceAbove() float32 }); ok {
		g = max(g, a.spaceAbove())
	}
	return g
}

func (s *stackLayout) heightFor(objects []fyne.CanvasObject, width float32) float32 {
	var h float32
	for i, o := range objects {
		if !o.Visible() {
			continue
		}
		h += s.gapBefore(objects, i) + heightAt(o, width)
	}
	return h
}

func (s *stackLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	s.width = size.Width
	var y float32
	for i, o := range objects {
		if !o.Visible() {
			continue
		}
		y += s.gapBefore(objects, i)
		h := heightAt(o, size.Width)
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}

func (s *stackLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(minWidthOf(objects), s.heightFor(objects, knownWidth(s.width)))
}

// listLayout places list items: objects alternate marker, content. The
// marker column is as wide as the widest marker (at least 1.5 em) so
// numbers line up on the right.
type listLayout struct {
	gap   float32 // between items, multiple of the theme padding
	width float32
}

func (l *listLayout) markerWidth(objects []fyne.CanvasObject) float32 {
	text := theme.TextSize()
	w := 1.2 * text
	for i := 0; i+1 < len(objects); i += 2 {
		if f, ok := objects[i].(*textFlow); ok {
			w = max(w, f.naturalWidth())
		} else {
			w = max(w, objects[i].MinSize().Width)
		}
	}
	return w + 0.5*text
}

func (l *listLayout) rows(objects []fyne.CanvasObject, width float32, place bool) float32 {
	mw := l.markerWidth(objects)
	gap := l.gap * theme.Padding()
	lineH := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height
	var y float32
	for i := 0; i+1 < len(objects); i += 2 {
		if i > 0 {
			y += gap
		}
		marker, content := objects[i], objects[i+1]
		cw := max(width-mw, 1)
		ch := heightAt(content, cw)
		msz := marker.MinSize()
		mh := msz.Height
		if f, ok := marker.(*textFlow); ok {
			mh = f.heightFor(mw)
		}
		if place {
			if _, ok := marker.(*textFlow); ok {
				marker.Move(fyne.NewPos(0, y))
				marker.Resize(fyne.NewSize(mw-0.5*theme.TextSize(), mh))
			} else { // an icon: centred on the first line
				marker.Move(fyne.NewPos(mw-0.5*theme.TextSize()-msz.Width, y+(lineH-msz.Height)/2))
				marker.Resize(msz)
				mh = max(mh, lineH)
			}
			content.Move(fyne.NewPos(mw, y))
			content.Resize(fyne.NewSize(cw, ch))
		}
		y += max(mh, ch)
	}
	return y
}

func (l *listLayout) heightFor(objects []fyne.CanvasObject, width float32) float32 {
	return l.rows(objects, width, false)
}

func (l *listLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	l.rows(objects, size.Width, true)
}

func (l *listLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(l.markerWidth(objects)+minWidthOf(objects), l.heightFor(objects, knownWidth(l.width)))
}
