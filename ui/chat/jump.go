package chat

import (
	"image/color"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/wrasse-app/wrasse/ui/tip"
)

// JumpToFirst shows the conversation's first message (Ctrl+Home, the
// top button): the pages before the loaded ones are read first when the
// conversation is longer than what opening it loads.
func (c *Chat) JumpToFirst() {
	if tr := c.cur; !tr.complete && tr.id != 0 && len(tr.events) > 0 {
		c.loadBack(0, func() {
			if tr == c.cur {
				c.list.jumpTop()
			}
		})
		return
	}
	c.list.jumpTop()
}

// ShowsFirst reports whether the view shows the conversation's first
// message at its top (wrasse-bench's frame probe reads it).
func (c *Chat) ShowsFirst() bool { return c.rowCount() > 0 && c.list.atTop() }

// JumpToLast shows the conversation's latest message (Ctrl+End, the
// "latest" button).
func (c *Chat) JumpToLast() { c.list.jumpEnd() }

// jumpTop scrolls to the first row, measuring the rows that fill the view
// there first so the first frame shows them at their real heights.
func (m *messageList) jumpTop() {
	n := m.c.rowCount()
	if n == 0 {
		return
	}
	h := m.list.Size().Height
	if h <= 0 {
		m.restore = &anchor{seq: 0}
		return
	}
	m.list.batch(func() {
		y, gap := float32(0), m.gap()
		for i := 0; i < n && y < h*1.5; i++ {
			if m.guessed(i) {
				m.measureNow(i)
				m.setHeight(m.list, i)
			}
			y += m.heightOf(i) + gap
		}
	})
	m.total = m.contentHeight()
	m.restore = nil
	m.list.ScrollToOffset(0)
	m.moved()
}

// jumpEnd scrolls to the last row, measuring the rows there first.
func (m *messageList) jumpEnd() {
	n := m.c.rowCount()
	h := m.list.Size().Height
	if n == 0 {
		return
	}
	if h <= 0 {
		m.restore = &anchor{end: true}
		return
	}
	m.list.batch(func() {
		y, gap := float32(0), m.gap()
		for i := n - 1; i >= 0 && y < h*1.5; i-- {
			if m.guessed(i) {
				m.measureNow(i)
				m.setHeight(m.list, i)
			}
			y += m.heightOf(i) + gap
		}
	})
	m.total = m.contentHeight()
	m.restore = nil
	m.scrollToEnd()
	m.moved()
}

// settle measures the rows the view will show at a and gives the list
// their heights, before the view goes there.
func (m *messageList) settle(a anchor) {
	from, to := m.inView(a)
	m.list.batch(func() {
		for i := from; i < to; i++ {
			m.setHeight(m.list, i)
		}
	})
	m.total = m.contentHeight()
}

// fixLater measures the rows in view with estimated heights after the
// list's layout has finished (a row bound with a guess asks for it).
func (m *messageList) fixLater() {
	if m.fixing {
		return
	}
	m.fixing = true
	m.schedule(0, m.fixView)
}

// fixView measures the estimated rows in and near the view and gives the
// list their heights, keeping the row at the top of the view where it is
// on screen (or the end, when the view is there): what is on screen does
// not move as the rows above it turn out taller or shorter than guessed.
func (m *messageList) fixView() {
	m.fixing = false
	// A correction can bring more estimated rows into view; a few rounds
	// at most (each measures at least one row).
	for range 4 {
		if !m.measureView() {
			break
		}
	}
	m.moved()
}

// measureView measures the estimated rows from half a view above it to
// half a view below, reporting whether there were any.
func (m *messageList) measureView() bool {
	h := m.list.Size().Height
	if h <= 0 || m.restore != nil {
		return false
	}
	keep := m.anchor()
	off := m.list.GetScrollOffset()
	lo, hi := off-h/2, off+h+h/2
	var todo []int
	y, gap := float32(0), m.gap()
	for i, n := 0, m.c.rowCount(); i < n && y < hi; i++ {
		rh := m.height(i)
		if y+rh >= lo && m.guessed(i) {
			todo = append(todo, i)
		}
		y += rh + gap
	}
	if len(todo) == 0 {
		return false
	}
	m.list.batch(func() {
		for _, i := range todo {
			m.measureNow(i)
			m.setHeight(m.list, i)
		}
	})
	m.total = m.contentHeight()
	m.scrollTo(keep)
	return true
}

// atTop reports whether the view shows the conversation's first row.
func (m *messageList) atTop() bool {
	return m.c.cur.complete && m.list.GetScrollOffset() <= 1
}

// moved shows the jump buttons that lead somewhere from where the view
// is: the top one unless the first message is in view at the top, the
// latest one unless the end is.
func (m *messageList) moved() {
	if m.jump == nil {
		return
	}
	some := m.c.rowCount() > 0 && m.list.Size().Height > 0 && m.total > m.list.Size().Height
	m.jump.set(some && !m.atTop(), some && !m.atEnd())
}

// wheelLines is how many lines one notch of a mouse wheel scrolls, as
// browsers and most desktop applications do.
const wheelLines = 3

// driverNotch is the distance Fyne's desktop driver reports for one wheel
// notch outside macOS (its scrollSpeed): one notch moved the list by
// about one line.
const driverNotch = 25

// wheel lies over the message list and takes its wheel events (the last
// Scrollable under the pointer gets them), scrolling the list by
// wheelLines lines a notch. A touchpad's smaller, smooth deltas scale
// alike, as browsers scale them. On macOS the driver's deltas are already
// the system's (with its acceleration), so they pass unchanged.
type wheel struct {
	widget.BaseWidget
	m *messageList
}

var _ fyne.Scrollable = (*wheel)(nil)

func newWheel(m *messageList) *wheel {
	w := &wheel{m: m}
	w.ExtendBaseWidget(w)
	return w
}

// step is how far a scroll of dy moves the view.
func (w *wheel) step(dy float32) float32 {
	if runtime.GOOS == "darwin" {
		return dy
	}
	th := w.m.list.Theme()
	line := fyne.MeasureText("Mg", th.Size(theme.SizeNameText), fyne.TextStyle{}).Height
	return dy / driverNotch * wheelLines * line
}

// Scrolled moves the list; up (a positive DY) shows earlier rows.
func (w *wheel) Scrolled(ev *fyne.ScrollEvent) {
	dy := ev.Scrolled.DY
	if dy == 0 {
		dy = ev.Scrolled.DX // a horizontal wheel: the list has only one way to go
	}
	l := w.m.list
	l.ScrollToOffset(max(l.GetScrollOffset()-w.step(dy), 0))
	w.m.moved()
}

func (w *wheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// jumpButtons are the buttons at the bottom right of the message list
// that go to the first message and to the latest one, each shown only
// where it leads somewhere.
type jumpButtons struct {
	top, latest *tip.Button
	box         *fyne.Container
}

func newJumpButtons(c *Chat) *jumpButtons {
	j := &jumpButtons{
		top:    tip.NewButton("", theme.MoveUpIcon(), "First message (Ctrl+Home)", c.JumpToFirst),
		latest: tip.NewButton("", theme.MoveDownIcon(), "Latest message (Ctrl+End)", c.JumpToLast),
	}
	// Over the list, not in a toolbar: a filled button stays visible on
	// the messages behind it.
	j.top.Importance, j.latest.Importance = widget.MediumImportance, widget.MediumImportance
	j.box = container.NewVBox(j.top, j.latest)
	j.top.Hide()
	j.latest.Hide()
	return j
}

// place puts the buttons at the bottom right of a list of size, clear of
// its scroll bar.
func (j *jumpButtons) place(size fyne.Size, th fyne.Theme) {
	ms := j.box.MinSize()
	pad := th.Size(theme.SizeNamePadding)
	inset := 2*th.Size(theme.SizeNameScrollBar) + 2*pad
	j.box.Resize(ms)
	j.box.Move(fyne.NewPos(max(size.Width-ms.Width-inset, 0), max(size.Height-ms.Height-2*pad, 0)))
}

// set shows or hides each button.
func (j *jumpButtons) set(top, latest bool) {
	if j.top.Visible() == top && j.latest.Visible() == latest {
		return
	}
	setVisible(j.top, top)
	setVisible(j.latest, latest)
	j.box.Refresh()
}
