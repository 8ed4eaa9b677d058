package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/history"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
)

// app is one opened workspace with everything wired: config, log, database,
// plugin host and capability registry. The CLI commands and the desktop
// window both work through it.
type app struct {
	ws   workspace.Workspace
	cfg  workspace.Config
	log  *slog.Logger
	db   *store.DB
	host *plugins.Host
	reg  *cerebellum.Registry

	closers []io.Closer
}

// openApp opens the workspace named by the flag or environment.
func openApp(flagWorkspace string, getenv func(string) string) (*app, error) {
	ws, err := workspace.Resolve(flagWorkspace, getenv)
	if err != nil {
		return nil, err
	}
	if err := ws.Ensure(); err != nil {
		return nil, err
	}
	a := &app{ws: ws}
	logger, closer, err := ws.OpenLog(slog.LevelInfo)
	if err != nil {
		return nil, err
	}
	a.log = logger
	a.closers = append(a.closers, closer)
	cfg, err := ws.LoadConfig()
	if err != nil {
		a.Close()
		return nil, err
	}
	a.cfg = cfg.WithDefaults()
	db, err := store.Open(ws.Database(), store.Options{Logger: logger})
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("open %s: %w", ws.Database(), err)
	}
	a.db = db
	// Plugins that do not ship with Wrasse run in a process of their own, so
	// a fault Go cannot recover from ends that process, not the app.
	child, err := pluginChild()
	if err != nil {
		logger.Warn("plugins will run in this process", "error", err)
	}
	a.host = plugins.NewHost(plugins.Options{
		Child:   child,
		Logger:  logger,
		Secrets: db.Secret,
		Roots:   a.pluginRoots,
		Hosts:   a.pluginHosts,
	})
	reg, err := cerebellum.Open(cerebellum.Options{
		Builtin:       builtin.FS(),
		Workspace:     ws.Root,
		States:        db,
		Pinned:        a.cfg.PinnedCapabilities,
		Loaders:       map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: a.host},
		Logger:        logger,
		IndexBudget:   a.cfg.IndexBudget,
		ToolBudget:    a.cfg.EffectiveToolBudget(),
		ManifestCache: ws.ManifestCache(),
		AppliedState:  ws.AppliedState(),
		CheckCache:    ws.CheckCache(),
		Native:        map[string]cerebellum.Runtime{history.Name: history.New(db)},
	})
	if err != nil {
		a.Close()
		return nil, err
	}
	a.reg = reg
	// The database lock makes this process the workspace's only user, so
	// leftovers of an interrupted install can go.
	if err := reg.Sweep(); err != nil {
		logger.Warn("sweeping the workspace", "error", err)
	}
	return a, nil
}

// pluginRoots are the folders a plugin may touch. Plugins that ship with
// Wrasse get the configured folders (default: the user's home) and the
// workspace. Others get nothing without the files permission; with it, the
// folders their SKILL.md names under permissions.files (each kept only if
// inside the configured folders), or the configured folders when it names
// none.
func (a *app) pluginRoots(capability string, granted []string) []string {
	c, err := a.reg.Get(capability)
	trusted := err == nil && c.Source == cerebellum.SourceBuiltin
	if !trusted && !slices.Contains(granted, "files") {
		return nil
	}
	allowed := append([]string(nil), a.cfg.Folders...)
	if len(allowed) == 0 {
		if home, err := os.UserHomeDir(); err == nil {
			allowed = append(allowed, home)
		}
	}
	for i, r := range allowed {
		allowed[i] = absPath(r)
	}
	if trusted {
		return append(allowed, a.ws.Root)
	}
	var scope []string
	if err == nil && c.Manifest != nil {
		scope = c.Manifest.Permissions["files"]
	}
	if len(scope) == 0 {
		return allowed
	}
	var roots []string
	for _, s := range scope {
		p := absPath(s)
		for _, base := range allowed {
			if p == base || strings.HasPrefix(p, base+string(filepath.Separator)) {
				roots = append(roots, p)
				break
			}
		}
	}
	return roots
}

// absPath expands a leading ~ and makes p absolute and clean.
func absPath(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// pluginHosts: plugins that ship with Wrasse, and others granted the
// network permission, may reach any host.
func (a *app) pluginHosts(capability string, granted []string) []string {
	c, err := a.reg.Get(capability)
	if (err == nil && c.Source == cerebellum.SourceBuiltin) || slices.Contains(granted, "network") {
		return []string{"*"}
	}
	return nil
}

// Close releases everything in reverse order of opening.
func (a *app) Close() error {
	var errs []error
	if a.reg != nil {
		errs = append(errs, a.reg.Close())
	}
	if a.db != nil {
		errs = append(errs, a.db.Close())
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i].Close())
	}
	return errors.Join(errs...)
}

// withApp opens the workspace, runs fn and closes it.
func withApp(ctx context.Context, g globalFlags, getenv func(string) string, fn func(a *app) error) error {
	a, err := openApp(g.workspace, getenv)
	if err != nil {
		return err
	}
	defer a.Close()
	return fn(a)
}
