package chat

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/wrasse-app/wrasse/brain/store"
)

// A reply of megabytes streams in at the cost of the rows in view: a
// flush re-parses and re-measures only what changed (the bar saying how
// much there is), never the whole text, and the window shows the first
// pieces with Show more and Show all. On main every flush parsed the
// whole reply twice (its row and the measuring row) and laid it all out.
func TestLongReplyStreamsWithoutRerenderingIt(t *testing.T) {
	h := newHarness(t)
	reply := longReply(2 << 20)
	const steps = 24
	advance := streamInSteps(h, reply, steps)
	h.send("write a lot")
	l := h.chat.list
	for k := range steps {
		advance(k)
	}
	h.idle()
	r := h.streamingRow()
	if r.text != reply {
		t.Fatalf("the reply shown has %d bytes, want %d", len(r.text), len(reply))
	}
	// What streaming cost: every flush together parsed a few pieces, not
	// the reply again and again.
	if l.parsedBytes > 4*(longMessage+pieceMax)+2*len(reply)/steps {
		t.Errorf("streaming %d bytes in %d steps parsed %d bytes of Markdown (%d parses): the shown text is parsed again per flush",
			len(reply), steps, l.parsedBytes, l.parses)
	}
	if r.long == nil || r.long.more == nil {
		t.Fatal("a 2 MB reply is not shown in pieces with a bar")
	}
	shown := len(r.body)
	for _, p := range r.long.parts {
		shown += len(p.body)
	}
	if shown > firstShown+pieceMax {
		t.Errorf("the window shows %d bytes of the reply at first, want about %d", shown, firstShown)
	}
	if !h.shows("Show all") || !h.shows(fmt.Sprintf("of %s.", sizeText(len(reply)))) {
		t.Errorf("the bar does not say how much is shown; the window shows:\n%s", h.texts())
	}
	// Copy takes the whole reply, whatever is shown.
	h.chat.copyRow(r)
	if len(h.copied) == 0 || h.copied[len(h.copied)-1] != reply {
		t.Error("Copy did not copy the whole reply")
	}
	// The store and the export have all of it too.
	id := h.chat.cur.id
	var stored string
	for _, e := range h.stored(id) {
		if e.Type == store.EventAssistantText {
			stored = e.Text
		}
	}
	if stored != reply {
		t.Errorf("the stored reply has %d bytes, want %d", len(stored), len(reply))
	}
	var out exportBuffer
	done := false
	h.chat.export(id, "Long", &out, func(err error) {
		if err != nil {
			t.Errorf("export: %v", err)
		}
		done = true
	})
	h.until("the export written", func() bool { return done })
	if !strings.Contains(out.String(), strings.TrimRight(reply, "\n")) {
		t.Errorf("the export (%d bytes) does not hold the whole reply (%d bytes)", out.Len(), len(reply))
	}
}

// exportBuffer is a file to export into.
type exportBuffer struct{ bytes.Buffer }

func (*exportBuffer) Close() error { return nil }

// A long reply read back from the store opens in pieces too, and the
// find bar finds words in its pieces not shown, on its first row.
func TestLongReplyOpensInPiecesAndIsFound(t *testing.T) {
	h := newHarness(t)
	h.chat.Open(storeReply(t, h, longReply(600<<10)+"The very last word is zanzibar.\n"))
	r := h.streamingRow()
	if r == nil || r.long == nil || r.long.more == nil || h.chat.rowCount() > 2+firstShown/pieceMin+1 {
		t.Fatalf("a 600 KB reply opened as %d rows", h.chat.rowCount())
	}
	if !h.shows("Show all") {
		t.Errorf("the reply's bar is not shown at the end; the window shows:\n%s", h.texts())
	}
	h.chat.ShowFind()
	test.Type(h.chat.find.entry, "zanzibar")
	if got := h.chat.find.count.Text; got != "1 of 1" {
		t.Errorf("find says %q", got)
	}
	if h.chat.list.highlight != r {
		t.Error("the match is not on the reply's first row")
	}
}

// storeReply makes a conversation of a question and a stored reply.
func storeReply(t *testing.T, h *harness, reply string) store.ID {
	t.Helper()
	db := h.core.Engine().DB
	c, err := db.CreateConversation("fake-model")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []store.Event{
		{Type: store.EventUserMessage, Text: "write a lot"},
		{Type: store.EventAssistantText, Model: "fake-model", Text: reply},
	} {
		if _, err := db.AppendEvent(c.ID, e); err != nil {
			t.Fatal(err)
		}
	}
	return c.ID
}

// Show more adds about moreShown bytes of pieces and leaves the view where
// it was; Show all adds every piece, a step at a time between frames,
// measuring each once, until the bar goes.
func TestLongReplyShowMoreAndShowAll(t *testing.T) {
	h := newHarness(t)
	reply := longReply(400 << 10)
	h.chat.Open(storeReply(t, h, reply))
	l := h.chat.list
	r := h.streamingRow()
	if r == nil || r.long == nil || r.long.more == nil {
		t.Fatal("a 400 KB reply is not shown in pieces with a bar")
	}

	parts := len(r.long.parts)
	top := l.anchorTop()
	test.Tap(h.button("Show more"))
	h.until("more pieces", func() bool { return !r.revealing() && len(r.long.parts) > parts })
	added := r.long.split.end(len(r.long.parts)) - r.long.split.end(parts)
	if added < moreShown || added > moreShown+pieceMax {
		t.Errorf("Show more added %d bytes, want about %d", added, moreShown)
	}
	if got := l.anchorTop(); got != top || h.shows("Show all") {
		t.Errorf("Show more moved the view from %+v to %+v: it should stay on the top row, the bar going down", top, got)
	}

	l.scrollToEnd()
	h.chat.list.Refresh()
	parsed, measured := l.parsedBytes, l.measured
	test.Tap(h.button("Show all"))
	h.until("every piece", func() bool { return !r.revealing() && r.long.more == nil })
	if n := r.long.split.count(); len(r.long.parts) != n-1 {
		t.Fatalf("%d rows of pieces after Show all, want %d", len(r.long.parts), n-1)
	}
	var all strings.Builder
	all.WriteString(r.body)
	for _, p := range r.long.parts {
		all.WriteString(p.body)
	}
	if all.String() != reply {
		t.Error("the pieces shown do not make up the reply")
	}
	if p := l.parsedBytes - parsed; p > 2*len(reply) {
		t.Errorf("Show all parsed %d bytes of Markdown for a %d-byte reply", p, len(reply))
	}
	if m := l.measured - measured; m > 2*r.long.split.count() {
		t.Errorf("Show all measured %d rows for %d pieces", m, r.long.split.count())
	}
	if h.shows("Show all") {
		t.Error("the bar is still shown after Show all")
	}
}
