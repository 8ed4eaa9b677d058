package store

import (
	"testing"
)

func TestTruncateFrom(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "m")
	u1 := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "first"})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "one", Status: StatusComplete})
	u2 := mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "second"})
	// A reply still streaming: its pieces must go too.
	s := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
	if err := db.AppendText(c.ID, s.Seq, "partial"); err != nil {
		t.Fatal(err)
	}

	n, err := db.TruncateFrom(c.ID, u2.Seq)
	if err != nil || n != 2 {
		t.Fatalf("TruncateFrom = %d, %v; want 2 events removed", n, err)
	}
	evs := mustEvents(t, db, c.ID)
	if len(evs) != 2 || evs[0].Seq != u1.Seq || evs[1].Text != "one" {
		t.Fatalf("events after truncation: %+v", evs)
	}
	got, _ := db.GetConversation(c.ID)
	if got.EventCount != 2 {
		t.Fatalf("EventCount = %d, want 2", got.EventCount)
	}
	// New events continue after the removed ones, and nothing of the
	// streaming reply survives a reopen.
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "second, edited"})
	db = reopen(t, db, path, clock)
	assertNoStreamingIndex(t, db)
	evs = mustEvents(t, db, c.ID)
	if len(evs) != 3 || evs[2].Text != "second, edited" || evs[2].Seq <= s.Seq {
		t.Fatalf("events after reopen: %+v", evs)
	}
	if n, err := db.TruncateFrom(c.ID, 1000); err != nil || n != 0 {
		t.Fatalf("truncating past the end = %d, %v", n, err)
	}
	if _, err := db.TruncateFrom(c.ID+99, 1); err == nil {
		t.Fatal("truncating a missing conversation must fail")
	}
}
