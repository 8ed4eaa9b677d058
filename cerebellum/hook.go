package cerebellum

import (
	"context"
	"log/slog"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Hook is the registry's one door for cerebellum/manage, the package that
// changes the workspace's capabilities (install, trash, resync, state and
// settings writes, plugin checks). A conversation at run time never needs
// it: it uses the Registry's methods. Each Hook method is a primitive that
// must run under the registry's locks or on its private state; the rules
// built on them (what a grant may name, where a removed folder goes) live
// in manage.
type Hook struct{ r *Registry }

// Hook returns the door for cerebellum/manage. Nothing else calls it
// (manage's TestOnlyManageUsesTheHook checks the tree).
func (r *Registry) Hook() Hook { return Hook{r} }

// UpdateState reads the stored state of name, lets change edit it, stores
// the result and publishes a new snapshot, all under the registry's lock,
// which also guards snapshot assembly: two concurrent toggles never lose
// one another, and the snapshot published after a change includes it.
// change sees the capability as it stands in the current snapshot; an
// error from it leaves everything as it was. A core capability cannot be
// disabled.
func (h Hook) UpdateState(name string, change func(c *Capability, st *CapState) error) error {
	return h.r.updateState(name, change)
}

// StoredState returns the stored state of a capability.
func (h Hook) StoredState(name string) (CapState, error) {
	r := h.r
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stateLocked(name)
}

// DeclaredSettings returns the settings c declares, or an error for a
// capability whose SKILL.md could not be read.
func (h Hook) DeclaredSettings(c *Capability) ([]skillmd.Setting, error) {
	return declaredSettings(c)
}

// SettingsStore is where the values of capability settings are stored.
func (h Hook) SettingsStore() SettingsStore { return h.r.opts.Settings }

// Reload closes the runtimes of names, so their next call loads them
// again (with new settings, say), and tells subscribers why.
func (h Hook) Reload(reason string, names ...string) { h.r.reload(reason, names) }

// Resync rescans both trees, publishes what changed on disk and reports
// it against the last applied state (see Registry.resyncAll).
func (h Hook) Resync(ctx context.Context) (Diff, error) { return h.r.resyncAll(ctx) }

// Pending is what Resync would report, applying nothing.
func (h Hook) Pending() (Diff, error) { return h.r.pendingAll() }

// ResyncFolders is Resync reading only the named workspace folders (and
// those PendingFolders noticed before).
func (h Hook) ResyncFolders(ctx context.Context, folders []string) (Diff, error) {
	return h.r.resyncFolders(ctx, folders)
}

// PendingFolders is Pending reading only the named workspace folders.
func (h Hook) PendingFolders(folders []string) (Diff, error) { return h.r.pendingFolders(folders) }

// CheckPlugins checks the plugins not loaded yet and publishes their
// failures (see Registry.checkPlugins).
func (h Hook) CheckPlugins(ctx context.Context, workers int) { h.r.checkPlugins(ctx, workers) }

// StoreState writes a state without publishing a snapshot, for install
// and restore, which resync afterwards.
func (h Hook) StoreState(name string, st CapState) error { return h.r.storeState(name, st) }

// ForgetState deletes a stored state (after a remove).
func (h Hook) ForgetState(name string) error { return h.r.forgetState(name) }

// Now is the registry's clock (Options.Now), so a trash record and the
// registry agree on time in tests.
func (h Hook) Now() time.Time { return h.r.now() }

// Logger is the registry's logger.
func (h Hook) Logger() *slog.Logger { return h.r.log }

// ShadowOwner returns the capability of snap that declares tool but
// cannot serve it (failed or disabled; the first in scan order), so a
// validation can name a clash with a capability that is off now.
func (h Hook) ShadowOwner(snap *Snapshot, tool string) (*Capability, bool) {
	c, ok := snap.shadowOwners()[tool]
	return c, ok
}

// Republish assembles and publishes a snapshot from the stored state and
// settings (after a tool policy changed, say) and tells subscribers why.
func (h Hook) Republish(reason string, names ...string) error {
	r := h.r
	r.mu.Lock()
	snap, err := r.assembleLocked()
	r.mu.Unlock()
	if err != nil {
		return err
	}
	r.notify(Change{Generation: snap.Generation, Reason: reason, Names: names})
	return nil
}

// ApplyTuning stores new pins and budgets and publishes the snapshot they
// shape (see Registry.applyTuning).
func (h Hook) ApplyTuning(t Tuning) error { return h.r.applyTuning(t) }
