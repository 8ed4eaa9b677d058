package plugins

import (
	"io/fs"
	"path"
	"testing"

	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// builtinPlugins lists the built-in capabilities that have a plugin/ folder
// and a SKILL.md that parses (brain/cerebellum's own tests check manifests;
// folders still being written are skipped here).
func builtinPlugins(t testing.TB) []*cerebellum.Capability {
	t.Helper()
	fsys := builtin.FS()
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []*cerebellum.Capability
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if fi, err := fs.Stat(fsys, path.Join(e.Name(), pluginDir)); err != nil || !fi.IsDir() {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(e.Name(), "SKILL.md"))
		if err != nil {
			t.Logf("skipping %s: %v", e.Name(), err)
			continue
		}
		m, err := skillmd.Parse(data, skillmd.Options{File: e.Name() + "/SKILL.md", Folder: e.Name()})
		if err != nil {
			t.Logf("skipping %s: %v", e.Name(), err)
			continue
		}
		sub, err := fs.Sub(fsys, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &cerebellum.Capability{Name: m.Name, Folder: e.Name(), Source: cerebellum.SourceBuiltin,
			Badge: cerebellum.BadgeOfficial, Kind: cerebellum.KindPlugin, State: cerebellum.StateOK, Manifest: m, FS: sub})
	}
	return out
}

// Every built-in plugin loads through the host and closes cleanly.
func TestBuiltinPluginsLoad(t *testing.T) {
	caps := builtinPlugins(t)
	if len(caps) == 0 {
		t.Fatal("no built-in plugins found in brain/cerebellum")
	}
	h := NewHost(Options{Logger: discard()})
	for _, c := range caps {
		t.Run(c.Name, func(t *testing.T) {
			rt, err := h.Load(t.Context(), cerebellum.LoadRequest{Capability: c, Workspace: t.TempDir(), Trusted: true})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if err := rt.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
		})
	}
	t.Logf("loaded %d built-in plugins", len(caps))
}
