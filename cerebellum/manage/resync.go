package manage

import (
	"context"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Applying what changed on disk publishes a new snapshot, so its mechanism
// (the rescan, the applied state it diffs against, the folders a watcher
// noticed) is the registry's, behind the Hook; these are its entry points.

// Resync rescans both trees and applies what changed on disk. Capabilities
// are compared by content hash, kind, failure and folder, so one failed or
// restored by another's edit is reported too: unchanged ones keep their
// loaded plugin instances, changed ones are reloaded on next use (the old
// instance is closed now), removed ones unregister, and every conversation
// keeps its loaded set minus what disappeared.
//
// The diff is against the last applied state, which is remembered across
// runs (cerebellum.Options.AppliedState), so `wrasse caps resync` in a new
// process still reports the edits made since the previous Resync.
func (m *Manager) Resync(ctx context.Context) (cerebellum.Diff, error) { return m.hook.Resync(ctx) }

// Pending compares the folders on disk with the last applied state without
// applying anything: what a Resync would report.
func (m *Manager) Pending() (cerebellum.Diff, error) { return m.hook.Pending() }

// ResyncFolders applies what changed in the named workspace capability
// folders (names directly under cerebellum.CapabilitiesDir, as a watcher
// reports them), and in any a PendingFolders call noticed before, reading
// only those: the rest of the scan is kept as the last Resync left it. It
// is Resync for when the changed folders are known; with none it is Resync.
func (m *Manager) ResyncFolders(ctx context.Context, folders []string) (cerebellum.Diff, error) {
	return m.hook.ResyncFolders(ctx, folders)
}

// PendingFolders is Pending when the changed folders are known: it reads
// only those (and the ones noticed before without a Resync since) and
// reports what a Resync would change, applying nothing.
func (m *Manager) PendingFolders(folders []string) (cerebellum.Diff, error) {
	return m.hook.PendingFolders(folders)
}

// CheckPlugins checks every usable plugin capability that is not loaded
// yet, marking failures, so a listing shows broken plugins without waiting
// for a first call. A plugin whose declared permissions are all granted (or
// that ships with Wrasse) is compiled and initialised; one still missing a
// grant is checked from source only, which reports the grant it needs.
// Verdicts are remembered by code, grants and source
// (cerebellum.Options.CheckCache), so a later start only checks what
// changed. It runs up to workers checks at once. Built-in plugins whose
// code matches what was checked when Wrasse was built
// (cerebellum.VerifiedFS) are not checked again.
func (m *Manager) CheckPlugins(ctx context.Context, workers int) { m.hook.CheckPlugins(ctx, workers) }
