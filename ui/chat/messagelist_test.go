package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	pt "github.com/wrasse-app/wrasse/brain/provider/providertest"
)

// manualTimers stands in for the message list's timer: what it schedules
// runs only when the test says.
type manualTimers struct{ due []timed }

type timed struct {
	d  time.Duration
	fn func()
}

func (m *manualTimers) schedule(d time.Duration, fn func()) { m.due = append(m.due, timed{d, fn}) }

// run runs what was scheduled until now with a delay of at most d.
func (m *manualTimers) run(d time.Duration) {
	due := m.due
	m.due = nil
	for _, t := range due {
		if t.d <= d {
			t.fn()
		} else {
			m.due = append(m.due, t)
		}
	}
}

// drain runs everything, and what that schedules, until nothing is left.
func (m *manualTimers) drain(tb testing.TB) {
	for range 1000 {
		if len(m.due) == 0 {
			return
		}
		m.run(time.Hour)
	}
	tb.Fatal("the timers never settle")
}

// wrapped is a conversation of n messages long enough to wrap, so their
// heights change with the width.
func wrapped(i int) string {
	return fmt.Sprintf("message %d: ", i) + strings.Repeat("words that wrap at any width. ", 12+i%7)
}

func TestResizeRemeasuresOnceTheWidthSettlesRowsInViewFirst(t *testing.T) {
	for _, tc := range []struct {
		name string
		// scroll puts the view somewhere before the resize.
		scroll func(l *messageList)
	}{
		{"at the end", func(*messageList) {}},
		{"in the middle", func(l *messageList) { l.list.ScrollToOffset(l.top(20) + 7) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			timers := &manualTimers{}
			l := h.chat.list
			l.schedule = timers.schedule
			h.chat.Open(fillWith(t, h.core.Engine().DB, 200, wrapped))
			tc.scroll(l)
			before := l.anchor()
			rows := h.chat.rowCount()
			width, measured := l.width, l.measured

			// Dragging the edge: the width changes every frame.
			for _, w := range []float32{1000, 900, 800, 700} {
				h.win.Resize(fyne.NewSize(w, 800))
			}
			if l.width != width || l.measured != measured {
				t.Fatalf("rows were measured again (%d) while the width moved (now %v, was %v)", l.measured-measured, l.width, width)
			}
			timers.run(resizeSettle - time.Millisecond)
			if l.width != width {
				t.Fatal("the width applied before it settled")
			}
			timers.run(resizeSettle)
			if len(timers.due) != 1 {
				t.Fatalf("%d timers left after the width settled, want the one re-measuring the rest", len(timers.due))
			}
			inView := l.measured - measured
			if l.width == width || inView == 0 || inView >= rows/2 {
				t.Fatalf("after settling: width %v (was %v), %d of %d rows measured; want the new width and only the rows in view",
					l.width, width, inView, rows)
			}
			if got := l.anchor(); got != before {
				t.Errorf("the view moved from %+v to %+v", before, got)
			}

			timers.drain(t)
			if l.lazy {
				t.Fatal("still re-measuring after the timers ran out")
			}
			for i := range rows {
				if l.stale(i) {
					t.Fatalf("row %d still has its old width's height", i)
				}
			}
			if n := l.measured - measured; n != rows {
				t.Errorf("%d rows measured for the new width, want each of the %d once", n, rows)
			}
			if got := l.anchor(); got != before {
				t.Errorf("after re-measuring the rest the view is at %+v, was %+v", got, before)
			}
			// The heights given to the list are the measured ones: the
			// view's end is the content's end.
			if before.end && !l.atEnd() {
				t.Error("the view left the end")
			}
		})
	}
}

func TestResizeBackBeforeSettlingMeasuresNothing(t *testing.T) {
	h := newHarness(t)
	timers := &manualTimers{}
	l := h.chat.list
	l.schedule = timers.schedule
	h.chat.Open(fillWith(t, h.core.Engine().DB, 100, wrapped))
	width, measured := l.width, l.measured
	size := h.win.Canvas().Size()
	h.win.Resize(fyne.NewSize(700, 800))
	h.win.Resize(size)
	timers.drain(t)
	if l.width != width || l.measured != measured {
		t.Errorf("width %v (was %v), %d rows measured; want nothing done", l.width, width, l.measured-measured)
	}
}

// An error card shows Retry only while it is the last row: when a new
// message follows it, it gets shorter, and the view still follows the end
// (the heights the list has are the measured ones).
func TestRowsBeforeTheNewOnesChangeHeightAndTheViewKeepsTheEnd(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("a reply long enough to fill the view. ", 60)
	h.model.Reply(pt.Hold())
	h.send("hello")
	<-h.model.Waiting()
	h.chat.Stop()
	h.idle()
	if errs := h.rowsOf(rowError); len(errs) != 1 || !h.hasButton("Retry") {
		t.Fatalf("%d error rows, Retry shown %v; want the stopped turn's card with Retry", len(errs), h.hasButton("Retry"))
	}
	// While the next reply is written (the error card is no longer last,
	// so it has no Retry).
	release := make(chan struct{})
	h.model.Reply(pt.Text(long), pt.Wait(release), pt.Text("."))
	h.send("and more")
	<-h.model.Waiting()
	h.until("the reply", func() bool {
		r := h.rowsOf(rowAssistant)
		return len(r) == 1 && r[0].text == long
	})
	l := h.chat.list
	if !l.atEnd() {
		t.Fatal("the view did not follow the end")
	}
	want := l.list.GetScrollOffset()
	l.list.ScrollToBottom() // the list's own idea of its end
	if got := l.list.GetScrollOffset(); got != want {
		t.Errorf("the list's end is at %v, the view followed to %v: the heights it has are not the measured ones", got, want)
	}
	close(release)
	h.idle()
}

// Tool turns with the view at the end of a long conversation make few
// row widgets: Fyne's list refreshes whole at every SetItemHeight and
// RefreshItem, and each full refresh made a row widget to measure and
// dropped its spare ones, so a tool turn made about 27 row widgets (each
// kept by Fyne's renderer cache for a minute). Now the heights of a
// change are set with the refreshes held, and the measured row widget is
// always the same.
func TestToolTurnsAtTheEndMakeFewRowWidgets(t *testing.T) {
	h := newHarness(t)
	id := fill(t, h.core.Engine().DB, 450)
	h.chat.Open(id)
	h.idle()
	turn := func(i int) {
		h.model.Reply(pt.ToolCall("calc_eval", `{"expression": "6*7"}`))
		h.model.Reply(pt.Text("The answer ", "is **42**."))
		h.send(fmt.Sprintf("tool %d", i))
		h.idle()
	}
	turn(0)
	const turns, perTurn = 10, 8
	made, refreshes := h.chat.list.rowViews, h.chat.list.list.refreshes
	for i := 1; i <= turns; i++ {
		turn(i)
	}
	if !h.chat.list.atEnd() {
		t.Fatal("the view did not follow the turns to the end")
	}
	made, refreshes = h.chat.list.rowViews-made, h.chat.list.list.refreshes-refreshes
	t.Logf("%d tool turns: %d row widgets made, %d full refreshes of the list", turns, made, refreshes)
	if made > turns*perTurn {
		t.Errorf("%d tool turns made %d row widgets, want at most %d a turn", turns, made, perTurn)
	}
	// Each turn waits for the model twice; the waiting lines are kept
	// with the cards, not made per row widget.
	if n := len(h.chat.list.cards.kinds[rowWaiting]); n > 2 {
		t.Errorf("%d cards for the waiting line, want at most 2", n)
	}
	// The cards are bounded by what the view can show, and every row in
	// view shows on a card of its own.
	for k, slots := range h.chat.list.cards.kinds {
		t.Logf("kind %d: %d cards, bound %d", k, len(slots), h.chat.list.cardsOf(k))
		if limit := h.chat.list.cardsOf(k); len(slots) > limit {
			t.Errorf("%d cards of kind %d, want at most %d", len(slots), k, limit)
		}
	}
	shown := 0
	for _, o := range h.visible() {
		if v, ok := o.(*rowView); ok && v.slot != nil {
			shown++
			if v.slot.r != v.key.r {
				t.Errorf("a row in view (kind %d) shows on a card another row took", v.key.r.kind)
			}
		}
	}
	if shown == 0 {
		t.Error("no row in view")
	}
}
