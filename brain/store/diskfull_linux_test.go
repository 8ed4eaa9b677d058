//go:build linux

package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// smallDisk mounts a tmpfs of size (mount's size= syntax) for the test, or
// skips the test saying why it cannot.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (needs root or CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// fillDisk writes a file in dir until the disk is full; free removes it.
func fillDisk(t *testing.T, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	return func() {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFullDisk: on a full disk reading needs no space (an open with
// nothing to change writes nothing; one that finds a reply left streaming
// opens even when it cannot mark it); a write fails with ErrDiskFull
// saying nothing of it was saved, the app is told once, and told again
// when writes work after space is freed. On main every open wrote.
func TestFullDisk(t *testing.T) {
	disk := smallDisk(t, "2m")
	path := filepath.Join(disk, FileName)
	var mu sync.Mutex
	var notices []error
	opts := testOptions(newClock())
	opts.OnStorage = func(err error) {
		mu.Lock()
		notices = append(notices, err)
		mu.Unlock()
	}
	var db *DB
	open := func() {
		t.Helper()
		var err error
		if db, err = Open(path, opts); err != nil {
			t.Fatalf("Open on a full disk: %v", err)
		}
	}
	t.Cleanup(func() { db.Close() }) // before the disk is unmounted
	open()
	c := mustConv(t, db, "m")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "hello"})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "It is a fern."})
	db.Close()
	free := fillDisk(t, disk)

	// Reading needs no space and writes nothing.
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	open()
	if convs, err := db.ListConversations(); err != nil || len(convs) != 1 {
		t.Fatalf("ListConversations on a full disk: %v, %v", convs, err)
	}
	if evs := mustEvents(t, db, c.ID); len(evs) != 2 {
		t.Fatalf("events on a full disk: %+v", evs)
	}
	if _, err := db.Secret("none"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("opening and reading on a full disk wrote to the file")
	}

	// Writes fail, saying so, and the app hears it once.
	big := Event{Type: EventToolResult, ToolCallID: "x", ToolName: "shell_exec", Text: strings.Repeat("a line of output\n", 40000)}
	_, err = db.AppendEvent(c.ID, big)
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), "this change was not saved, everything saved before it is kept") {
		t.Fatalf("a write on a full disk = %v, want ErrDiskFull saying what was kept", err)
	}
	if _, err := db.AppendEvent(c.ID, big); !errors.Is(err, ErrDiskFull) {
		t.Fatalf("the second write = %v", err)
	}
	if evs := mustEvents(t, db, c.ID); len(evs) != 2 {
		t.Fatalf("%d events after the failed writes, want the 2 before", len(evs))
	}
	free()
	reply := mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Status: StatusStreaming, Text: "And"})
	mu.Lock()
	got := append([]error(nil), notices...)
	mu.Unlock()
	if len(got) != 2 || !errors.Is(got[0], ErrDiskFull) || got[1] != nil {
		t.Fatalf("storage notices %v, want disk full once, then writes working again", got)
	}

	// A reply left streaming by a stop, on a full disk: the open that
	// would mark it interrupted opens whether or not it can.
	if err := db.AppendText(c.ID, reply.Seq, " a hosta."); err != nil {
		t.Fatal(err)
	}
	db.Close()
	free = fillDisk(t, disk)
	open()
	if evs := mustEvents(t, db, c.ID); len(evs) != 3 || evs[2].Text != "And a hosta." {
		t.Fatalf("events on a full disk: %+v", evs)
	}
	db.Close()
	free()
	open()
	if evs := mustEvents(t, db, c.ID); evs[2].Status != StatusInterrupted {
		t.Fatalf("the cut-off reply is %q after an open with space", evs[2].Status)
	}
}
