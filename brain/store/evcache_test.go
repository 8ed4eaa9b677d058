package store

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// fromFile decodes id's events from the file, past the cache.
func fromFile(t *testing.T, db *DB, id ID) []Event {
	t.Helper()
	evs, err := db.EventsBefore(id, 0, 0)
	if err != nil {
		t.Fatalf("EventsBefore: %v", err)
	}
	return evs
}

// cached reports whether id's events are held decoded.
func cached(db *DB, id ID) bool {
	db.cache.mu.Lock()
	defer db.cache.mu.Unlock()
	c := db.cache.convs[id]
	return c != nil && c.loaded
}

// After every kind of change to a conversation read before, Events gives
// what the file holds, and the changes that only add to or change the
// newest events keep the conversation decoded (no second decode).
func TestEventsCacheFollowsEveryChange(t *testing.T) {
	tests := []struct {
		name string
		// change alters conversation id.
		change func(t *testing.T, db *DB, id ID)
		// dropped: the cache forgets the conversation (a failed write
		// leaves nothing to vouch for) instead of following the change.
		dropped bool
	}{
		{"append", func(t *testing.T, db *DB, id ID) {
			mustAppend(t, db, id, Event{Type: EventUserMessage, Text: "one more"})
			mustAppend(t, db, id, Event{Type: EventToolCall, ToolCallID: "x", ToolName: "fs_read", Arguments: []byte(`{"path":"a"}`)})
		}, false},
		{"append with images", func(t *testing.T, db *DB, id ID) {
			mustAppend(t, db, id, Event{Type: EventToolResult, ToolCallID: "x", Images: []provider.Image{{MIMEType: "image/gif", Data: []byte("GIF89a")}}})
		}, false},
		{"stream, pieces, finish", func(t *testing.T, db *DB, id ID) {
			e := mustAppend(t, db, id, Event{Type: EventAssistantText, Text: "Hel", Status: StatusStreaming})
			for _, p := range []string{"lo, ", "world"} {
				if err := db.AppendText(id, e.Seq, p); err != nil {
					t.Fatal(err)
				}
				if got := mustEvents(t, db, id); got[len(got)-1].Text != fromFile(t, db, id)[len(got)-1].Text {
					t.Fatalf("while streaming: %q", got[len(got)-1].Text)
				}
			}
			if err := db.FinishEvent(id, e.Seq, StatusComplete); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"update an old event", func(t *testing.T, db *DB, id ID) {
			if err := db.UpdateEvent(id, Event{Seq: 3, Type: EventToolResult, ToolCallID: "call_2", Text: "replaced", IsError: true}); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"edit: truncate and resend", func(t *testing.T, db *DB, id ID) {
			if _, err := db.TruncateFrom(id, 6); err != nil {
				t.Fatal(err)
			}
			mustAppend(t, db, id, Event{Type: EventUserMessage, Text: "the same question, put better"})
		}, false},
		{"regenerate: truncate after the last message", func(t *testing.T, db *DB, id ID) {
			if _, err := db.TruncateFrom(id, 10); err != nil {
				t.Fatal(err)
			}
			mustAppend(t, db, id, Event{Type: EventAssistantText, Text: "another answer"})
		}, false},
		{"truncate past the end", func(t *testing.T, db *DB, id ID) {
			if _, err := db.TruncateFrom(id, 1000); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"failed append", func(t *testing.T, db *DB, id ID) {
			if _, err := db.AppendEvent(id, Event{Type: "bogus"}); err == nil {
				t.Fatal("a bogus event was stored")
			}
			if err := db.AppendText(id, 1, "not streaming"); !errors.Is(err, ErrNotStreaming) {
				t.Fatalf("AppendText on a finished event: %v", err)
			}
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, _, _ := openTest(t)
			c := mustConv(t, db, "m")
			fill(t, db, c.ID, 12)
			before := mustEvents(t, db, c.ID)
			snapshot := append([]Event(nil), before...)
			if !cached(db, c.ID) {
				t.Fatal("a conversation read is not kept")
			}
			// The cache's own slice, lent: the change must copy it, not
			// write into it.
			lent, epoch, err := db.SharedEvents(c.ID)
			if err != nil {
				t.Fatal(err)
			}
			lentSnapshot := append([]Event(nil), lent...)
			tc.change(t, db, c.ID)
			want := fromFile(t, db, c.ID)
			if cached(db, c.ID) == tc.dropped {
				t.Errorf("cached after the change: %v, want %v", !tc.dropped, !tc.dropped)
			}
			if got := mustEvents(t, db, c.ID); !reflect.DeepEqual(got, want) {
				t.Errorf("Events after the change differs from the file:\n got %+v\nwant %+v", got, want)
			}
			// What was handed out before is not changed by what followed.
			if !reflect.DeepEqual(before, snapshot) {
				t.Error("events handed out before the change were changed")
			}
			if !reflect.DeepEqual(lent, lentSnapshot) {
				t.Error("events lent (SharedEvents) before the change were changed")
			}
			// The same epoch promises the events lent before begin the
			// events lent now, unchanged.
			again, epoch2, err := db.SharedEvents(c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if epoch2 == epoch && (len(again) < len(lent) || !reflect.DeepEqual(again[:len(lent)], lentSnapshot)) {
				t.Errorf("lent again under the same epoch %d, but the events lent before changed", epoch)
			}
		})
	}
}

// What Events hands out is the caller's: appending to it or replacing an
// element leaves the cached events as they are.
func TestEventsCallersOwnTheSlice(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	fill(t, db, c.ID, 5)
	got := mustEvents(t, db, c.ID)
	got[0] = Event{Seq: 99, Type: EventError, Text: "scribbled"}
	_ = append(got[:2], Event{Seq: 98, Type: EventError})
	if evs := mustEvents(t, db, c.ID); !reflect.DeepEqual(evs, fromFile(t, db, c.ID)) {
		t.Errorf("a caller's change reached the cache: %+v", evs[:3])
	}
}

// SharedEvents lends the cached events without copying them (a turn late
// in a long day reads its history for nothing), capped so a reader's
// append copies instead of writing into the cache's room; the cache's
// own appends do not show in a slice lent before them.
func TestSharedEventsLendsWithoutCopying(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	fill(t, db, c.ID, 40)
	mustEvents(t, db, c.ID) // decoded and kept
	allocs := testing.AllocsPerRun(20, func() {
		if _, _, err := db.SharedEvents(c.ID); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("SharedEvents of a cached conversation allocated %v times, want 0", allocs)
	}
	lent, epoch, err := db.SharedEvents(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if epoch == 0 {
		t.Error("a cached conversation was lent under epoch 0 (which promises nothing)")
	}
	if cap(lent) != len(lent) {
		t.Errorf("lent slice has room for %d more events: a reader's append would write into the cache", cap(lent)-len(lent))
	}
	mine := append(lent, Event{Seq: 99, Type: EventError, Text: "the reader's own"})
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "the cache's own"})
	if got := mustEvents(t, db, c.ID); got[len(got)-1].Text != "the cache's own" || !reflect.DeepEqual(got, fromFile(t, db, c.ID)) {
		t.Errorf("after a reader's append and a write, Events disagrees with the file: last %q", got[len(got)-1].Text)
	}
	if mine[len(mine)-1].Text != "the reader's own" || len(lent) != 40 {
		t.Errorf("the reader's slice changed under it: %d events, last %q", len(lent), mine[len(mine)-1].Text)
	}
}

// A deleted conversation is gone from the cache: Events says not found.
func TestEventsCacheDeleteConversation(t *testing.T) {
	db, _, _ := openTest(t)
	a, b := mustConv(t, db, "m"), mustConv(t, db, "m")
	fill(t, db, a.ID, 5)
	fill(t, db, b.ID, 5)
	mustEvents(t, db, a.ID)
	wantB := mustEvents(t, db, b.ID)
	if err := db.DeleteConversation(a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Events(a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Events of a deleted conversation: %v, want ErrNotFound", err)
	}
	if cached(db, a.ID) {
		t.Error("a deleted conversation is still cached")
	}
	if got := mustEvents(t, db, b.ID); !reflect.DeepEqual(got, wantB) {
		t.Error("deleting one conversation changed another's events")
	}
}

// Closed and opened again (a restart), the conversation reads as it was
// written; the cache does not outlive Close.
func TestEventsCacheReopen(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "m")
	fill(t, db, c.ID, 20)
	mustEvents(t, db, c.ID)
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "last words"})
	e := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "cut ", Status: StatusStreaming})
	if err := db.AppendText(c.ID, e.Seq, "off"); err != nil {
		t.Fatal(err)
	}
	want := mustEvents(t, db, c.ID)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Events(c.ID); err == nil {
		t.Error("Events after Close answered from the cache")
	}
	db2, err := Open(path, testOptions(clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db2.Close() })
	got := mustEvents(t, db2, c.ID)
	// Open marked the reply left streaming as interrupted.
	want[len(want)-1].Status = StatusInterrupted
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after reopening:\n got %+v\nwant %+v", got[len(got)-2:], want[len(want)-2:])
	}
}

// Two conversations written in turns keep their own events; with room for
// one, the one read last is kept and the other read from the file.
func TestEventsCacheTwoConversations(t *testing.T) {
	for _, room := range []int{0, 1, -1} {
		t.Run(fmt.Sprint("room ", room), func(t *testing.T) {
			clock := newClock()
			opts := testOptions(clock)
			opts.CachedConversations = room
			db, err := Open(t.TempDir()+"/"+FileName, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			a, b := mustConv(t, db, "m"), mustConv(t, db, "m")
			for i := range 6 {
				for _, id := range []ID{a.ID, b.ID} {
					mustAppend(t, db, id, Event{Type: EventUserMessage, Text: fmt.Sprintf("%s message %d", id, i)})
					if got, want := mustEvents(t, db, id), fromFile(t, db, id); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s after %d: got %d events, want %d", id, i, len(got), len(want))
					}
				}
			}
			switch room {
			case 1:
				if cached(db, a.ID) || !cached(db, b.ID) {
					t.Errorf("with room for one: a cached %v, b cached %v; want only b", cached(db, a.ID), cached(db, b.ID))
				}
			case -1:
				if cached(db, a.ID) || cached(db, b.ID) {
					t.Error("a negative CachedConversations still caches")
				}
			}
		})
	}
}

// Writers and readers of the same and another conversation at once: the
// cache ends agreeing with the file (run with -race).
func TestEventsCacheConcurrent(t *testing.T) {
	db, _, _ := openTest(t)
	db.bolt.NoSync = true
	a, b := mustConv(t, db, "m"), mustConv(t, db, "m")
	fill(t, db, a.ID, 10)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 4 {
		wg.Go(func() {
			id := a.ID
			if w%2 == 1 {
				id = b.ID
			}
			for i := range 25 {
				e, err := db.AppendEvent(id, Event{Type: EventAssistantText, Text: "s", Status: StatusStreaming})
				if err != nil {
					errs <- err
					return
				}
				// Another writer's truncation may have removed the reply.
				if err := db.AppendText(id, e.Seq, fmt.Sprint(" piece ", w, i)); err != nil && !errors.Is(err, ErrNotFound) {
					errs <- err
					return
				}
				if err := db.FinishEvent(id, e.Seq, StatusComplete); err != nil && !errors.Is(err, ErrNotFound) {
					errs <- err
					return
				}
				if i == 12 && w == 2 {
					if _, err := db.TruncateFrom(id, e.Seq); err != nil {
						errs <- err
						return
					}
				}
			}
		})
		wg.Go(func() {
			for range 40 {
				for _, id := range []ID{a.ID, b.ID} {
					if _, err := db.Events(id); err != nil {
						errs <- err
						return
					}
					// A lent slice is read while the writers go on: the
					// race detector sees any write into it.
					lent, _, err := db.SharedEvents(id)
					if err != nil {
						errs <- err
						return
					}
					n := 0
					for i := range lent {
						n += len(lent[i].Text) + len(lent[i].Status)
					}
					_ = n
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, id := range []ID{a.ID, b.ID} {
		if got, want := mustEvents(t, db, id), fromFile(t, db, id); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the cache (%d events) disagrees with the file (%d)", id, len(got), len(want))
		}
	}
}

// Reading an unchanged long conversation again decodes nothing: one
// allocation (the copy of the slice) instead of ~42,000 for 5,000 events.
// On main every call decoded the whole history.
func TestEventsAgainDecodesNothing(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "m")
	fill(t, db, c.ID, 5000)
	mustEvents(t, db, c.ID)
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "and one more"})
	allocs := testing.AllocsPerRun(5, func() {
		if evs, err := db.Events(c.ID); err != nil || len(evs) != 5001 {
			t.Fatalf("%d events, %v", len(evs), err)
		}
	})
	if allocs > 2 {
		t.Errorf("Events of a conversation read before: %.0f allocations, want the copy alone", allocs)
	}
}

// A piece streamed into a cached conversation costs its own length, not
// the reply's so far: ten small pieces after 1 MB of reply allocate about
// what they do with no cache (the file's own work), far less than a copy
// of the reply each, and the reply reads as the file has it.
func TestEventsCacheStreamingPieceCostsItsLength(t *testing.T) {
	big := strings.Repeat("All work and no play makes Jack a dull boy. ", 1<<20/44)
	stream := func(room int) (uint64, *DB, ID) {
		clock := newClock()
		opts := testOptions(clock)
		opts.CachedConversations, opts.NoSync = room, true
		db, err := Open(t.TempDir()+"/"+FileName, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		c := mustConv(t, db, "m")
		mustEvents(t, db, c.ID)
		e := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming})
		for range 2 {
			if err := db.AppendText(c.ID, e.Seq, big[:len(big)/2]); err != nil {
				t.Fatal(err)
			}
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range 10 {
			if err := db.AppendText(c.ID, e.Seq, "a few more words. "); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, db, c.ID
	}
	without, _, _ := stream(-1)
	with, db, id := stream(0)
	if with > without+uint64(len(big))/2 {
		t.Errorf("ten small pieces allocated %d bytes with the cache, %d without: the cache copies the %d-byte reply", with, without, len(big))
	}
	if !cached(db, id) {
		t.Fatal("streaming dropped the conversation from the cache")
	}
	if got, want := mustEvents(t, db, id), fromFile(t, db, id); !reflect.DeepEqual(got, want) {
		t.Error("the streamed reply differs from the file's")
	}
}
