package watch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// waitNotice waits for one notice; the generous bound only guards a hung test.
func waitNotice(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("no change notice after %s", what)
	}
}

func TestWatchNoticesEditsDebounced(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := make(chan struct{}, 16)
	if err := Watch(ctx, dir, Options{Debounce: 150 * time.Millisecond}, func([]string) { ch <- struct{}{} }); err != nil {
		t.Fatal(err)
	}
	// A new capability folder, then a file inside it (the new folder must be watched too).
	capDir := filepath.Join(dir, "notes")
	if err := os.Mkdir(capDir, 0o755); err != nil {
		t.Fatal(err)
	}
	waitNotice(t, ch, "mkdir")
	if err := os.WriteFile(filepath.Join(capDir, "SKILL.md"), []byte("---\nname: notes\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitNotice(t, ch, "write in a new folder")
	drain(ch)
	// A burst of writes becomes far fewer notices than writes.
	for i := 0; i < 20; i++ {
		os.WriteFile(filepath.Join(capDir, "SKILL.md"), []byte{byte(i)}, 0o644)
	}
	waitNotice(t, ch, "burst")
	if n := 1 + drain(ch); n > 5 {
		t.Fatalf("20 writes gave %d notices; debounce is not working", n)
	}
	// Editor swap files are ignored.
	os.WriteFile(filepath.Join(capDir, ".SKILL.md.swp"), []byte("x"), 0o644)
	select {
	case <-ch:
		t.Fatal("swap file caused a notice")
	case <-time.After(200 * time.Millisecond):
	}
}

// drain counts notices until the folder has been quiet for a while.
func drain(ch <-chan struct{}) int {
	n := 0
	for {
		select {
		case <-ch:
			n++
		case <-time.After(400 * time.Millisecond):
			return n
		}
	}
}
