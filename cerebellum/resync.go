package cerebellum

import (
	"context"
	"encoding/json"
	"os"
	"sort"

	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
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
//
// The diff is against the last applied state, which is remembered across
// runs (Options.AppliedState), so `wrasse caps resync` in a new process
// still reports the edits made since the previous Resync.
func (r *Registry) Resync(ctx context.Context) (Diff, error) {
	r.mu.Lock()
	before := r.applied
	r.mu.Unlock()
	if err := r.rescan("resync"); err != nil {
		return Diff{}, err
	}
	after := hashesOf(r.Snapshot())
	r.mu.Lock()
	r.applied = after
	r.mu.Unlock()
	if err := saveApplied(r.opts.AppliedState, after); err != nil {
		r.log.Warn("saving the applied capability state", "error", err)
	}
	return diffHashes(before, after), nil
}

func hashesOf(s *Snapshot) map[string]string {
	out := make(map[string]string, len(s.caps))
	for _, c := range s.caps {
		out[c.Name] = c.Hash
	}
	return out
}

func loadApplied(path string) map[string]string {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]string
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return m
}

func saveApplied(path string, m map[string]string) error {
	if path == "" {
		return nil
	}
	return atomicfile.WriteJSON(path, m, 0o600)
}

func diffHashes(before, after map[string]string) Diff {
	var d Diff
	for name, h := range after {
		old, ok := before[name]
		switch {
		case !ok:
			d.Added = append(d.Added, name)
		case old != h:
			d.Changed = append(d.Changed, name)
		default:
			d.Unchanged = append(d.Unchanged, name)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			d.Removed = append(d.Removed, name)
		}
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	sort.Strings(d.Changed)
	sort.Strings(d.Unchanged)
	return d
}

// Pending compares the folders on disk with the last applied state without
// applying anything: what a Resync would report.
func (r *Registry) Pending() (Diff, error) {
	scanned, err := r.scan()
	if err != nil {
		return Diff{}, err
	}
	// Assemble as a Resync would, so duplicates are named the same way.
	r.mu.Lock()
	states, err := r.opts.States.States()
	applied := r.applied
	pinned := r.tune().Pinned
	r.mu.Unlock()
	if err != nil {
		return Diff{}, err
	}
	next := assemble(assembleInput{scanned: scanned, states: states, pinned: pinned})
	return diffHashes(applied, hashesOf(next)), nil
}
