package plugins

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// recorder is a slog handler that keeps messages for assertions.
type recorder struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }

func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, rec.Message)
	return nil
}

func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }

func (r *recorder) count(msg string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, m := range r.msgs {
		if m == msg {
			n++
		}
	}
	return n
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// capabilityAt reads a capability folder from disk the way the registry does.
func capabilityAt(t testing.TB, dir string) *cerebellum.Capability {
	t.Helper()
	name := filepath.Base(dir)
	data, err := os.ReadFile(filepath.Join(dir, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := skillmd.Parse(data, skillmd.Options{File: name + "/SKILL.md", Folder: name})
	if err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &cerebellum.Capability{Name: m.Name, Folder: name, Dir: abs, FS: os.DirFS(dir), Manifest: m,
		Kind: cerebellum.KindPlugin, State: cerebellum.StateOK}
}

func fixture(t testing.TB, name string) *cerebellum.Capability {
	return capabilityAt(t, filepath.Join("testdata", name))
}

// inline makes a capability from source text, for the static checks.
func inline(t testing.TB, skill string, files map[string]string) *cerebellum.Capability {
	t.Helper()
	m, err := skillmd.Parse([]byte(skill), skillmd.Options{})
	if err != nil {
		t.Fatalf("inline SKILL.md: %v", err)
	}
	fsys := fstest.MapFS{"SKILL.md": {Data: []byte(skill)}}
	for name, src := range files {
		fsys["plugin/"+name] = &fstest.MapFile{Data: []byte(src)}
	}
	return &cerebellum.Capability{Name: m.Name, Folder: m.Name, FS: fsys, Manifest: m,
		Kind: cerebellum.KindPlugin, State: cerebellum.StateOK}
}

func request(c *cerebellum.Capability, trusted bool, granted ...string) cerebellum.LoadRequest {
	// A workspace that holds no test's folders: the whole workspace is
	// read-only to plugins, and t.TempDir() lies in os.TempDir().
	return cerebellum.LoadRequest{Capability: c, Workspace: filepath.Join(os.TempDir(), "wrasse-plugins-test-workspace"), Trusted: trusted, Granted: granted}
}

func containsAll(t *testing.T, what, got string, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s %q does not contain %q", what, got, w)
		}
	}
}

func slogFor(r *recorder) *slog.Logger { return slog.New(r) }
