package store

import "testing"

// Reads counts each read of a conversation's record and of its whole
// history, and nothing else: a turn is checked against it (brain/assistant).
func TestReadsCountsRecordsAndHistories(t *testing.T) {
	tests := []struct {
		name string
		read func(db *DB, id ID) error
		want Reads
	}{
		{"nothing", func(*DB, ID) error { return nil }, Reads{}},
		{"a record", func(db *DB, id ID) error { _, err := db.GetConversation(id); return err }, Reads{Conversations: 1}},
		{"a history, decoded", func(db *DB, id ID) error { _, err := db.Events(id); return err }, Reads{Histories: 1}},
		{"a history twice, the second from the cache", func(db *DB, id ID) error {
			if _, err := db.Events(id); err != nil {
				return err
			}
			_, err := db.Events(id)
			return err
		}, Reads{Histories: 2}},
		{"a missing record", func(db *DB, id ID) error { _, _ = db.GetConversation(id + 100); return nil }, Reads{Conversations: 1}},
		{"a page and one event are not histories", func(db *DB, id ID) error {
			if _, err := db.LastEvents(id, 1); err != nil {
				return err
			}
			_, err := db.Event(id, 1)
			return err
		}, Reads{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, _, _ := openTest(t)
			c := mustConv(t, db, "m")
			mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "hello"})
			before := db.Reads()
			if err := tc.read(db, c.ID); err != nil {
				t.Fatal(err)
			}
			after := db.Reads()
			got := Reads{Conversations: after.Conversations - before.Conversations, Histories: after.Histories - before.Histories}
			if got != tc.want {
				t.Errorf("reads = %+v, want %+v", got, tc.want)
			}
		})
	}
}
