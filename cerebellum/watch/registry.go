package watch

import (
	"context"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Notice reports changes found on disk.
type Notice struct {
	// Diff is what changed since the last applied state.
	Diff cerebellum.Diff
	// Applied is true when the changes were applied (autoResync); otherwise
	// they are "changes on disk" waiting for a Resync.
	Applied bool
	// Err is set when the folder could not be read or the Resync failed.
	Err error
}

// Registry watches a registry's workspace capability folder. After each
// quiet burst of edits it either applies them with Resync (auto) or computes
// what a Resync would change, and tells notify. Bursts that change nothing
// (an editor touching a file) are not reported.
func Registry(ctx context.Context, reg *cerebellum.Registry, auto bool, opt Options, notify func(Notice)) error {
	dir := cerebellum.CapabilitiesDir(reg.Workspace())
	return Watch(ctx, dir, opt, func() {
		var n Notice
		if auto {
			n.Diff, n.Err = reg.Resync(ctx)
			n.Applied = n.Err == nil
		} else {
			n.Diff, n.Err = reg.Pending()
		}
		if n.Err == nil && n.Diff.Empty() {
			return
		}
		notify(n)
	})
}
