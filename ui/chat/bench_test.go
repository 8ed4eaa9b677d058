package chat

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/wrasse-app/wrasse/brain/store"
)

// fill makes a conversation of n messages, alternating the user's and
// Markdown replies with lists and code.
func fill(tb testing.TB, db *store.DB, n int) store.ID {
	tb.Helper()
	c, err := db.CreateConversation("fake-model")
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		e := store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("Question %d: how do I do the thing number %d well?", i, i)}
		if i%2 == 1 {
			e = store.Event{Type: store.EventAssistantText, Model: "fake-model", Text: fmt.Sprintf(
				"## Answer %d\n\nHere is how, in **three** steps:\n\n1. Read the `docs`.\n2. Try it.\n3. Check [the result](https://example.com).\n\n```go\nfmt.Println(%d)\n```\n", i, i)}
		}
		if _, err := db.AppendEvent(c.ID, e); err != nil {
			tb.Fatal(err)
		}
	}
	return c.ID
}

// BenchmarkOpen5000 opens a 5,000-message conversation: reading its last
// page, building the rows, measuring them and the first layout of the
// list (headless).
func BenchmarkOpen5000(b *testing.B) {
	h := newHarness(b)
	id := fill(b, h.core.Engine().DB, 5000)
	for b.Loop() {
		h.chat.NewConversation()
		h.chat.Open(id)
		if h.chat.rowCount() == 0 || !h.chat.list.atEnd() {
			b.Fatal("the conversation did not open at its end")
		}
	}
}

// A conversation longer than what opens whole loads in pages.
func TestOpenLongerThanWholeShowsTheEndAndLoadsOlderOnScrollUp(t *testing.T) {
	h := newHarness(t)
	h.chat.openWhole = 200
	id := fill(t, h.core.Engine().DB, 450)
	h.chat.Open(id)
	tr := h.chat.cur
	if len(tr.events) != pageSize || tr.complete {
		t.Fatalf("opened with %d events (complete %v), want the last page of %d", len(tr.events), tr.complete, pageSize)
	}
	if !h.chat.list.atEnd() {
		t.Fatal("did not open at the end")
	}
	last := tr.rows[len(tr.rows)-1]
	// Each time the view reaches the top, one more page loads (and the
	// view stays on the row that was at the top).
	for pages := 1; !h.chat.cur.complete; pages++ {
		if pages > 450/pageSize+1 {
			t.Fatalf("still incomplete after %d pages", pages)
		}
		before := len(h.chat.cur.events)
		h.chat.list.list.ScrollToTop()
		h.until("an older page", func() bool { return len(h.chat.cur.events) > before })
		h.until("the load to settle", func() bool { return !h.chat.loadingOlder })
		if n := len(h.chat.cur.events); n != min(before+pageSize, 450) {
			t.Fatalf("one scroll to the top went from %d to %d events, want one page more", before, n)
		}
		if h.chat.list.list.GetScrollOffset() == 0 {
			t.Fatal("after loading a page the view is at the top, not on the row it showed")
		}
	}
	if n := len(h.chat.cur.events); n != 450 {
		t.Errorf("%d events after scrolling to the top, want all 450", n)
	}
	if r := h.chat.cur.rows[len(h.chat.cur.rows)-1]; r.text != last.text {
		t.Errorf("the last row changed while loading older ones")
	}
}

// BenchmarkResize450 is a width change settling in a conversation with
// 450 messages loaded: measuring the rows in view and rebuilding the list
// (the rest are measured later, a chunk at a time).
func BenchmarkResize450(b *testing.B) {
	h := newHarness(b)
	timers := &manualTimers{}
	h.chat.list.schedule = timers.schedule
	id := fill(b, h.core.Engine().DB, 450)
	h.chat.Open(id)
	all, err := h.core.History().Events(id)
	if err != nil {
		b.Fatal(err)
	}
	h.chat.cur.load(all, true)
	h.chat.list.reset(anchor{end: true})
	widths := []float32{700, 900}
	n := 0
	for b.Loop() {
		n++
		h.win.Resize(fyne.NewSize(widths[n%2], 800))
		timers.run(resizeSettle)
		if h.chat.list.width == 0 || !h.chat.list.lazy {
			b.Fatal("the width did not apply")
		}
	}
}
