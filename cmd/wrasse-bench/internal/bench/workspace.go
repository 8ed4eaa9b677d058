package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/plugins"
)

// writeWorkspace writes caps as a workspace under root (into
// root/brain/cerebellum) and returns root.
func writeWorkspace(root string, caps []captest.Capability) (string, error) {
	dir := cerebellum.CapabilitiesDir(root)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create workspace %s: %w", root, err)
	}
	if err := captest.Write(dir, caps); err != nil {
		return "", fmt.Errorf("write capabilities into %s: %w", dir, err)
	}
	return root, nil
}

// newHost is a plugin host as the app makes one, without secrets or
// settings.
func newHost() *plugins.Host {
	return plugins.NewHost(plugins.Options{Logger: slog.New(slog.DiscardHandler)})
}

// openRegistry opens a registry the way the app does (cmd/wrasse): the
// built-in capabilities, the workspace's, the plugin host as the plugin
// loader, the workspace's manifest cache, and the history capability served
// natively (here by a stand-in: nothing calls it). Scanning never
// interprets a plugin.
func openRegistry(workspace string, host *plugins.Host) (*cerebellum.Registry, error) {
	return openRegistryWith(builtin.FS(), workspace, host)
}

// unavailable stands in for native runtimes the bench never calls.
var unavailable = cerebellum.RuntimeFunc(func(context.Context, string, json.RawMessage) (cerebellum.Result, error) {
	return cerebellum.Result{Content: "not available in wrasse-bench", IsError: true}, nil
})

// openRegistryWith is openRegistry with another built-in tree (nil: none).
func openRegistryWith(builtins fs.FS, ws string, host *plugins.Host) (*cerebellum.Registry, error) {
	reg, err := cerebellum.Open(cerebellum.Options{
		Builtin:       builtins,
		Workspace:     ws,
		Loaders:       map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: host},
		Logger:        slog.New(slog.DiscardHandler),
		ManifestCache: workspace.Workspace{Root: ws}.ManifestCache(),
		// As the app sets them with a default config.json.
		ToolBudget: workspace.Config{}.WithDefaults().EffectiveToolBudget(),
		Native:     map[string]cerebellum.Runtime{history.Name: unavailable},
	})
	if err != nil {
		return nil, fmt.Errorf("open registry on %s: %w", ws, err)
	}
	return reg, nil
}

// space is a generated workspace with its registry open.
type space struct {
	n    int
	dir  string
	caps []captest.Capability
	reg  *cerebellum.Registry
}

// economySpace generates n capabilities, every one with tools served by a
// (trivial) plugin, so all of them are usable and all their tools count.
func economySpace(tmp string, n int, seed int64) (*space, error) {
	caps := captest.Generate(n, n, seed)
	dir, err := writeWorkspace(filepath.Join(tmp, fmt.Sprintf("ws-%d", n)), caps)
	if err != nil {
		return nil, err
	}
	reg, err := openRegistry(dir, newHost())
	if err != nil {
		return nil, err
	}
	return &space{n: n, dir: dir, caps: caps, reg: reg}, nil
}

func (s *space) close() error {
	if s.reg == nil {
		return nil
	}
	return s.reg.Close()
}

// searchDocs returns the usable capabilities of snap as search documents
// with the fields the registry indexes. They only feed query generation and
// the substring baseline; tool_search itself goes through the registry.
func searchDocs(snap *cerebellum.Snapshot) []search.Doc {
	var docs []search.Doc
	for _, c := range snap.Capabilities() {
		if !c.Usable() || c.Manifest == nil || c.Name == cerebellum.DiscoveryName {
			continue
		}
		m := c.Manifest
		d := search.Doc{ID: c.Name, Name: c.Name, Description: m.Description, Headings: m.Headings}
		d.Keywords = append(append(append([]string(nil), m.Triggers...), m.Keywords...), m.Tags...)
		for _, t := range m.Tools {
			d.ToolNames = append(d.ToolNames, t.Name)
			d.ToolDescriptions = append(d.ToolDescriptions, t.Description)
		}
		docs = append(docs, d)
	}
	return docs
}
