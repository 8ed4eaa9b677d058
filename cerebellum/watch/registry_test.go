package watch_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
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
			reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			notices := make(chan watch.Notice, 8)
			if err := watch.Registry(ctx, reg, auto, watch.Options{Debounce: 100 * time.Millisecond}, func(n watch.Notice) { notices <- n }); err != nil {
				t.Fatal(err)
			}
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
			_, err = reg.Get("notes")
			if auto != (err == nil) {
				t.Fatalf("auto=%v but Get(notes) = %v", auto, err)
			}
		})
	}
}
