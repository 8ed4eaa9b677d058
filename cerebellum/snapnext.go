package cerebellum

import (
	"maps"
	"slices"
	"strings"
)

// scanChange is one workspace entry that differs between two scans: oldAt
// is its position in the old scan (for an addition, where it is inserted),
// old and cur the entries (nil for an addition or a removal).
type scanChange struct {
	oldAt    int
	old, cur *Capability
}

// maxNextChanges bounds how many changed capabilities next replaces one by
// one; past it (and past a sixteenth of the scan) a full assemble is as cheap.
const maxNextChanges = 64

// scanChanges lists the workspace entries that differ between two scans of
// the same built-ins, both in scan order (built-ins, then the workspace by
// folder). The manifest cache hands out one pointer per unchanged folder, so
// entries are compared by identity. ok is false when the built-ins differ
// or the order is not as expected: the caller then assembles everything.
func scanChanges(old, cur []*Capability) (changes []scanChange, ok bool) {
	ob, cb := builtinPrefix(old), builtinPrefix(cur)
	if ob != cb || !sameScan(old[:ob], cur[:cb]) {
		return nil, false
	}
	i, j := ob, cb
	for i < len(old) || j < len(cur) {
		switch {
		case i < len(old) && j < len(cur) && old[i] == cur[j]:
			i, j = i+1, j+1
			continue
		case i < len(old) && j < len(cur) && old[i].Folder == cur[j].Folder:
			changes = append(changes, scanChange{oldAt: i, old: old[i], cur: cur[j]})
			i, j = i+1, j+1
		case j == len(cur) || (i < len(old) && old[i].Folder < cur[j].Folder):
			changes = append(changes, scanChange{oldAt: i, old: old[i]})
			i++
		default:
			changes = append(changes, scanChange{oldAt: i, cur: cur[j]})
			j++
		}
		if len(changes) > maxNextChanges && len(changes) > len(cur)/16 {
			return nil, false
		}
	}
	if !sortedWorkspace(old[ob:]) || !sortedWorkspace(cur[cb:]) {
		return nil, false
	}
	return changes, true
}

func builtinPrefix(scan []*Capability) int {
	n := 0
	for n < len(scan) && scan[n].Source == SourceBuiltin {
		n++
	}
	return n
}

// sortedWorkspace reports whether ws holds workspace entries only, in
// strictly ascending folder order, as scans list them.
func sortedWorkspace(ws []*Capability) bool {
	for i, c := range ws {
		if c.Source != SourceWorkspace || (i > 0 && ws[i-1].Folder >= c.Folder) {
			return false
		}
	}
	return true
}

// next makes the snapshot of in.scanned from p, which was assembled from
// the scan p.from with the same stored states, pinned names, failures,
// runtimes and MCP catalogs, by deciding only the changed capabilities
// again: every other entry, and most of every table, is p's. It returns
// false when a change reaches other capabilities (a name another has or
// had, a tool another declares, a requirement on or of a changed one, an
// MCP server, a duplicate in p) and the caller must assemble everything;
// otherwise the result equals assemble(in), which the tests check over
// random edits.
func (p *Snapshot) next(in assembleInput) (*Snapshot, bool) {
	if p == nil || p.dups > 0 || p.from == nil {
		return nil, false
	}
	changes, ok := scanChanges(p.from, in.scanned)
	if !ok {
		return nil, false
	}
	a := newAssembler(in, p.builtinNames)
	pShadow, pMulti := p.shadows()
	type decided struct {
		oldCap *Capability // p's entry (nil for an addition)
		cap    *Capability // the new entry (nil for a removal)
	}
	out := make([]decided, 0, len(changes))
	// Names and tools the changes touch, old and new.
	touched := make(map[string]bool, 2*len(changes))
	batchTools := map[string]bool{}
	var required []string
	for _, ch := range changes {
		d := decided{}
		if ch.old != nil {
			d.oldCap = p.caps[ch.oldAt]
			if d.oldCap.Name != ch.old.Name || p.byName[d.oldCap.Name] != d.oldCap {
				return nil, false
			}
			if d.oldCap.Kind == KindMCP {
				return nil, false
			}
			touched[d.oldCap.Name] = true
			if m := d.oldCap.Manifest; m != nil {
				for _, t := range m.Tools {
					if pMulti[t.Name] {
						return nil, false
					}
				}
			}
		}
		if ch.cur != nil {
			if ch.cur.Kind == KindMCP {
				return nil, false
			}
			c := a.prepare(ch.cur)
			if other, ok := p.byName[c.Name]; (ok && other != d.oldCap) || touched[c.Name] && (d.oldCap == nil || d.oldCap.Name != c.Name) {
				// Another capability has the name, or another change took it.
				return nil, false
			}
			touched[c.Name] = true
			a.finish(&c)
			if m := c.Manifest; m != nil {
				required = append(required, m.Requires...)
				for _, t := range m.Tools {
					if pMulti[t.Name] || batchTools[t.Name] {
						return nil, false
					}
					if o, ok := p.tools[t.Name]; ok && o.cap != d.oldCap {
						return nil, false
					}
					if sh, ok := pShadow[t.Name]; ok && sh != d.oldCap {
						return nil, false
					}
				}
				for _, t := range m.Tools {
					batchTools[t.Name] = true
				}
			}
			d.cap = &c
		}
		out = append(out, d)
	}
	for _, d := range out {
		// A changed capability that requires anything keeps its state only
		// when every requirement is another, unchanged capability that is
		// usable (then no pass of resolveRequires fails it).
		if d.cap != nil && d.cap.State == StateOK && d.cap.Manifest != nil {
			for _, r := range d.cap.Manifest.Requires {
				dep, ok := p.byName[r]
				if !ok || touched[r] || dep.State != StateOK {
					return nil, false
				}
			}
		}
		// One whose name or state changed matters to what requires it.
		if d.oldCap == nil || d.cap == nil || d.oldCap.Name != d.cap.Name || d.oldCap.State != d.cap.State {
			if d.oldCap != nil && p.required[d.oldCap.Name] || d.cap != nil && p.required[d.cap.Name] {
				return nil, false
			}
		}
	}

	s := &Snapshot{Generation: in.generation, policies: p.policies, from: in.scanned, builtinNames: p.builtinNames,
		multiTools: pMulti, required: p.required, shadowsMade: true}
	s.caps = make([]*Capability, 0, len(in.scanned))
	at := 0
	for i, ch := range changes {
		s.caps = append(s.caps, p.caps[at:ch.oldAt]...)
		at = ch.oldAt
		if ch.old != nil {
			at++
		}
		if c := out[i].cap; c != nil {
			s.caps = append(s.caps, c)
		}
	}
	s.caps = append(s.caps, p.caps[at:]...)

	s.byName = maps.Clone(p.byName)
	s.tools = maps.Clone(p.tools)
	s.shadowTools = maps.Clone(pShadow)
	patterns := false
	for _, d := range out {
		if o := d.oldCap; o != nil {
			delete(s.byName, o.Name)
			if o.Manifest != nil {
				for _, t := range o.Manifest.Tools {
					delete(s.tools, t.Name)
					delete(s.shadowTools, t.Name)
				}
				patterns = patterns || o.Usable() && len(o.Manifest.DangerPatterns)+len(o.Manifest.ConfirmPatterns) > 0
			}
		}
	}
	for _, d := range out {
		c := d.cap
		if c == nil {
			continue
		}
		s.byName[c.Name] = c
		if c.Manifest == nil {
			continue
		}
		patterns = patterns || c.Usable() && len(c.Manifest.DangerPatterns)+len(c.Manifest.ConfirmPatterns) > 0
		if c.State != StateOK {
			for _, t := range c.Manifest.Tools {
				if _, ok := s.shadowTools[t.Name]; !ok {
					s.shadowTools[t.Name] = c
				}
			}
			continue
		}
		for i := range c.Manifest.Tools {
			t := &c.Manifest.Tools[i]
			s.tools[t.Name] = toolRef{cap: c, tool: t}
		}
	}
	if patterns {
		s.patterns = collectPatterns(s.caps)
	} else {
		s.patterns = p.patterns
	}
	if slices.ContainsFunc(required, func(r string) bool { return !p.required[r] }) {
		// A superset is enough: it only sends a later change to assemble.
		s.required = maps.Clone(p.required)
		for _, r := range required {
			s.required[r] = true
		}
	}
	names := make([]string, 0, len(touched))
	for n := range touched {
		names = append(names, n)
	}
	slices.SortFunc(names, strings.Compare)
	s.delta = &snapDelta{from: p.Generation, names: names}
	return s, true
}
