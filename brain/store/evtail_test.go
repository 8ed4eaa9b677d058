package store

import (
	"fmt"
	"reflect"
	"testing"
)

// tailConv is a conversation of n user messages each followed by a reply.
func tailConv(t *testing.T, db *DB, n int) ID {
	t.Helper()
	c := mustConv(t, db, "m")
	for i := 0; i < n; i++ {
		mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: fmt.Sprintf("question %d", i)})
		mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: fmt.Sprintf("answer %d", i)})
	}
	return c.ID
}

// heldFrom is the Seq the cached tail of id starts at and how many events
// are held (-1 when none are).
func heldFrom(db *DB, id ID) (uint64, int) {
	db.cache.mu.Lock()
	defer db.cache.mu.Unlock()
	c := db.cache.convs[id]
	if c == nil || !c.loaded {
		return 0, -1
	}
	return c.from, len(c.events)
}

// A reader that keeps a tail (KeepTail) makes the cache hold only that
// tail; SharedTail lends it, with what was appended since, while nothing
// before it changes; every other read still gives the whole history.
func TestSharedTailHoldsOnlyTheTail(t *testing.T) {
	db, _, _ := openTest(t)
	id := tailConv(t, db, 50)
	all, _, err := db.SharedEvents(id)
	if err != nil || len(all) != 100 {
		t.Fatalf("SharedEvents: %d events, %v", len(all), err)
	}
	if !db.KeepTail(id, 81) {
		t.Fatal("KeepTail refused with nothing changed")
	}
	if from, n := heldFrom(db, id); from != 81 || n != 20 {
		t.Fatalf("cache holds %d events from %d, want 20 from 81", n, from)
	}
	mustAppend(t, db, id, Event{Type: EventUserMessage, Text: "more"})
	tail, epoch, ok, err := db.SharedTail(id, 81)
	if err != nil || !ok {
		t.Fatalf("SharedTail: ok %v, %v", ok, err)
	}
	whole := fromFile(t, db, id)
	if !reflect.DeepEqual(tail, whole[80:]) {
		t.Fatalf("tail is not the file's events from 81")
	}
	if tail2, epoch2, _, _ := db.SharedTail(id, 81); epoch == 0 || epoch2 != epoch || &tail2[0] != &tail[0] {
		t.Errorf("a second SharedTail did not lend the same slice (epochs %d, %d)", epoch, epoch2)
	}
	// Readers of the whole history read the file and leave the tail.
	if evs := mustEvents(t, db, id); !reflect.DeepEqual(evs, whole) {
		t.Errorf("Events with a tail cached is not the whole history")
	}
	if evs, _, err := db.SharedEvents(id); err != nil || !reflect.DeepEqual(evs, whole) {
		t.Errorf("SharedEvents with a tail cached is not the whole history: %v", err)
	}
	if from, n := heldFrom(db, id); from != 81 || n != 21 {
		t.Errorf("after whole reads the cache holds %d events from %d, want the tail of 21 from 81", n, from)
	}
	// Another reader's whole read leaves the tail to its reader…
	if _, _, ok, _ := db.SharedTail(id, 81); !ok {
		t.Errorf("SharedTail refused a tail after another reader read everything")
	}
	// …and hides no change before it.
	if err := db.UpdateEvent(id, Event{Seq: 4, Type: EventAssistantText, Text: "changed"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.SharedEvents(id); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := db.SharedTail(id, 81); ok {
		t.Errorf("SharedTail lent a tail whose events before it changed, after another reader read everything")
	}
}

// Any change to an event before the tail, cached or not, makes SharedTail
// refuse it; changes in the tail do not. Evicted, the tail is read from
// the file.
func TestSharedTailSeesChangesBeforeIt(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, db *DB, id ID)
		ok     bool
	}{
		{"nothing", func(*testing.T, *DB, ID) {}, true},
		{"append", func(t *testing.T, db *DB, id ID) {
			mustAppend(t, db, id, Event{Type: EventUserMessage, Text: "x"})
		}, true},
		{"update in the tail", func(t *testing.T, db *DB, id ID) {
			if err := db.UpdateEvent(id, Event{Seq: 90, Type: EventAssistantText, Text: "changed"}); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"update before", func(t *testing.T, db *DB, id ID) {
			if err := db.UpdateEvent(id, Event{Seq: 4, Type: EventAssistantText, Text: "changed"}); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"truncate before", func(t *testing.T, db *DB, id ID) {
			if _, err := db.TruncateFrom(id, 41); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"version before", func(t *testing.T, db *DB, id ID) {
			if _, err := db.KeepVersion(id, 41); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range tests {
		for _, evicted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s evicted %v", tc.name, evicted), func(t *testing.T) {
				db, _, _ := openTest(t)
				id := tailConv(t, db, 50)
				if _, _, err := db.SharedEvents(id); err != nil {
					t.Fatal(err)
				}
				if !db.KeepTail(id, 81) {
					t.Fatal("KeepTail refused")
				}
				if evicted {
					db.cache.mu.Lock()
					db.cache.convs[id].unload()
					db.cache.mu.Unlock()
				}
				tc.change(t, db, id)
				tail, _, ok, err := db.SharedTail(id, 81)
				if err != nil || ok != tc.ok {
					t.Fatalf("SharedTail: ok %v (want %v), %v", ok, tc.ok, err)
				}
				if ok {
					whole := fromFile(t, db, id)
					if !reflect.DeepEqual(tail, whole[80:]) {
						t.Errorf("tail is not the file's events from 81")
					}
				}
				if from, _ := heldFrom(db, id); from != 0 && from != 81 {
					t.Errorf("cache holds a tail from %d", from)
				}
			})
		}
	}
}

// A change before the tail between the read and KeepTail makes KeepTail
// refuse: the reader's knowledge of the events before it is stale.
func TestKeepTailAfterAChangeBeforeIt(t *testing.T) {
	db, _, _ := openTest(t)
	id := tailConv(t, db, 50)
	if _, _, err := db.SharedEvents(id); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateEvent(id, Event{Seq: 4, Type: EventAssistantText, Text: "changed"}); err != nil {
		t.Fatal(err)
	}
	if db.KeepTail(id, 81) {
		t.Fatal("KeepTail kept a tail after an event before it changed")
	}
	if _, _, ok, _ := db.SharedTail(id, 81); ok {
		t.Fatal("SharedTail lent a tail KeepTail refused")
	}
	// Deleting the conversation forgets its mark.
	if _, _, err := db.SharedEvents(id); err != nil {
		t.Fatal(err)
	}
	db.KeepTail(id, 81)
	if err := db.DeleteConversation(id); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := db.SharedTail(id, 81); ok {
		t.Fatal("SharedTail lent a tail of a deleted conversation")
	}
}
