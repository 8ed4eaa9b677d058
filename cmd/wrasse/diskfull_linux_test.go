//go:build linux

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
)

// TestFullDiskCLI: on a full disk the commands that only read work, and
// one that must write fails saying the disk is full and what was kept.
// It mounts a small tmpfs, and is skipped where that is not allowed.
func TestFullDiskCLI(t *testing.T) {
	disk := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(disk, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size=3m,mode=0700"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (needs root or CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(disk, 0); err != nil {
			t.Errorf("unmount: %v", err)
		}
	})
	ws := filepath.Join(disk, "ws")
	app, err := assistant.Open(assistant.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	c, err := app.Engine().DB.CreateConversation("m")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Engine().DB.AppendEvent(c.ID, store.Event{Type: store.EventUserMessage, Text: "what grows in the shade?"}); err != nil {
		t.Fatal(err)
	}
	app.Close()
	// Fill the disk.
	f, err := os.Create(filepath.Join(disk, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	for _, args := range [][]string{{"conversations", "list"}, {"conversations", "show", c.ID.String()}, {"caps", "list"}, {"secrets", "list"}, {"config"}} {
		if code, out, errOut := cli(t, ws, args...); code != 0 {
			t.Errorf("%s on a full disk: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
	big := strings.Repeat("k", 1<<20)
	code, _, errOut := chatCLI(t, ws, big, nil, "secrets", "set", "big_secret")
	if code != 1 || !strings.Contains(errOut, "disk full") || !strings.Contains(errOut, "this change was not saved, everything saved before it is kept") ||
		!strings.Contains(errOut, "→ Free some space") {
		t.Fatalf("a write on a full disk: exit %d\n%s", code, errOut)
	}
	if code, out, _ := cli(t, ws, "conversations", "list"); code != 0 || !strings.Contains(out, c.ID.String()) {
		t.Fatalf("conversations list after a failed write on a full disk: %d %s", code, out)
	}
}
