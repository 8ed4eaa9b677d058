package chat

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/ui/tip"
)

// longChat opens a conversation of n messages (fill's questions and
// Markdown answers) in a new harness and lets it settle.
func longChat(t testing.TB, n int) *harness {
	h := newHarness(t)
	id := fill(t, h.core.Engine().DB, n)
	h.chat.Open(id)
	h.settle()
	return h
}

// settle runs what the UI queued (a measure of rows come into view).
func (h *harness) settle() {
	h.t.Helper()
	h.until("the conversation to load and the rows in view to be measured", func() bool {
		return !h.chat.list.fixing && !h.chat.loadingOlder && !h.chat.restDue
	})
	for {
		select {
		case fn := <-h.queue:
			fn()
		default:
			return
		}
	}
}

// exactHeight is the content height of the current rows all measured.
func exactHeight(l *messageList) float32 {
	v := newRowView(l.c)
	v.quiet = true
	total, gap := float32(0), l.gap()
	for i := range l.c.rowCount() {
		v.bind(l.c.rowAt(i), l.c.isLast(i), false)
		total += v.heightFor(l.width) + gap
	}
	return total - gap
}

// rowsInView are the rows the list shows now.
func rowsInView(l *messageList) []int {
	off, h := l.list.GetScrollOffset(), l.list.Size().Height
	var out []int
	y, gap := float32(0), l.gap()
	for i := range l.c.rowCount() {
		rh := l.heightOf(i)
		if y+rh > off && y < off+h {
			out = append(out, i)
		}
		y += rh + gap
	}
	return out
}

func TestLongConversationScrollBarSpansAllOfIt(t *testing.T) {
	h := longChat(t, 500)
	l := h.chat.list
	if !h.chat.cur.complete || len(h.chat.cur.events) != 500 {
		t.Fatalf("opened with %d of 500 events (complete %v): the scroll bar cannot span what is not there", len(h.chat.cur.events), h.chat.cur.complete)
	}
	if l.measured >= 100 {
		t.Errorf("%d rows measured to open it, want only those in view", l.measured)
	}
	// The thumb's size and place come from the content height: within a
	// quarter of what measuring every row gives.
	exact := exactHeight(l)
	got := l.total
	if got < exact*0.75 || got > exact*1.33 {
		t.Errorf("content height %.0f with estimates, %.0f measured: the thumb's size and place mislead", got, exact)
	}
	if !l.atEnd() {
		t.Error("did not open at the end")
	}
}

func TestDraggingTheThumbToTheTopShowsMessageOne(t *testing.T) {
	h := longChat(t, 500)
	l := h.chat.list
	// What a drag of the thumb to the top does: the offset becomes 0.
	l.list.ScrollToOffset(0)
	h.settle()
	if !h.shows("Question 0:") {
		t.Fatalf("after dragging to the top the window does not show message 1; it shows:\n%s", h.texts())
	}
	if off := l.list.GetScrollOffset(); off != 0 {
		t.Errorf("the view moved to %v after the rows at the top were measured", off)
	}
	for _, i := range rowsInView(l) {
		if l.guessed(i) {
			t.Errorf("row %d in view still has an estimated height", i)
		}
	}
}

func TestRowsMeasuredComingIntoViewDoNotMoveIt(t *testing.T) {
	h := longChat(t, 500)
	l := h.chat.list
	l.list.ScrollToOffset(l.total / 2)
	before := l.anchorTop()
	h.settle()
	if got := l.anchorTop(); got.seq != before.seq || got.delta < before.delta-1 || got.delta > before.delta+1 {
		t.Errorf("the row at the top of the view went from %+v to %+v as the rows in view were measured", before, got)
	}
	for _, i := range rowsInView(l) {
		if l.guessed(i) {
			t.Errorf("row %d in view still has an estimated height", i)
		}
	}
}

func TestAWheelNotchScrollsAboutThreeLines(t *testing.T) {
	h := longChat(t, 500)
	l := h.chat.list
	l.list.ScrollToOffset(l.total / 2)
	h.settle()
	for _, tc := range []struct {
		name string
		dy   float32 // what Fyne's desktop driver reports for one notch
		sign float32
	}{{"up", driverNotch, -1}, {"down", -driverNotch, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			before := l.list.GetScrollOffset()
			pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(l).Add(fyne.NewPos(l.Size().Width/2, l.Size().Height/2))
			test.Scroll(h.win.Canvas(), pos, 0, tc.dy)
			moved := (l.list.GetScrollOffset() - before) * tc.sign
			if moved < 50 || moved > 100 {
				t.Errorf("one notch %s moved the view %.0f px, want about three lines (50–100 px)", tc.name, moved)
			}
		})
	}
}

func TestJumpButtonsAndTheirTips(t *testing.T) {
	h := longChat(t, 500)
	j := h.chat.list.jump
	if !j.top.Visible() || j.latest.Visible() {
		t.Fatalf("at the end: top shown %v, latest shown %v; want only top", j.top.Visible(), j.latest.Visible())
	}
	test.Tap(j.top)
	h.settle()
	if !h.shows("Question 0:") || !h.chat.list.atTop() {
		t.Fatalf("the top button did not show message 1; the window shows:\n%s", h.texts())
	}
	if j.top.Visible() || !j.latest.Visible() {
		t.Errorf("at the top: top shown %v, latest shown %v; want only latest", j.top.Visible(), j.latest.Visible())
	}
	test.Tap(j.latest)
	h.settle()
	if !h.chat.list.atEnd() || !h.shows(fmt.Sprintf("Answer %d", 499)) {
		t.Fatal("the latest button did not show the last message")
	}
	for _, b := range []*tip.Button{j.top, j.latest} {
		b.MouseIn(&desktop.MouseEvent{})
		found := tip.Find(h.win.Content()).Text() == b.Tip
		b.MouseOut()
		if !found {
			t.Errorf("hovering the button shows no tip %q", b.Tip)
		}
	}
}

func TestJumpToFirstLoadsThePagesBeforeIt(t *testing.T) {
	h := newHarness(t)
	h.chat.openWhole = 100
	id := fill(t, h.core.Engine().DB, 450)
	h.chat.Open(id)
	if h.chat.cur.complete {
		t.Fatal("opened whole; the test needs the paged path")
	}
	h.chat.JumpToFirst()
	h.until("the first page", func() bool { return h.chat.cur.complete && h.chat.list.atTop() })
	h.settle()
	if !h.shows("Question 0:") {
		t.Fatalf("Ctrl+Home did not show message 1; the window shows:\n%s", h.texts())
	}
}

// BenchmarkOpenAndJumpToFirst5000 opens a 5,000-message conversation and
// jumps to its first message (Ctrl+Home), until message 1 is laid out in
// view (headless; wrasse-bench times the same in the real window).
func BenchmarkOpenAndJumpToFirst5000(b *testing.B) {
	h := newHarness(b)
	id := fill(b, h.core.Engine().DB, 5000)
	for b.Loop() {
		h.chat.NewConversation()
		h.chat.Open(id)
		h.chat.JumpToFirst()
		h.settle()
		if !h.chat.list.atTop() || h.chat.list.guessed(0) {
			b.Fatal("message 1 is not in view, measured")
		}
	}
}

// BenchmarkListChangeAtTheEnd is what the list does for each event of a
// turn (a row at the end changed) and at a turn's start and end (every
// row looked at again), with a conversation of 60 or 5,000 messages open:
// it must not grow with the conversation.
func BenchmarkListChangeAtTheEnd(b *testing.B) {
	for _, n := range []int{60, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			h := newHarness(b)
			h.chat.Open(fill(b, h.core.Engine().DB, n))
			h.settle()
			l := h.chat.list
			last := h.chat.rowCount() - 1
			for b.Loop() {
				h.chat.cur.rows[last].version++
				l.rowChanged(last)
				l.changed(last)
			}
		})
	}
}

// BenchmarkLoadRest5000 is what the UI goroutine does when the earlier
// events of a 5,000-message conversation arrive after its last page
// showed: the rows built, the list made again with estimated heights and
// the rows in view measured.
func BenchmarkLoadRest5000(b *testing.B) {
	h := newHarness(b)
	id := fill(b, h.core.Engine().DB, 5000)
	older, err := h.core.History().EventsBefore(id, 5000-pageSize+1, 0)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		h.chat.NewConversation()
		h.chat.Open(id)
		h.until("the rest to load", func() bool { return !h.chat.loadingOlder && !h.chat.restDue })
		h.chat.cur.load(h.chat.cur.events[len(h.chat.cur.events)-pageSize:], false)
		h.chat.list.reset(anchor{end: true})
		b.StartTimer()
		a := h.chat.list.anchor()
		h.chat.cur.prepend(older, true)
		h.chat.list.rebuild(a)
		h.chat.list.Refresh()
	}
}

// A regeneration reloads the transcript, making every row anew: in a long
// conversation only the rows in view are measured again, and the heights
// of the rows gone do not pile up.
func TestReloadingALongTranscriptMeasuresWhatIsInView(t *testing.T) {
	h := longChat(t, 500)
	l := h.chat.list
	n := h.chat.rowCount()
	for round := range 3 {
		measured := l.measured
		tr := h.chat.cur
		tr.truncateFrom(tr.rows[len(tr.rows)-1].seq) // what Regenerate does first
		l.changed(0)
		h.settle()
		if got := l.measured - measured; got >= 100 {
			t.Errorf("round %d: %d rows measured after the reload, want only those in view", round, got)
		}
		if len(l.heights) > 3*n+64 {
			t.Errorf("round %d: %d heights kept for %d rows", round, len(l.heights), n)
		}
	}
}

// The loaded-capabilities strip is refreshed as every turn starts and
// ends: it keeps its widgets, since Fyne keeps a dropped widget's renderer
// for a minute and new ones every turn piled up while turns ran (issue 24,
// memory with a long conversation on screen).
func TestLoadedStripKeepsItsWidgetsAcrossRefreshes(t *testing.T) {
	h := newHarness(t)
	s := h.chat.strip
	s.refresh()
	before := append([]fyne.CanvasObject(nil), s.box.Objects...)
	if len(before) < 2 {
		t.Fatalf("the strip shows %d objects, want the icon and the always-loaded capabilities", len(before))
	}
	for range 3 {
		s.refresh()
	}
	if len(s.box.Objects) != len(before) {
		t.Fatalf("the strip went from %d to %d objects", len(before), len(s.box.Objects))
	}
	for i, o := range s.box.Objects {
		if o != before[i] {
			t.Errorf("object %d of the strip was made anew by a refresh", i)
		}
	}
}
