package watch_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/watch"
)

func TestRegistryWatch(t *testing.T) {
	for _, auto := range []bool{false, true} {
		name := "pending"
		if auto {
			name = "autoResync"
		}
		t.Run(name, func(t *testing.T) {
			ws := t.TempDir()
			reg, notices := watchRegistry(t, ws, auto)
			dir := filepath.Join(cerebellum.CapabilitiesDir(ws), "notes")
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: notes\ndescription: Notes.\n---\nx\n"), 0o644)
			var n watch.Notice
			deadline := time.After(10 * time.Second)
			for !strings.Contains(strings.Join(n.Diff.Added, ","), "notes") {
				select {
				case n = <-notices:
				case <-deadline:
					t.Fatal("no notice of the new capability")
				}
			}
			if n.Err != nil || n.Applied != auto {
				t.Fatalf("notice %+v", n)
			}
			_, err := reg.Get("notes")
			if auto != (err == nil) {
				t.Fatalf("auto=%v but Get(notes) = %v", auto, err)
			}
		})
	}
}

// An edit undone before a Resync is reported once with an empty Diff, so a
// "changes on disk" banner can go; later bursts that change nothing are
// not reported again.
func TestRegistryWatchReportsUndoneEdits(t *testing.T) {
	ws := t.TempDir()
	base := filepath.Join(cerebellum.CapabilitiesDir(ws), "base", "SKILL.md")
	baseText := []byte("---\nname: base\ndescription: Base.\n---\nx\n")
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base, baseText, 0o644); err != nil {
		t.Fatal(err)
	}
	_, notices := watchRegistry(t, ws, false)
	next := func(what string) watch.Notice {
		t.Helper()
		select {
		case n := <-notices:
			if n.Err != nil || n.Applied {
				t.Fatalf("%s: notice %+v", what, n)
			}
			return n
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no notice", what)
		}
		return watch.Notice{}
	}
	dir := filepath.Join(cerebellum.CapabilitiesDir(ws), "notes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: notes\ndescription: Notes.\n---\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := next("adding notes")
	for !strings.Contains(strings.Join(n.Diff.Added, ","), "notes") {
		n = next("adding notes")
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	for n = next("removing notes again"); !n.Diff.Empty(); n = next("removing notes again") {
	}
	// Nothing waits now: rewriting base as it was is not reported.
	if err := os.WriteFile(base, baseText, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-notices:
		t.Fatalf("a burst that changed nothing, with nothing waiting, was reported: %+v", n)
	case <-time.After(time.Second):
	}
}

// watchRegistry opens the workspace ws and watches it until the test ends,
// sending every notice to the returned channel.
func watchRegistry(t *testing.T, ws string, auto bool) (*cerebellum.Registry, <-chan watch.Notice) {
	t.Helper()
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	notices := make(chan watch.Notice, 8)
	if err := watch.Registry(ctx, manage.New(reg, manage.Options{}), auto, watch.Options{Debounce: 100 * time.Millisecond}, func(n watch.Notice) { notices <- n }); err != nil {
		t.Fatal(err)
	}
	return reg, notices
}
