package assistant

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/stage"
	"github.com/wrasse-app/wrasse/cerebellum/watch"
)

// Capability changes go through the App so they are serialised (a.mu) and
// announced; the registry's own change notices reach subscribers as
// EventCapabilities.

// Install adds a capability from a SKILL.md, a folder or a .zip/.skill
// archive, validated completely before anything is written.
func (a *App) Install(ctx context.Context, path string, replace bool) (*manage.InstallResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	res, err := a.mgr.Install(ctx, path, manage.InstallOptions{Replace: replace})
	a.afterInstall(res)
	return res, err
}

// Survey lists the skills an input holds (a collection: one archive or
// folder with several skill folders), writing nothing.
func (a *App) Survey(path string) (*stage.Collection, error) {
	return a.mgr.Survey(path, nil)
}

// InstallCollection installs skills of a collection, each validated and
// installed on its own (one bad skill does not stop the others); only
// names them as Survey lists them, all when empty.
func (a *App) InstallCollection(ctx context.Context, path string, only []string, replace bool) ([]manage.CollectionItem, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	items, err := a.mgr.InstallCollection(ctx, path, only, manage.InstallOptions{Replace: replace})
	for _, it := range items {
		a.afterInstall(it.Result)
	}
	return items, err
}

// Validate checks a folder, a SKILL.md or an archive without installing
// it, staged exactly as an install would stage it (so links, nested
// archives and size limits are caught too). Checking an installed
// capability's own folder is not a name clash.
func (a *App) Validate(ctx context.Context, path string) (*manage.Report, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	tmp, err := a.privateStaging("validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	st, err := stage.Stage(abs, tmp, stage.DefaultLimits())
	if err != nil {
		return nil, err
	}
	folder := filepath.Base(abs)
	if st.Kind != stage.KindFolder {
		folder = strings.TrimSuffix(folder, filepath.Ext(folder))
		if data, err := os.ReadFile(filepath.Join(st.Dir, "SKILL.md")); err == nil {
			if m, _, err := manage.ValidateManifest(data, filepath.Base(path)); err == nil {
				folder = m.Name
			}
		}
	}
	opt := manage.ValidateOptions{}
	for _, c := range a.reg.List() {
		if c.Dir != "" && filepath.Clean(c.Dir) == abs {
			opt.Replace = true
			// Its grants are for the code Wrasse read: an edit not applied
			// yet is checked as code nobody granted anything.
			if staged := cerebellum.ReadCapability(os.DirFS(st.Dir), folder, st.Dir, cerebellum.SourceWorkspace); staged.CodeHash == c.CodeHash {
				opt.Grant = c.Granted
			}
		}
	}
	return a.mgr.Validate(ctx, os.DirFS(st.Dir), folder, st.Dir, opt), nil
}

// Remove moves a capability to the trash (restorable for 7 days) and
// withdraws the secrets assigned to it: restored, it is assigned them
// again by the person.
func (a *App) Remove(ctx context.Context, name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, err := a.reg.Get(name)
	if err != nil {
		return err
	}
	if err := a.mgr.Remove(ctx, name); err != nil {
		return err
	}
	withdrawn, err := a.db.UnassignAll(c.Name)
	if err != nil {
		return fmt.Errorf("removed %s, but %w", c.Name, err)
	}
	if len(withdrawn) > 0 {
		a.log.Info("secrets withdrawn from a removed capability", "capability", c.Name, "secrets", withdrawn)
	}
	return nil
}

// afterInstall withdraws the secrets assigned to an installed capability
// (a replacement, or a new one under a name used before) that it would
// send elsewhere than when they were assigned, and says so in its report.
// Call with a.mu held.
func (a *App) afterInstall(res *manage.InstallResult) {
	if res == nil || res.Name == "" {
		return
	}
	lapsed, err := a.withdrawLapsed(res.Name)
	if err != nil {
		a.log.Warn("withdrawing the secrets of a replaced capability", "capability", res.Name, "error", err)
	}
	if len(lapsed) == 0 {
		return
	}
	a.log.Info("secrets withdrawn from a capability that now sends elsewhere", "capability", res.Name, "secrets", lapsed)
	if res.Report != nil {
		c, _ := a.reg.Get(res.Name)
		where := "sends elsewhere"
		if c != nil {
			where = destinationText(c)
		}
		res.Report.Warnings = append(res.Report.Warnings, fmt.Sprintf("%s is no longer assigned %s: they were assigned where it sent before, and it now %s; assign them again if it should have them there (wrasse secrets assign NAME %s)",
			res.Name, commalist.Prose(lapsed), where, res.Name))
	}
}

// Restore brings a removed capability back, validated first.
func (a *App) Restore(ctx context.Context, name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mgr.Restore(ctx, name)
}

// Trash lists restorable capabilities, newest first.
func (a *App) Trash() ([]manage.Trashed, error) { return a.mgr.Trash() }

// Enable switches a capability on, granting its plugin the permissions
// listed (only those it declares).
func (a *App) Enable(name string, grant []string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mgr.Enable(name, grant)
}

// EnableShown enables an MCP capability whose command the person read
// before approving it: shown is its ApprovalKey as it was shown. When the
// block or a file its command runs changed since, nothing changes
// (cerebellum.ErrLaunchChanged).
func (a *App) EnableShown(name string, grant []string, shown string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mgr.EnableShown(name, grant, shown)
}

// Disable switches a capability off.
func (a *App) Disable(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mgr.Disable(name)
}

// Revoke withdraws granted permissions (all when perms is empty) and
// returns those actually withdrawn.
func (a *App) Revoke(name string, perms []string) ([]string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	before, err := a.reg.Get(name)
	if err != nil {
		return nil, err
	}
	had := append([]string(nil), before.Granted...)
	if err := a.mgr.Revoke(name, perms); err != nil {
		return nil, err
	}
	after, err := a.reg.Get(name)
	if err != nil {
		return nil, err
	}
	still := map[string]bool{}
	for _, g := range after.Granted {
		still[g] = true
	}
	var gone []string
	for _, g := range had {
		if !still[g] {
			gone = append(gone, g)
		}
	}
	return gone, nil
}

// Resync applies what changed in the capability folders on disk.
func (a *App) Resync(ctx context.Context) (cerebellum.Diff, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mgr.Resync(ctx)
}

// Pending reports what a Resync would apply, without applying it.
func (a *App) Pending() (cerebellum.Diff, error) { return a.mgr.Pending() }

// Watch reports hand edits of the capability folders as EventDisk events
// until ctx ends, applying them at once when config.json says autoResync
// (or apply is set). It returns when the watcher is running.
func (a *App) Watch(ctx context.Context, apply bool) error {
	auto := apply || a.Model().AutoResync
	err := watch.Registry(ctx, a.mgr, auto, watch.Options{Logger: a.log}, func(n watch.Notice) {
		a.subs.publish(Event{Kind: EventDisk, Diff: n.Diff, Applied: n.Applied, Err: n.Err})
	})
	if err != nil {
		return fmt.Errorf("watch %s: %w", a.ws.Capabilities(), err)
	}
	return nil
}

// Settings lists a capability's declared settings with their values.
func (a *App) Settings(name string) ([]cerebellum.SettingValue, error) { return a.reg.Settings(name) }

// SetSetting validates and stores one setting of a capability; the
// capability is reloaded so its next call sees it.
func (a *App) SetSetting(name, key, value string) error {
	if err := checkGateSetting(name, key, value); err != nil {
		return err
	}
	a.mu.Lock()
	err := a.mgr.SetSetting(name, key, value)
	a.mu.Unlock()
	if err == nil {
		a.subs.publish(Event{Kind: EventSettings, Names: []string{name}})
	}
	return err
}

// ResetSetting puts one setting of a capability back to its default.
func (a *App) ResetSetting(name, key string) error {
	a.mu.Lock()
	err := a.mgr.ResetSetting(name, key)
	a.mu.Unlock()
	if err == nil {
		a.subs.publish(Event{Kind: EventSettings, Names: []string{name}})
	}
	return err
}
