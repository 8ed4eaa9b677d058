package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// rowList is the message list's widget.List with its full refreshes held
// while the rows of one change are given their heights. In Fyne 2.7 both
// SetItemHeight (when the height differs) and RefreshItem refresh the
// whole list, and a full refresh makes a row widget just to measure it
// and drops the spare ones, so the rows scrolling in next are made anew;
// Fyne's renderer cache keeps every one of those for a minute. Giving k
// new rows their heights cost k+1 full refreshes and as many row widgets
// (about 27 per tool turn with the view at the end); held, one. The row
// widget a full refresh measures (only for the list's least row height,
// which every row here sets itself) is always the same one, never shown.
type rowList struct {
	widget.List

	// sizing is set while the list asks for the row widget it measures;
	// template is that widget.
	sizing   bool
	template fyne.CanvasObject

	// holding counts the batches running; missed is set when a full
	// refresh was asked for meanwhile.
	holding int
	missed  bool
	// refreshes counts the full refreshes done, for tests.
	refreshes int
}

func newRowList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *rowList {
	l := &rowList{}
	l.Length, l.UpdateItem = length, update
	l.CreateItem = func() fyne.CanvasObject {
		if !l.sizing {
			return create()
		}
		l.sizing = false
		if l.template == nil {
			l.template = create()
		}
		return l.template
	}
	l.ExtendBaseWidget(l)
	return l
}

func (l *rowList) CreateRenderer() fyne.WidgetRenderer {
	l.sizing = true
	r := l.List.CreateRenderer()
	l.sizing = false
	return &rowListRenderer{WidgetRenderer: r, l: l}
}

// batch runs fn with full refreshes held, then does one if fn asked for
// any (RefreshItem still binds the row it names at once).
func (l *rowList) batch(fn func()) {
	l.holding++
	defer func() {
		l.holding--
		if l.holding == 0 && l.missed {
			l.missed = false
			l.Refresh()
		}
	}()
	fn()
}

type rowListRenderer struct {
	fyne.WidgetRenderer
	l *rowList
}

func (r *rowListRenderer) Refresh() {
	if r.l.holding > 0 {
		r.l.missed = true
		return
	}
	r.l.refreshes++
	// A full refresh first asks for a row widget to measure.
	r.l.sizing = true
	r.WidgetRenderer.Refresh()
	r.l.sizing = false
}
