package cerebellum

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

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
// are compared by content hash, kind, failure and folder (see appliedKey),
// so one failed or restored by another's edit is reported too: unchanged ones keep their loaded plugin
// instances, changed ones are reloaded on next use (the old instance is
// closed now), removed ones unregister, and every conversation keeps its
// loaded set minus what disappeared.
//
// The diff is against the last applied state, which is remembered across
// runs (Options.AppliedState), so `wrasse caps resync` in a new process
// still reports the edits made since the previous Resync.
func (r *Registry) resyncAll(ctx context.Context) (Diff, error) {
	r.resyncMu.Lock()
	defer r.resyncMu.Unlock()
	r.appliedOnce()
	r.mu.Lock()
	before := r.applied
	r.mu.Unlock()
	// Unchanged folders are recognised by the stat of their files (see
	// manifestCache) and not read again.
	if err := r.rescan("resync"); err != nil {
		return Diff{}, err
	}
	r.saveCache()
	return r.applySnapshot(before, r.Snapshot()), nil
}

// applySnapshot records snap as the applied state and returns what changed
// since before; r.resyncMu must be held. A Resync that kept the snapshot the
// previous one applied knows its diff (nothing) without comparing hashes.
func (r *Registry) applySnapshot(before map[string]string, snap *Snapshot) Diff {
	r.mu.Lock()
	appliedGen, appliedNames := r.appliedGen, r.appliedNames
	r.mu.Unlock()
	if appliedGen == snap.Generation && appliedNames != nil {
		return Diff{Unchanged: slices.Clone(appliedNames)}
	}
	d, after, names := diffApplied(before, appliedGen, appliedNames, snap)
	r.mu.Lock()
	r.applied = after
	r.appliedGen, r.appliedNames = snap.Generation, names
	r.mu.Unlock()
	if !d.Empty() {
		r.writeApplied(d, names, after)
	}
	return d
}

// writeApplied saves the applied state after, whose names sorted are names
// and which differs from the last saved one by d: appended to the file
// while the appended entries are fewer than the capabilities, else written
// whole; r.resyncMu must be held (or Open running).
func (r *Registry) writeApplied(d Diff, names []string, after map[string]string) {
	path := r.opts.AppliedState
	n := len(d.Added) + len(d.Changed) + len(d.Removed)
	if r.appliedAppended >= 0 && r.appliedAppended+n <= max(len(after), 64) {
		if err := appendApplied(path, d, after); err == nil {
			r.appliedAppended += n
			return
		}
		// Missing or unwritable: write it whole.
	}
	if err := saveApplied(path, names, after); err != nil {
		r.log.Warn("saving the applied capability state", "error", err)
		r.appliedAppended = -1
		return
	}
	r.appliedAppended = 0
}

// diffApplied compares snap with the applied state before (taken from the
// snapshot of generation appliedGen, whose names sorted are appliedNames,
// when appliedGen is not 0) and returns the diff, snap's state and its names
// sorted.
func diffApplied(before map[string]string, appliedGen uint64, appliedNames []string, snap *Snapshot) (Diff, map[string]string, []string) {
	if sd := snap.delta; sd != nil && appliedGen != 0 && sd.from == appliedGen && appliedNames != nil {
		// before is the state of the snapshot snap was made from by
		// replacing the capabilities sd names: only those can differ.
		return diffDelta(before, appliedNames, snap)
	}
	after := hashesOf(snap)
	var d Diff
	for _, c := range snap.caps {
		old, ok := before[c.Name]
		switch {
		case !ok:
			d.Added = append(d.Added, c.Name)
		case !sameApplied(old, c, after[c.Name]):
			d.Changed = append(d.Changed, c.Name)
		default:
			d.Unchanged = append(d.Unchanged, c.Name)
		}
	}
	d.settle(before, after)
	names := slices.Concat(d.Added, d.Changed, d.Unchanged)
	slices.Sort(names)
	return d, after, names
}

// appliedKey is what the applied state records of c, so that a Resync
// reports every capability that changed as the user sees it: its content
// hash (files, hence description and tools), kind, whether it failed and
// which folder it comes from. Its state and folder change with other
// capabilities' edits (a tool-name collision, a duplicate name, a
// requirement): those are reported too. Disabled is the user's choice,
// not a change on disk, and counts as usable here.
func appliedKey(c *Capability) string {
	failed := ""
	if c.State == StateFailed {
		failed = "failed"
	}
	return c.Hash + "|" + string(c.Kind) + "|" + failed + "|" + string(c.Source) + "/" + c.Folder
}

// sameApplied reports whether the applied entry old still describes c,
// whose appliedKey is key. An entry written before appliedKey existed is
// a bare content hash and compares by content only (it is replaced by the
// next Resync that changes anything).
func sameApplied(old string, c *Capability, key string) bool {
	if old == key {
		return true
	}
	return !strings.Contains(old, "|") && old == c.Hash
}

// diffDelta compares before with hashesOf(snap) for a snapshot that
// differs from the one before was taken from (whose names, sorted, are
// names) only in the capabilities snap.delta names. It returns the diff,
// the new state and its names, sorted, without looking at the others.
func diffDelta(before map[string]string, names []string, snap *Snapshot) (Diff, map[string]string, []string) {
	var d Diff
	after := maps.Clone(before)
	for _, n := range snap.delta.names {
		c, now := snap.byName[n]
		old, was := before[n]
		switch {
		case now && !was:
			d.Added = append(d.Added, n)
			after[n] = appliedKey(c)
		case now && !sameApplied(old, c, appliedKey(c)):
			d.Changed = append(d.Changed, n)
			after[n] = appliedKey(c)
		case !now && was:
			d.Removed = append(d.Removed, n)
			delete(after, n)
		}
	}
	all := withoutSorted(names, d.Removed)
	for _, n := range d.Added {
		i, _ := slices.BinarySearch(all, n)
		all = slices.Insert(all, i, n)
	}
	d.Unchanged = withoutSorted(all, mergeSortedNames(d.Added, d.Changed))
	if len(d.Unchanged) == 0 {
		d.Unchanged = nil
	}
	return d, after, all
}

// withoutSorted returns a copy of the sorted list all without the sorted
// names drop.
func withoutSorted(all, drop []string) []string {
	out := make([]string, 0, len(all))
	for _, n := range all {
		if len(drop) > 0 && n == drop[0] {
			drop = drop[1:]
			continue
		}
		for len(drop) > 0 && drop[0] < n {
			drop = drop[1:]
		}
		if len(drop) > 0 && n == drop[0] {
			drop = drop[1:]
			continue
		}
		out = append(out, n)
	}
	return out
}

func mergeSortedNames(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return out
}

func hashesOf(s *Snapshot) map[string]string {
	out := make(map[string]string, len(s.caps))
	for _, c := range s.caps {
		out[c.Name] = appliedKey(c)
	}
	return out
}

// The applied-state file is a JSON object of name → content hash, followed
// by one JSON object per later Resync with what it changed (null: removed),
// a later entry replacing an earlier one. A Resync that changed one
// capability so appends one line instead of rewriting every capability's
// entry (a megabyte at 10,000); the file is written whole again once the
// appended entries outnumber the capabilities. A file of one object (as
// written before) reads the same.

// loadApplied reads the applied state and how many entries were appended
// since it was last written whole (-1 when its last line is torn: the next
// save writes it whole). It returns nil when there is none.
func loadApplied(path string) (map[string]string, int) {
	if path == "" {
		return nil, 0
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var m map[string]string
	appended := 0
	for {
		var obj map[string]*string
		if err := dec.Decode(&obj); err != nil {
			if m == nil {
				return nil, 0
			}
			if err != io.EOF {
				appended = -1
			}
			return m, appended
		}
		if m == nil {
			if obj == nil {
				return nil, 0
			}
			m = make(map[string]string, len(obj))
		} else if appended >= 0 {
			appended += len(obj)
		}
		for k, v := range obj {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = *v
			}
		}
	}
}

// appendApplied appends d's entries of after to the applied-state file,
// which must exist.
func appendApplied(path string, d Diff, after map[string]string) error {
	if path == "" {
		return nil
	}
	keys := slices.Concat(d.Added, d.Changed, d.Removed)
	slices.Sort(keys)
	b := []byte("\n{")
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		if h, ok := after[k]; ok {
			b = appendJSONString(b, h)
		} else {
			b = append(b, "null"...)
		}
	}
	b = append(b, '}')
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append to %s: %w", path, err)
	}
	return nil
}

// saveApplied writes the applied state m, whose names sorted are names, as
// a JSON object in name order (what json.Marshal writes, without its
// reflection and sort, which were most of a Resync at 10,000 capabilities).
func saveApplied(path string, names []string, m map[string]string) error {
	if path == "" {
		return nil
	}
	n := 2
	for _, k := range names {
		n += len(k) + len(m[k]) + 6
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, m[k])
	}
	b = append(b, '}')
	return atomicfile.Write(path, b, 0o600)
}

// appendJSONString appends s as a JSON string. Names and hashes are plain
// ASCII; anything else is escaped by encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// settle adds to d what before holds and after lacks, and sorts each list.
func (d *Diff) settle(before, after map[string]string) {
	for name := range before {
		if _, ok := after[name]; !ok {
			d.Removed = append(d.Removed, name)
		}
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	sort.Strings(d.Changed)
	sort.Strings(d.Unchanged)
}

// Pending compares the folders on disk with the last applied state without
// applying anything: what a Resync would report.
func (r *Registry) pendingAll() (Diff, error) {
	scanned, err := r.scan()
	if err != nil {
		return Diff{}, err
	}
	return r.pending(scanned)
}

// pending is what a Resync to scanned would report: the snapshot it would
// publish, made as a Resync makes it, compared with the applied state.
func (r *Registry) pending(scanned []*Capability) (Diff, error) {
	r.appliedOnce()
	r.mu.Lock()
	states, err := r.opts.States.States()
	if err != nil {
		r.mu.Unlock()
		return Diff{}, fmt.Errorf("read capability states: %w", err)
	}
	applied, appliedGen, appliedNames := r.applied, r.appliedGen, r.appliedNames
	next := r.nextSnapshotLocked(r.snap.Load(), scanned, states, 0, true)
	r.mu.Unlock()
	d, _, _ := diffApplied(applied, appliedGen, appliedNames, next)
	return d, nil
}

// ResyncFolders applies what changed in the named workspace capability
// folders (names directly under CapabilitiesDir, as a watcher reports
// them), and in any a PendingFolders call noticed before, reading only
// those: the rest of the scan is kept as the last Resync left it. It is
// Resync for when the changed folders are known; with none it is Resync.
func (r *Registry) resyncFolders(ctx context.Context, folders []string) (Diff, error) {
	if r.opts.Workspace == "" || len(folders) == 0 {
		return r.resyncAll(ctx)
	}
	r.resyncMu.Lock()
	defer r.resyncMu.Unlock()
	r.appliedOnce()
	r.scanMu.Lock()
	r.mu.Lock()
	base, before := r.scanned, r.applied
	all := r.noticedLocked(folders)
	r.mu.Unlock()
	scanned := r.scanFolders(base, all)
	r.mu.Lock()
	r.noticed = nil
	if sameScan(scanned, base) && r.inputsUnchangedLocked() {
		// An editor touched a file without changing it.
		snap := r.snap.Load()
		r.mu.Unlock()
		r.scanMu.Unlock()
		return r.applySnapshot(before, snap), nil
	}
	r.scanned = scanned
	snap, err := r.assembleScanLocked()
	r.mu.Unlock()
	r.scanMu.Unlock()
	if err != nil {
		return Diff{}, err
	}
	r.closeStale(snap)
	r.notify(Change{Generation: snap.Generation, Reason: "resync"})
	return r.applySnapshot(before, snap), nil
}

// PendingFolders is Pending when the changed folders are known: it reads
// only those (and the ones noticed before without a Resync since) and
// reports what a Resync would change, applying nothing.
func (r *Registry) pendingFolders(folders []string) (Diff, error) {
	if r.opts.Workspace == "" || len(folders) == 0 {
		return r.pendingAll()
	}
	r.scanMu.Lock()
	r.mu.Lock()
	base := r.scanned
	all := r.noticedLocked(folders)
	r.mu.Unlock()
	scanned := r.scanFolders(base, all)
	r.scanMu.Unlock()
	return r.pending(scanned)
}

// noticedLocked adds folders to the noticed set and returns all of it.
func (r *Registry) noticedLocked(folders []string) []string {
	if r.noticed == nil {
		r.noticed = map[string]bool{}
	}
	for _, f := range folders {
		r.noticed[f] = true
	}
	out := make([]string, 0, len(r.noticed))
	for f := range r.noticed {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// scanFolders returns base with the named workspace folders read again
// (through the manifest cache): changed ones replaced, new ones added in
// folder order, vanished ones dropped. Names that are not capability
// folders (hidden, "_" prefixed, nested paths) are ignored.
func (r *Registry) scanFolders(base []*Capability, folders []string) []*Capability {
	dir := CapabilitiesDir(r.opts.Workspace)
	fsys := os.DirFS(dir)
	sd := openStatDir(dir)
	defer sd.close()
	updates := map[string]*Capability{}
	for _, f := range folders {
		if f == "" || strings.HasPrefix(f, ".") || strings.HasPrefix(f, "_") || strings.ContainsAny(f, `/\`) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.IsDir() {
			updates[f] = r.cache.read(fsys, sd, dir, f, SourceWorkspace)
		} else {
			r.cache.forget(f)
			updates[f] = nil
		}
	}
	out := make([]*Capability, 0, len(base)+len(updates))
	var ws []*Capability
	for _, c := range base {
		if c.Source != SourceWorkspace {
			out = append(out, c)
			continue
		}
		if u, ok := updates[c.Folder]; ok {
			if u != nil {
				ws = append(ws, u)
			}
			delete(updates, c.Folder)
			continue
		}
		ws = append(ws, c)
	}
	added := false
	for _, u := range updates {
		if u != nil {
			ws = append(ws, u)
			added = true
		}
	}
	if added {
		slices.SortStableFunc(ws, func(a, b *Capability) int { return strings.Compare(a.Folder, b.Folder) })
	}
	return append(out, ws...)
}
