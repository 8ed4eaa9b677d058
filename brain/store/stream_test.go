package store

import (
	"bytes"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// fileHolds reports whether any key or value in the database file, outside
// the secrets bucket, contains s.
func fileHolds(t *testing.T, db *DB, s string) bool {
	t.Helper()
	found := false
	var walk func(b *bolt.Bucket)
	walk = func(b *bolt.Bucket) {
		_ = b.ForEach(func(k, v []byte) error {
			if bytes.Contains(k, []byte(s)) || bytes.Contains(v, []byte(s)) {
				found = true
			}
			if v == nil {
				if nb := b.Bucket(k); nb != nil {
					walk(nb)
				}
			}
			return nil
		})
	}
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if string(name) != bucketSecrets {
				walk(b)
			}
			return nil
		})
	})
	return found
}

// storedEvent is the raw event record, without its pieces.
func storedEvent(t *testing.T, db *DB, id ID, seq uint64) []byte {
	t.Helper()
	var raw []byte
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		raw = bytes.Clone(eventBucket(tx, id).Get(encodeU64(seq)))
		return nil
	})
	return raw
}

func streamKeys(t *testing.T, db *DB) int {
	t.Helper()
	n := 0
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		n = tx.Bucket([]byte(bucketStreaming)).Stats().KeyN
		return nil
	})
	return n
}

// Streamed pieces are stored append-only: the event record is written
// once, each piece under its own key; reads join them and FinishEvent
// folds them in.
func TestStreamPiecesAppendOnly(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "Start."})
	record := storedEvent(t, db, c.ID, r.Seq)
	var want strings.Builder
	want.WriteString("Start.")
	for i := range 50 {
		p := strings.Repeat(string(rune('a'+i%26)), 100)
		if err := db.AppendText(c.ID, r.Seq, p); err != nil {
			t.Fatal(err)
		}
		want.WriteString(p)
	}
	if got := storedEvent(t, db, c.ID, r.Seq); !bytes.Equal(got, record) {
		t.Errorf("the event record was rewritten while streaming:\n got %s\nwant %s", got, record)
	}
	if n := streamKeys(t, db); n != 51 {
		t.Errorf("streaming bucket holds %d keys, want the index key and 50 pieces", n)
	}
	for _, read := range []func() Event{
		func() Event { e, _ := db.Event(c.ID, r.Seq); return e },
		func() Event { return mustEvents(t, db, c.ID)[0] },
		func() Event { evs, _ := db.LastEvents(c.ID, 1); return evs[0] },
	} {
		if e := read(); e.Text != want.String() || e.Status != StatusStreaming {
			t.Errorf("mid-stream read: %d bytes, status %q; want %d bytes", len(e.Text), e.Status, want.Len())
		}
	}
	if err := db.FinishEvent(c.ID, r.Seq, StatusComplete); err != nil {
		t.Fatal(err)
	}
	if e, _ := db.Event(c.ID, r.Seq); e.Text != want.String() || e.Status != StatusComplete {
		t.Errorf("finished: %d bytes, status %q", len(e.Text), e.Status)
	}
	assertNoStreamingIndex(t, db)
}

// A secret split across pieces, at any point, never reaches the file, and
// the reply reads back redacted.
func TestStreamSecretSplitAnywhere(t *testing.T) {
	const key = "sk-live-ABCDEF123456"
	text := "token " + key + " end, and again:" + key
	for cut := 1; cut < len(text); cut++ {
		db, path, clock := openTest(t)
		if err := db.SetSecret("KEY", key); err != nil {
			t.Fatal(err)
		}
		c := mustConv(t, db, "")
		r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
		for _, p := range []string{text[:cut], text[cut:]} {
			if err := db.AppendText(c.ID, r.Seq, p); err != nil {
				t.Fatal(err)
			}
			if fileHolds(t, db, "sk-") {
				t.Fatalf("cut %d: the start of the key is on disk", cut)
			}
		}
		// A crash here keeps what was committed, redacted.
		db = reopen(t, db, path, clock)
		e, _ := db.Event(c.ID, r.Seq)
		if e.Status != StatusInterrupted || e.Text != "token [redacted:KEY] end, and again:[redacted:KEY]" {
			t.Errorf("cut %d: after a crash %q %q", cut, e.Status, e.Text)
		}
	}
}

// A secret saved while a reply streams is redacted when it finishes, and
// a value added with AddRedaction is caught in pieces and at the end.
func TestStreamRedactsLateSecrets(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
	if err := db.AppendText(c.ID, r.Seq, "old tok-1234567 "); err != nil {
		t.Fatal(err)
	}
	if err := db.SetSecret("T", "tok-1234567"); err != nil {
		t.Fatal(err)
	}
	if err := db.AddRedaction("ENV_KEY", "env-abcdefgh"); err != nil {
		t.Fatal(err)
	}
	if err := db.AppendText(c.ID, r.Seq, "new env-abcdefgh tok-1234567"); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishEvent(c.ID, r.Seq, StatusComplete); err != nil {
		t.Fatal(err)
	}
	e, _ := db.Event(c.ID, r.Seq)
	if e.Text != "old [redacted:T] new [redacted:ENV_KEY] [redacted:T]" {
		t.Errorf("text %q", e.Text)
	}
	if fileHolds(t, db, "env-abcdefgh") {
		t.Error("the added value reached the file")
	}
}

// UpdateEvent carries the whole text: a streaming reply's pieces go.
func TestUpdateEventDropsPieces(t *testing.T) {
	for _, status := range []Status{StatusComplete, StatusStreaming, StatusInterrupted} {
		db, _, _ := openTest(t)
		c := mustConv(t, db, "")
		r := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "a"})
		for _, p := range []string{"b", "c"} {
			if err := db.AppendText(c.ID, r.Seq, p); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.UpdateEvent(c.ID, Event{Seq: r.Seq, Type: EventAssistantText, Text: "replaced", Status: status}); err != nil {
			t.Fatal(err)
		}
		if e, _ := db.Event(c.ID, r.Seq); e.Text != "replaced" || e.Status != status {
			t.Errorf("%q: read %q %q", status, e.Text, e.Status)
		}
		want := 0
		if status == StatusStreaming {
			want = 1 // the index key only
			if err := db.AppendText(c.ID, r.Seq, " more"); err != nil {
				t.Fatal(err)
			}
			if e, _ := db.Event(c.ID, r.Seq); e.Text != "replaced more" {
				t.Errorf("appended after the update: %q", e.Text)
			}
			want = 2
		}
		if n := streamKeys(t, db); n != want {
			t.Errorf("%q: %d streaming keys, want %d", status, n, want)
		}
	}
}
