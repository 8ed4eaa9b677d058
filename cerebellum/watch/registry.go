package watch

import (
	"context"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
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

// Registry watches the workspace capability folder of the registry m
// manages. After each quiet burst of edits it either applies them (auto)
// or computes what a Resync would change, and tells notify; either way only the capability
// folders the burst touched are read again. Bursts that change nothing (an
// editor touching a file) are not reported, with one exception: without
// auto, once changes were reported as waiting, a burst after which
// nothing waits any more (the edits were undone) is reported with an
// empty Diff, so whoever shows "changes on disk" can take it back.
// (PendingFolders covers every folder noticed since the last Resync, so an
// empty Diff there means nothing at all waits.)
func Registry(ctx context.Context, m *manage.Manager, auto bool, opt Options, notify func(Notice)) error {
	dir := cerebellum.CapabilitiesDir(m.Registry().Workspace())
	// waiting: the last notice said changes wait for a Resync. Only the
	// watcher's own goroutine reads and writes it (bursts are handled one
	// at a time).
	waiting := false
	return Watch(ctx, dir, opt, func(paths []string) {
		folders := Folders(dir, paths)
		var n Notice
		if auto {
			n.Diff, n.Err = m.ResyncFolders(ctx, folders)
			n.Applied = n.Err == nil
		} else {
			n.Diff, n.Err = m.PendingFolders(folders)
		}
		if n.Err == nil && n.Diff.Empty() && !waiting {
			return
		}
		waiting = !auto && n.Err == nil && !n.Diff.Empty()
		notify(n)
	})
}

// Folders maps changed paths to the capability folders (names directly
// under dir) they belong to, sorted. It returns nil, meaning "rescan
// everything", when paths is nil or one of them is dir itself or outside it.
func Folders(dir string, paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return nil
		}
		first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		if !seen[first] {
			seen[first] = true
			out = append(out, first)
		}
	}
	sort.Strings(out)
	return out
}
