package tip

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// maxWidth is the widest a tip is: a longer one wraps.
const maxWidth = 420

// Layer is where a window's tooltips are drawn: put it last in a stack
// over the window's content (ui.Shell does; tests put one over theirs).
type Layer struct {
	widget.BaseWidget
	bg    *canvas.Rectangle
	label *widget.Label
	shown fyne.CanvasObject // what the tip is about, nil when none shows
}

// NewLayer is an empty layer.
func NewLayer() *Layer {
	l := &Layer{bg: canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground)), label: widget.NewLabel("")}
	l.bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	l.bg.StrokeWidth = 1
	l.bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	l.ExtendBaseWidget(l)
	return l
}

// Text is the tip showing, "" when none is.
func (l *Layer) Text() string {
	if l.shown == nil {
		return ""
	}
	return l.label.Text
}

// CreateRenderer draws the tip, when one shows, where Show put it.
func (l *Layer) CreateRenderer() fyne.WidgetRenderer { return &layerRenderer{l: l} }

type layerRenderer struct{ l *Layer }

func (r *layerRenderer) Destroy()           {}
func (r *layerRenderer) Layout(fyne.Size)   {}
func (r *layerRenderer) MinSize() fyne.Size { return fyne.NewSize(0, 0) }
func (r *layerRenderer) Refresh()           { r.l.bg.Refresh(); r.l.label.Refresh() }
func (r *layerRenderer) Objects() []fyne.CanvasObject {
	if r.l.shown == nil {
		return nil
	}
	return []fyne.CanvasObject{r.l.bg, r.l.label}
}

// Show shows text by o on the layer of o's window: below o in the upper
// half of the window, above it in the lower half, kept inside the window.
// It returns what hides it again (only if it still shows o's tip). With
// no text, or no layer in o's window, nothing shows.
func Show(o fyne.CanvasObject, text string) (hide func()) {
	none := func() {}
	if text == "" || fyne.CurrentApp() == nil {
		return none
	}
	d := fyne.CurrentApp().Driver()
	c := d.CanvasForObject(o)
	if c == nil {
		return none
	}
	l := Find(c.Content())
	if l == nil {
		return none
	}
	room := l.Size()
	l.label.Wrapping = fyne.TextWrapOff
	l.label.SetText(text)
	size := l.label.MinSize()
	if widest := min(room.Width, maxWidth); size.Width > widest {
		// A long tip wraps, as wide as the window allows.
		l.label.Wrapping = fyne.TextWrapWord
		l.label.Resize(fyne.NewSize(widest, size.Height))
		size = fyne.NewSize(widest, l.label.MinSize().Height)
	}
	pos := d.AbsolutePositionForObject(o).Subtract(d.AbsolutePositionForObject(l))
	x := min(max(pos.X+o.Size().Width-size.Width, 0), max(room.Width-size.Width, 0))
	y := pos.Y + o.Size().Height + 4
	if pos.Y > room.Height/2 {
		y = max(pos.Y-size.Height-4, 0)
	}
	l.bg.Move(fyne.NewPos(x, y))
	l.bg.Resize(size)
	l.label.Move(fyne.NewPos(x, y))
	l.label.Resize(size)
	l.shown = o
	l.Refresh()
	return func() {
		if l.shown == o {
			l.shown = nil
			l.Refresh()
		}
	}
}

// Find is the layer in a window's content: the content itself, or in the
// containers at its top (where a stack puts it).
func Find(content fyne.CanvasObject) *Layer {
	switch v := content.(type) {
	case *Layer:
		return v
	case *fyne.Container:
		for i := len(v.Objects) - 1; i >= 0; i-- {
			if l := Find(v.Objects[i]); l != nil {
				return l
			}
		}
	}
	return nil
}
