package store

import (
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fakeClock ticks one second per reading, from a fixed start.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func testOptions(clock *fakeClock) Options {
	return Options{Clock: clock.Now, Logger: slog.New(slog.DiscardHandler)}
}

// openTest opens a fresh database in t.TempDir, closed at cleanup.
func openTest(t testing.TB) (*DB, string, *fakeClock) {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	clock := newClock()
	db, err := Open(path, testOptions(clock))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db, path, clock
}

// reopen closes db and opens the same file again with the same clock.
func reopen(t testing.TB, db *DB, path string, clock *fakeClock) *DB {
	t.Helper()
	if err := db.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	db2, err := Open(path, testOptions(clock))
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { _ = db2.Close() })
	return db2
}

func mustConv(t testing.TB, db *DB, model string) Conversation {
	t.Helper()
	c, err := db.CreateConversation(model)
	if err != nil {
		t.Fatalf("CreateConversation: %v", err)
	}
	return c
}

func mustAppend(t *testing.T, db *DB, id ID, e Event) Event {
	t.Helper()
	got, err := db.AppendEvent(id, e)
	if err != nil {
		t.Fatalf("AppendEvent(%+v): %v", e, err)
	}
	return got
}

func mustEvents(t *testing.T, db *DB, id ID) []Event {
	t.Helper()
	evs, err := db.Events(id)
	if err != nil {
		t.Fatalf("Events(%s): %v", id, err)
	}
	return evs
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("error = %v, want %v", err, want)
	}
}
