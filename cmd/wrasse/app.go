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
	a.host = plugins.NewHost(plugins.Options{
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

// pluginRoots are the folders a plugin may touch: the configured folders
// (default: the user's home) and the workspace, for plugins that ship with
// Wrasse or were granted the files permission.
func (a *app) pluginRoots(capability string, granted []string) []string {
	c, err := a.reg.Get(capability)
	trusted := err == nil && c.Source == cerebellum.SourceBuiltin
	if !trusted && !slices.Contains(granted, "files") {
		return nil
	}
	roots := append([]string(nil), a.cfg.Folders...)
	if len(roots) == 0 {
		if home, err := os.UserHomeDir(); err == nil {
			roots = append(roots, home)
		}
	}
	roots = append(roots, a.ws.Root)
	for i, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			roots[i] = abs
		}
	}
	return roots
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
