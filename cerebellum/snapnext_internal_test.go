package cerebellum

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// scanGen makes random scans over a small world of names, tools and
// requirements, so duplicates, built-in shadowing, tool collisions,
// requirement chains, failures, disabled and pinned capabilities all occur.
type scanGen struct {
	rng     *rand.Rand
	folders []string
	names   []string
	tools   []string
	n       int
}

func newScanGen(seed uint64) *scanGen {
	g := &scanGen{rng: rand.New(rand.NewPCG(seed, 7))}
	for i := range 14 {
		g.folders = append(g.folders, fmt.Sprintf("ws%02d", i))
	}
	// Mostly a folder's own name; sometimes another's, a built-in's, or
	// one no folder has, so names collide.
	g.names = append(slices.Clone(g.folders), "b-one", "b-two", "extra", "other")
	for i := range 24 {
		g.tools = append(g.tools, fmt.Sprintf("tool%02d", i))
	}
	return g
}

func (g *scanGen) builtins() []*Capability {
	var out []*Capability
	for _, n := range []string{"b-one", "b-two"} {
		out = append(out, &Capability{Name: n, Folder: n, Source: SourceBuiltin, Kind: KindGuide, State: StateOK, Hash: "h-" + n,
			Manifest: &skillmd.Manifest{Name: n, Description: "built-in " + n}, Core: n == "b-one"})
	}
	return out
}

// entry makes a random scanned workspace capability in folder.
func (g *scanGen) entry(folder string) *Capability {
	r := g.rng
	g.n++
	name := folder
	if r.IntN(16) == 0 {
		name = g.names[r.IntN(len(g.names))]
	}
	m := &skillmd.Manifest{Name: name, Description: fmt.Sprintf("capability %s version %d", name, g.n), Keywords: []string{fmt.Sprintf("kw%d", r.IntN(5))}}
	c := &Capability{Name: name, Folder: folder, Source: SourceWorkspace, Kind: KindGuide, State: StateOK, Manifest: m,
		Hash: fmt.Sprintf("h%d", g.n), CodeHash: fmt.Sprintf("c%d", r.IntN(3)), Files: []string{"SKILL.md"}}
	if r.IntN(3) > 0 {
		c.Kind = KindPlugin
		// Mostly tools of their own, sometimes one another declares.
		base := (int(folder[2]-'0')*10 + int(folder[3]-'0')) % 12
		for range 1 + r.IntN(2) {
			t := g.tools[base*2+r.IntN(2)]
			if r.IntN(10) == 0 {
				t = g.tools[r.IntN(len(g.tools))]
			}
			if !slices.ContainsFunc(m.Tools, func(x skillmd.Tool) bool { return x.Name == t }) {
				m.Tools = append(m.Tools, skillmd.Tool{Name: t, Description: "does " + t, Parameters: []byte(`{"type":"object"}`)})
			}
		}
		if r.IntN(6) > 0 {
			c.Files = append(c.Files, "plugin/main.go")
		}
	}
	if r.IntN(5) == 0 {
		m.Requires = []string{g.names[r.IntN(len(g.names))]}
	}
	if r.IntN(4) == 0 {
		m.DangerPatterns = []skillmd.Pattern{{Pattern: "rm -rf " + name}}
	}
	if r.IntN(4) == 0 {
		m.ConfirmPatterns = []skillmd.Pattern{{Pattern: "push " + name}}
	}
	if r.IntN(12) == 0 {
		c.fail("SKILL.md is broken", "")
	}
	return c
}

// scan returns the scan of the given workspace entries, by folder.
func scanOf(builtins []*Capability, ws map[string]*Capability) []*Capability {
	out := slices.Clone(builtins)
	folders := make([]string, 0, len(ws))
	for f := range ws {
		folders = append(folders, f)
	}
	sort.Strings(folders)
	for _, f := range folders {
		out = append(out, ws[f])
	}
	return out
}

// TestNextEqualsAssemble: over random sequences of edits, additions,
// removals and failures, a snapshot made from the previous one (when next
// takes the change) equals a snapshot assembled from scratch from the same
// input, including what the next one is made from; its search index ranks
// as a build; and its delta names every capability that differs.
func TestNextEqualsAssemble(t *testing.T) {
	took, steps := 0, 0
	for seed := range uint64(60) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g := newScanGen(seed)
			r := g.rng
			builtins := g.builtins()
			ws := map[string]*Capability{}
			for _, f := range g.folders[:8] {
				ws[f] = g.entry(f)
			}
			in := assembleInput{states: map[string]CapState{}, pinned: []string{"ws03", "ws05"}, hasLoader: map[Kind]bool{KindPlugin: true},
				failures: map[string]loadFailure{}, native: map[string]bool{}}
			in.states["ws02"] = CapState{Disabled: true}
			in.states["ws04"] = CapState{Granted: []string{"net"}, GrantedFor: "c1", Authored: true}
			in.scanned = scanOf(builtins, ws)
			in.generation = 1
			prev := assemble(in)
			for step := range 60 {
				steps++
				in.generation++
				for range 1 + r.IntN(2) {
					f := g.folders[r.IntN(len(g.folders))]
					switch k := r.IntN(10); {
					case k < 2:
						delete(ws, f)
					case k < 3 && ws[f] != nil:
						// A load failure of its current content.
						in.failures[ws[f].Name] = loadFailure{hash: ws[f].Hash, msg: "init failed"}
						ws[f] = g.entry(f)
						ws[f].Hash = in.failures[ws[f].Name].hash
					default:
						ws[f] = g.entry(f)
					}
				}
				in.scanned = scanOf(builtins, ws)
				want := assemble(in)
				checkShadows(t, fmt.Sprintf("step %d", step), want)
				got, ok := prev.next(in)
				if !ok {
					prev = want
					continue
				}
				took++
				compareSnapshots(t, fmt.Sprintf("step %d", step), got, want)
				checkDelta(t, fmt.Sprintf("step %d", step), prev, got)
				if step%7 == 0 {
					prev.Search()
					got.follow(prev)
					compareSearch(t, fmt.Sprintf("step %d", step), got, want)
				}
				prev = got
			}
		})
	}
	// Most steps must take the incremental path, or the test shows little.
	if took < steps/3 {
		t.Fatalf("next took only %d of %d steps", took, steps)
	}
	t.Logf("next took %d of %d steps", took, steps)
}

func compareSnapshots(t *testing.T, at string, got, want *Snapshot) {
	t.Helper()
	if len(got.caps) != len(want.caps) {
		t.Fatalf("%s: %d capabilities, want %d", at, len(got.caps), len(want.caps))
	}
	for i := range want.caps {
		if !reflect.DeepEqual(got.caps[i], want.caps[i]) {
			t.Fatalf("%s: capability %d\n got %+v\nwant %+v", at, i, *got.caps[i], *want.caps[i])
		}
	}
	if !sameKeys(got.byName, want.byName) {
		t.Fatalf("%s: names %v, want %v", at, keys(got.byName), keys(want.byName))
	}
	for n, c := range want.byName {
		if !reflect.DeepEqual(got.byName[n], c) {
			t.Fatalf("%s: byName[%s] differs", at, n)
		}
	}
	gotShadow, gotMulti := got.shadows()
	wantShadow, wantMulti := want.shadows()
	if !sameKeys(got.tools, want.tools) || !sameKeys(gotShadow, wantShadow) {
		t.Fatalf("%s: tools %v shadow %v, want %v shadow %v", at, keys(got.tools), keys(gotShadow), keys(want.tools), keys(wantShadow))
	}
	for n, ref := range want.tools {
		g := got.tools[n]
		if g.cap.Name != ref.cap.Name || !reflect.DeepEqual(g.tool, ref.tool) || g.tool != findTool(got.byName[g.cap.Name], n) {
			t.Fatalf("%s: tool %s owned by %s, want %s", at, n, g.cap.Name, ref.cap.Name)
		}
	}
	for n, c := range wantShadow {
		if gotShadow[n].Name != c.Name {
			t.Fatalf("%s: shadow tool %s owned by %s, want %s", at, n, gotShadow[n].Name, c.Name)
		}
	}
	if !reflect.DeepEqual(got.patterns, want.patterns) {
		t.Fatalf("%s: patterns %v, want %v", at, got.patterns, want.patterns)
	}
	if !reflect.DeepEqual(gotMulti, wantMulti) || got.dups != want.dups {
		t.Fatalf("%s: multi-declared tools %v dups %d, want %v %d", at, keys(gotMulti), got.dups, keys(wantMulti), want.dups)
	}
	for n := range want.required {
		if !got.required[n] {
			t.Fatalf("%s: required names %v miss %s", at, keys(got.required), n)
		}
	}
	if !slices.Equal(got.from, want.from) {
		t.Fatalf("%s: made from another scan", at)
	}
}

// checkDelta: every capability that differs from prev is named.
func checkDelta(t *testing.T, at string, prev, got *Snapshot) {
	t.Helper()
	if got.delta == nil || got.delta.from != prev.Generation || !slices.IsSorted(got.delta.names) {
		t.Fatalf("%s: delta %+v", at, got.delta)
	}
	for n, c := range got.byName {
		if old, ok := prev.byName[n]; (!ok || old != c) && !slices.Contains(got.delta.names, n) {
			t.Fatalf("%s: %s changed but the delta names %v", at, n, got.delta.names)
		}
	}
	for n := range prev.byName {
		if _, ok := got.byName[n]; !ok && !slices.Contains(got.delta.names, n) {
			t.Fatalf("%s: %s removed but the delta names %v", at, n, got.delta.names)
		}
	}
}

// compareSearch: the index got makes from its previous one's ranks as a
// build over want's capabilities.
func compareSearch(t *testing.T, at string, got, want *Snapshot) {
	t.Helper()
	gi, wi := got.Search(), search.Build(want.searchDocs())
	for _, q := range []string{"capability", "version 3", "kw1", "tool03", "built-in", "ws04", "does tool11", "other extra"} {
		gh, wh := gi.Search(q, 20, nil), wi.Search(q, 20, nil)
		if !reflect.DeepEqual(gh, wh) {
			t.Fatalf("%s: search %q\n got %v\nwant %v", at, q, gh, wh)
		}
	}
}

func findTool(c *Capability, name string) *skillmd.Tool {
	if c == nil || c.Manifest == nil {
		return nil
	}
	for i := range c.Manifest.Tools {
		if c.Manifest.Tools[i].Name == name {
			return &c.Manifest.Tools[i]
		}
	}
	return nil
}

func sameKeys[V any](a, b map[string]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

func keys[V any](m map[string]V) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// checkShadows: the shadow tools and multi-declared tools a snapshot maps
// on first use are what registerTools mapped when it made them as it went
// (that loop, kept here as the reference, run on the final states: they
// cause no further collisions).
func checkShadows(t *testing.T, at string, s *Snapshot) {
	t.Helper()
	tools := map[string]toolRef{}
	shadow := map[string]*Capability{}
	multi := map[string]bool{}
	for _, c := range s.caps {
		if c.Manifest == nil {
			continue
		}
		failed := c.State != StateOK
		for _, tl := range c.Manifest.Tools {
			o, held := tools[tl.Name]
			sh, shadowed := shadow[tl.Name]
			if held && o.cap != c || shadowed && sh != c {
				multi[tl.Name] = true
			}
			if held && !failed {
				t.Fatalf("%s: usable %s collides on %s with %s", at, c.Name, tl.Name, o.cap.Name)
			}
			if failed && !shadowed {
				shadow[tl.Name] = c
			}
		}
		if !failed {
			for i := range c.Manifest.Tools {
				tools[c.Manifest.Tools[i].Name] = toolRef{cap: c, tool: &c.Manifest.Tools[i]}
			}
		}
	}
	gotShadow, gotMulti := s.shadows()
	if !sameKeys(tools, s.tools) || !sameKeys(shadow, gotShadow) || !reflect.DeepEqual(multi, gotMulti) {
		t.Fatalf("%s: tools %v shadow %v multi %v, want %v %v %v", at, keys(s.tools), keys(gotShadow), keys(gotMulti), keys(tools), keys(shadow), keys(multi))
	}
	for n, c := range shadow {
		if gotShadow[n] != c {
			t.Fatalf("%s: shadow tool %s owned by %s, want %s", at, n, gotShadow[n].Name, c.Name)
		}
	}
}
