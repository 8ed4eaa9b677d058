package cerebellum

import (
	"context"
	"sort"
)

// Diff is what a Resync changed, by capability name, each list sorted.
type Diff struct {
	Added     []string `json:"added,omitempty"`
	Removed   []string `json:"removed,omitempty"`
	Changed   []string `json:"changed,omitempty"`
	Unchanged []string `json:"unchanged,omitempty"`
}

// Empty reports whether nothing changed.
func (d Diff) Empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 }

// Resync rescans both trees and applies what changed on disk. Capabilities
// are compared by content hash: unchanged ones keep their loaded plugin
// instances, changed ones are reloaded on next use (the old instance is
// closed now), removed ones unregister, and every conversation keeps its
// loaded set minus what disappeared.
func (r *Registry) Resync(ctx context.Context) (Diff, error) {
	before := r.Snapshot()
	if err := r.rescan("resync"); err != nil {
		return Diff{}, err
	}
	return diffSnapshots(before, r.Snapshot()), nil
}

// Pending compares the folders on disk with the current snapshot without
// applying anything: what a Resync would change.
func (r *Registry) Pending() (Diff, error) {
	scanned, err := r.scan()
	if err != nil {
		return Diff{}, err
	}
	cur := r.Snapshot()
	next := &Snapshot{byName: map[string]*Capability{}}
	for _, c := range scanned {
		if _, dup := next.byName[c.Name]; !dup {
			next.add(c)
		}
	}
	return diffSnapshots(cur, next), nil
}

func diffSnapshots(before, after *Snapshot) Diff {
	var d Diff
	for name, c := range after.byName {
		old, ok := before.byName[name]
		switch {
		case !ok:
			d.Added = append(d.Added, name)
		case old.Hash != c.Hash:
			d.Changed = append(d.Changed, name)
		default:
			d.Unchanged = append(d.Unchanged, name)
		}
	}
	for name := range before.byName {
		if _, ok := after.byName[name]; !ok {
			d.Removed = append(d.Removed, name)
		}
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	sort.Strings(d.Changed)
	sort.Strings(d.Unchanged)
	return d
}
