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

// BenchmarkLoad5000 loads a stored 5,000-event conversation whole, as the UI
// does when a conversation is opened.
func BenchmarkLoad5000(b *testing.B) {
	db, _, _ := openTest(b)
	c := mustConv(b, db, "m")
	fill(b, db, c.ID, 5000)
	b.ReportAllocs()
	for b.Loop() {
		evs, err := db.Events(c.ID)
		if err != nil || len(evs) != 5000 {
			b.Fatalf("%d events, %v", len(evs), err)
		}
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
