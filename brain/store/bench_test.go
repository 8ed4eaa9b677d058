package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// fill writes n events of realistic shapes through AppendEvent, with fsync
// off so setup stays quick (the code path is otherwise the real one).
func fill(tb testing.TB, db *DB, id ID, n int) {
	tb.Helper()
	db.bolt.NoSync = true
	defer func() { db.bolt.NoSync = false }()
	para := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 8)
	for i := range n {
		var e Event
		switch i % 5 {
		case 0:
			e = Event{Type: EventUserMessage, Text: fmt.Sprintf("question %d: %s", i, para[:120])}
		case 1:
			e = Event{Type: EventToolCall, ToolCallID: fmt.Sprint("call_", i), ToolName: "read_file", Arguments: []byte(`{"path":"notes/today.md"}`)}
		case 2:
			e = Event{Type: EventToolResult, ToolCallID: fmt.Sprint("call_", i), ToolName: "read_file", Text: para}
		case 3:
			e = Event{Type: EventAssistantText, Model: "m", Text: para + fmt.Sprint(" answer ", i)}
		case 4:
			e = Event{Type: EventUsage, Model: "m", Usage: &provider.Usage{InputTokens: i, OutputTokens: 40}}
		}
		if _, err := db.AppendEvent(id, e); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkLoad5000 loads a stored 5,000-event conversation whole: decoded
// from the file (the first read, as when a conversation is opened), and
// again once it is cached (what each turn's read costs: a copy of the
// slice).
func BenchmarkLoad5000(b *testing.B) {
	db, _, _ := openTest(b)
	c := mustConv(b, db, "m")
	fill(b, db, c.ID, 5000)
	for _, r := range []struct {
		name string
		read func(ID) ([]Event, error)
	}{
		{"file", func(id ID) ([]Event, error) { return db.EventsBefore(id, 0, 0) }},
		{"cached", db.Events},
	} {
		b.Run(r.name, func(b *testing.B) {
			if _, err := r.read(c.ID); err != nil { // the first read caches
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				evs, err := r.read(c.ID)
				if err != nil || len(evs) != 5000 {
					b.Fatalf("%d events, %v", len(evs), err)
				}
			}
		})
	}
}

// BenchmarkLast50Of5000 is the cheap path: the tail of a long conversation.
func BenchmarkLast50Of5000(b *testing.B) {
	db, _, _ := openTest(b)
	c := mustConv(b, db, "m")
	fill(b, db, c.ID, 5000)
	b.ReportAllocs()
	for b.Loop() {
		evs, err := db.LastEvents(c.ID, 50)
		if err != nil || len(evs) != 50 || evs[49].Seq != 5000 {
			b.Fatalf("%d events, %v", len(evs), err)
		}
	}
}

// BenchmarkSearch scans 20 conversations of 250 events.
func BenchmarkSearch(b *testing.B) {
	db, _, _ := openTest(b)
	for range 20 {
		c := mustConv(b, db, "m")
		fill(b, db, c.ID, 250)
	}
	for _, q := range []struct{ name, query string }{
		{"rare", "answer 4242 lisbon"}, // few events contain a term
		{"common", "lazy fox"},         // most events match
	} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := db.Search(q.query, 10); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendEvent is one durable (fsynced) append.
func BenchmarkAppendEvent(b *testing.B) {
	db, _, _ := openTest(b)
	c := mustConv(b, db, "m")
	for b.Loop() {
		if _, err := db.AppendEvent(c.ID, Event{Type: EventUserMessage, Text: "hello"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamReply1MB streams a 1 MiB reply in 512-byte pieces, each
// its own durable transaction (the agent's smallest batch; it batches more
// as a reply grows), then finishes it. Pieces are stored append-only, so
// the cost grows linearly with the reply (rewriting the whole text per
// piece made this quadratic: about 10 s). The nosync variant leaves out
// the 2,048 fsyncs, whose cost depends on the disk.
func BenchmarkStreamReply1MB(b *testing.B) {
	piece := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 12)[:512]
	const pieces = 1 << 20 / 512
	for _, bc := range []struct {
		name   string
		noSync bool
	}{{"fsync", false}, {"nosync", true}} {
		b.Run(bc.name, func(b *testing.B) {
			db, _, _ := openTest(b)
			if err := db.SetSecret("KEY", "sk-live-0123456789abcdef"); err != nil {
				b.Fatal(err)
			}
			db.bolt.NoSync = bc.noSync
			c := mustConv(b, db, "m")
			b.SetBytes(pieces * 512)
			for b.Loop() {
				e, err := db.AppendEvent(c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
				if err != nil {
					b.Fatal(err)
				}
				for range pieces {
					if err := db.AppendText(c.ID, e.Seq, piece); err != nil {
						b.Fatal(err)
					}
				}
				if err := db.FinishEvent(c.ID, e.Seq, StatusComplete); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFinishEvent10MB is the commit at the end of a 10 MB reply with
// tens of thousands of distinct words (numbered sections, as a long
// generated answer has): the whole text redacted, encoded and indexed in
// one transaction. Each op streams the reply in 1 MiB pieces untimed and
// times FinishEvent alone.
func BenchmarkFinishEvent10MB(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 10<<20; i++ {
		fmt.Fprintf(&sb, "## Section %d\n\nParagraph %d has **bold** words and `f%d()`. ", i, i, i)
		sb.WriteString(strings.Repeat("It goes on for a while, as a long answer does. ", 6) + "\n\n")
	}
	text := sb.String()
	db, _, _ := openTest(b)
	db.bolt.NoSync = true
	c := mustConv(b, db, "m")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		e, err := db.AppendEvent(c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
		if err != nil {
			b.Fatal(err)
		}
		for rest := text; rest != ""; {
			n := min(len(rest), 1<<20)
			if err := db.AppendText(c.ID, e.Seq, rest[:n]); err != nil {
				b.Fatal(err)
			}
			rest = rest[n:]
		}
		b.StartTimer()
		if err := db.FinishEvent(c.ID, e.Seq, StatusComplete); err != nil {
			b.Fatal(err)
		}
	}
}
