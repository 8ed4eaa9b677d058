package assistant

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// damagedWorkspace opens a workspace, stores two conversations and a
// secret, closes it, and cuts its database to half.
func damagedWorkspace(t *testing.T) (dir string, damaged []byte) {
	t.Helper()
	dir = t.TempDir()
	a, err := Open(Options{Workspace: dir, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	db := a.db
	for i := range 2 {
		c, err := db.CreateConversation("m")
		if err != nil {
			t.Fatal(err)
		}
		for range 40 {
			if _, err := db.AppendEvent(c.ID, store.Event{Type: store.EventUserMessage, Text: strings.Repeat("a long question ", 30+i)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := a.SetSecret("openai_api_key", "sk-doctor-0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	path := a.Workspace().Database()
	a.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged = data[:len(data)/2]
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, damaged
}

// TestOpenDamagedDatabase: Open says plainly that the database is damaged,
// that nothing was changed, and points at wrasse doctor; the file is as
// it was.
func TestOpenDamagedDatabase(t *testing.T) {
	dir, damaged := damagedWorkspace(t)
	_, err := Open(Options{Workspace: dir, Retries: -1})
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "nothing was changed in it") {
		t.Fatalf("Open = %v, want ErrCorrupt saying nothing was changed", err)
	}
	h, ok := hint.Of(err)
	if !ok || !slices.Equal(h.Command, []string{"doctor"}) {
		t.Fatalf("hint %+v, want wrasse doctor", h)
	}
	if data, _ := os.ReadFile(dir + "/wrasse.db"); !bytes.Equal(data, damaged) {
		t.Fatal("the damaged file was changed")
	}
}

// TestDoctorWaysOut: the doctor's three ways out of a damaged database,
// each leaving a workspace that opens.
func TestDoctorWaysOut(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC) }
	t.Run("salvage", func(t *testing.T) {
		dir, damaged := damagedWorkspace(t)
		doc := NewDoctor(mustResolve(t, dir), now, nil)
		d, err := doc.Diagnose()
		if err != nil || d.Healthy() || len(d.Problems) == 0 {
			t.Fatalf("Diagnose = %+v, %v", d, err)
		}
		rep, err := doc.Salvage()
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(rep.SetAside); !bytes.Equal(data, damaged) {
			t.Fatal("the set-aside file is not the damaged one")
		}
		if len(rep.Lost) == 0 || !strings.Contains(rep.Lost[0], "cut short") {
			t.Fatalf("the report does not say what was lost: %+v", rep)
		}
		a, err := Open(Options{Workspace: dir, Retries: -1})
		if err != nil {
			t.Fatalf("Open after salvage: %v", err)
		}
		defer a.Close()
		convs, _ := a.db.ListConversations()
		if len(convs) != rep.Conversations {
			t.Fatalf("%d conversations, the report says %d", len(convs), rep.Conversations)
		}
		if d, err := doc.Diagnose(); err == nil {
			t.Fatalf("Diagnose while the workspace is open = %+v, want it refused", d)
		}
	})
	t.Run("fresh", func(t *testing.T) {
		dir, damaged := damagedWorkspace(t)
		doc := NewDoctor(mustResolve(t, dir), now, nil)
		aside, err := doc.Fresh()
		if err != nil {
			t.Fatal(err)
		}
		if data, _ := os.ReadFile(aside); !bytes.Equal(data, damaged) {
			t.Fatal("the set-aside file is not the damaged one")
		}
		a, err := Open(Options{Workspace: dir, Retries: -1})
		if err != nil {
			t.Fatalf("Open after starting afresh: %v", err)
		}
		defer a.Close()
		if convs, _ := a.db.ListConversations(); len(convs) != 0 {
			t.Fatalf("a fresh database has conversations: %v", convs)
		}
		list, _ := doc.Backups()
		if len(list) != 1 || list[0].Kind != store.BackupSetAside {
			t.Fatalf("backups %+v, want the set-aside file", list)
		}
	})
	t.Run("restore", func(t *testing.T) {
		dir := t.TempDir()
		a, err := Open(Options{Workspace: dir, Retries: -1, Clock: now})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := a.db.CreateConversation("m")
		if _, err := a.db.Backup(a.Workspace().Backups(), store.BackupDaily); err != nil {
			t.Fatal(err)
		}
		a.Close()
		if err := os.WriteFile(a.Workspace().Database(), []byte{}, 0o600); err != nil {
			t.Fatal(err)
		}
		doc := NewDoctor(a.Workspace(), func() time.Time { return now().Add(time.Hour) }, nil)
		if _, _, err := doc.Restore("no-such-backup.db"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Restore of an unknown name = %v", err)
		}
		used, _, err := doc.Restore("")
		if err != nil || used.Kind != store.BackupDaily {
			t.Fatalf("Restore = %+v, %v", used, err)
		}
		a, err = Open(Options{Workspace: dir, Retries: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if convs, _ := a.db.ListConversations(); len(convs) != 1 || convs[0].ID != c.ID {
			t.Fatalf("restored conversations %+v", convs)
		}
	})
}

func mustResolve(t *testing.T, dir string) workspace.Workspace {
	t.Helper()
	ws, err := workspace.Resolve(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}
