package cerebellum

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/schema"
	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Snapshot is one immutable state of the registry: every capability with
// its state, the owner of every tool, and what is compiled from them (search
// index, argument schemas, safety patterns). A Resync or a state change makes
// a new Snapshot; readers holding the old one are unaffected.
type Snapshot struct {
	// Generation increases with every new snapshot.
	Generation uint64

	caps   []*Capability
	byName map[string]*Capability
	// tools maps a tool name to its owner, for usable capabilities only.
	tools map[string]toolRef
	// shadowTools maps tool names of unusable capabilities to their owner,
	// so a call can say "disabled" instead of "unknown". It and
	// multiTools are read through shadows: made on first use unless
	// shadowsMade.
	shadowTools map[string]*Capability
	shadowOnce  sync.Once
	shadowsMade bool
	patterns    []GatePattern

	indexOnce sync.Once
	index     *search.Index
	// prevIndex is the previous snapshot's index, if it had made one: this
	// one's is made from it by updating what changed (see follow).
	prevIndex *search.Index
	// prevDelta: prevIndex is the index of the snapshot delta is from.
	prevDelta  bool
	indexReady atomic.Bool

	// gateRules is the safety gate's matcher for patterns, built once (see
	// GateRules).
	gateOnce  sync.Once
	gateRules any

	schemaMu sync.Mutex
	schemas  map[string]*compiledSchema

	tokenMu sync.Mutex
	// rendered are capabilities' tools as requests carry them, with their
	// sizes (see modelTools), by capability name.
	rendered map[string]*modelTools
	// toolIndexes rank one capability's tools for a partial load (see
	// toolSearchIndex), by capability name.
	toolIndexes map[string]*search.Index
	// stable is the StableIndex text rendered for this snapshot, by
	// budget (under tokenMu).
	stable map[int]string

	// policies are the user's rules for MCP tools, by tool name.
	policies map[string]ToolPolicy

	// What a next snapshot needs to be made from this one by replacing
	// only the capabilities that changed (see next): the scan this one was
	// made from (caps[i] is decided from from[i]), the built-in names a
	// workspace capability may not take, how many capabilities were
	// renamed as duplicates, a superset of the names any capability
	// requires, and the tool names more than one capability declares.
	from         []*Capability
	builtinNames map[string]bool
	dups         int
	required     map[string]bool
	multiTools   map[string]bool
	// delta is set when this snapshot was made from the previous one
	// (generation delta.from) by replacing the capabilities named: its
	// search index and the Resync diff then look at those names only.
	delta *snapDelta
}

// snapDelta names the capabilities a snapshot changed from its previous
// one: old and new names of every replaced, added or removed one, sorted.
type snapDelta struct {
	from  uint64
	names []string
}

type toolRef struct {
	cap  *Capability
	tool *skillmd.Tool
}

type compiledSchema struct {
	in, out *schema.Schema
	err     error
}

// GatePattern is one compiled danger or confirm pattern with its owner.
type GatePattern struct {
	Capability string
	Block      bool // danger pattern: block; otherwise confirm
	Pattern    skillmd.Pattern
}

// ToolDef is a tool offered to the model.
type ToolDef struct {
	Capability  string
	Name        string
	Description string
	Parameters  json.RawMessage
	Annotations skillmd.Annotations
}

// Capabilities returns every capability in scan order (built-ins first, then
// the workspace, each sorted by folder name).
func (s *Snapshot) Capabilities() []*Capability { return s.caps }

// Get returns a capability by name.
func (s *Snapshot) Get(name string) (*Capability, bool) {
	c, ok := s.byName[name]
	return c, ok
}

// Owner returns the usable capability that declares tool.
func (s *Snapshot) Owner(tool string) (*Capability, bool) {
	r, ok := s.tools[tool]
	return r.cap, ok
}

// Tool returns a tool's declaration and owner.
func (s *Snapshot) Tool(name string) (*skillmd.Tool, *Capability, bool) {
	r, ok := s.tools[name]
	if !ok {
		return nil, nil, false
	}
	return r.tool, r.cap, true
}

// Patterns returns the danger and confirm patterns of all usable
// capabilities, compiled once for this snapshot, danger patterns first.
func (s *Snapshot) Patterns() []GatePattern { return s.patterns }

// GateRules returns build(Patterns()), built once for this snapshot, so
// the gate prepares the patterns once per registry state. It is untyped
// because the gate (brain/gate) imports this package.
func (s *Snapshot) GateRules(build func([]GatePattern) any) any {
	s.gateOnce.Do(func() { s.gateRules = build(s.patterns) })
	return s.gateRules
}

// ToolCount is the number of callable tools.
func (s *Snapshot) ToolCount() int { return len(s.tools) }

// follow lets s make its search index from prev's, when prev made one,
// updating only the capabilities that changed instead of building it anew.
func (s *Snapshot) follow(prev *Snapshot) {
	if prev != nil && prev.indexReady.Load() {
		s.prevIndex = prev.index
		s.prevDelta = s.delta != nil && s.delta.from == prev.Generation
	}
}

// Search returns the ranking index over every capability.
func (s *Snapshot) Search() *search.Index {
	s.indexOnce.Do(func() {
		switch {
		case s.prevIndex != nil && s.prevDelta:
			// Made from the previous snapshot by replacing the named
			// capabilities: only their documents change.
			var changed []search.Doc
			var removed []string
			for _, n := range s.delta.names {
				if c, ok := s.byName[n]; ok {
					changed = append(changed, searchDoc(c))
				} else {
					removed = append(removed, n)
				}
			}
			s.index = s.prevIndex.Update(changed, removed)
		case s.prevIndex != nil:
			s.index = s.prevIndex.Next(s.searchDocs())
		default:
			s.index = search.Build(s.searchDocs())
		}
		s.prevIndex = nil
		s.indexReady.Store(true)
	})
	return s.index
}

func (s *Snapshot) searchDocs() []search.Doc {
	docs := make([]search.Doc, 0, len(s.caps))
	for _, c := range s.caps {
		docs = append(docs, searchDoc(c))
	}
	return docs
}

func searchDoc(c *Capability) search.Doc {
	d := search.Doc{ID: c.Name, Name: c.Name}
	if m := c.Manifest; m != nil {
		d.Description = m.Description
		d.Keywords = append(append(append([]string(nil), m.Triggers...), m.Keywords...), m.Tags...)
		d.Headings = m.Headings
		for _, t := range m.Tools {
			d.ToolNames = append(d.ToolNames, t.Name)
			d.ToolDescriptions = append(d.ToolDescriptions, t.Description)
		}
	}
	return d
}

// SchemaTokens estimates the tokens a capability's tool schemas add to a
// request (name, description and parameters of each tool as ToolDefs
// renders them, plus the provider's wrapper), computed once per snapshot.
func (s *Snapshot) SchemaTokens(name string) int { return s.modelTools(name).total }

func (s *Snapshot) stableIndex(budget int) (string, bool) {
	s.tokenMu.Lock()
	defer s.tokenMu.Unlock()
	text, ok := s.stable[budget]
	return text, ok
}

func (s *Snapshot) setStableIndex(budget int, text string) {
	s.tokenMu.Lock()
	defer s.tokenMu.Unlock()
	if s.stable == nil {
		s.stable = map[int]string{}
	}
	s.stable[budget] = text
}

// schemasFor compiles a tool's argument and output schemas once per snapshot.
func (s *Snapshot) schemasFor(t *skillmd.Tool) *compiledSchema {
	s.schemaMu.Lock()
	defer s.schemaMu.Unlock()
	if cs, ok := s.schemas[t.Name]; ok {
		return cs
	}
	cs := &compiledSchema{}
	cs.in, cs.err = schema.Compile(t.Parameters)
	if cs.err == nil && len(t.OutputSchema) > 0 {
		cs.out, cs.err = schema.Compile(t.OutputSchema)
	}
	if s.schemas == nil {
		s.schemas = map[string]*compiledSchema{}
	}
	s.schemas[t.Name] = cs
	return cs
}

// assembleInput is what a snapshot is built from.
type assembleInput struct {
	scanned    []*Capability
	states     map[string]CapState
	pinned     []string
	native     map[string]bool
	hasLoader  map[Kind]bool
	failures   map[string]loadFailure
	generation uint64
	// learned are the tools MCP capabilities' servers reported, by
	// capability; policies the user's rules for them, by tool name.
	learned  map[string][]skillmd.Tool
	policies map[string]ToolPolicy
}

type loadFailure struct {
	hash string
	msg  string
}

// assemble decides every capability's state from the scan, the user's
// choices and known load failures. It is deterministic: the same input gives
// the same snapshot.
func assemble(in assembleInput) *Snapshot {
	s := &Snapshot{Generation: in.generation, byName: make(map[string]*Capability, len(in.scanned)), policies: in.policies, from: in.scanned}
	s.builtinNames = map[string]bool{}
	for _, c := range in.scanned {
		if c.Source == SourceBuiltin {
			s.builtinNames[c.Name] = true
			s.builtinNames[c.Folder] = true
		}
	}
	a := newAssembler(in, s.builtinNames)
	for _, orig := range in.scanned {
		c := a.prepare(orig)
		if prev, dup := s.byName[c.Name]; dup {
			cc := c
			if cc.State != StateFailed {
				cc.fail(fmt.Sprintf("another capability is already named %q (folder %s); rename one of them", c.Name, prev.Folder), "")
			}
			// Keep it listed under its folder so the user can see and fix it.
			cc.Name = c.Folder
			if _, clash := s.byName[cc.Name]; clash {
				cc.Name = c.Folder + "@" + string(c.Source)
			}
			s.add(&cc)
			s.dups++
			continue
		}
		a.finish(&c)
		s.add(&c)
	}
	s.resolveRequires()
	s.registerTools()
	// A capability failed by a tool collision may be required by another.
	if s.resolveRequires() {
		s.registerTools()
	}
	s.patterns = collectPatterns(s.caps)
	s.required = map[string]bool{}
	for _, c := range s.caps {
		if c.Manifest != nil {
			for _, r := range c.Manifest.Requires {
				s.required[r] = true
			}
		}
	}
	return s
}

// assembler makes one capability's entry of a snapshot: what assemble
// decides for each capability by itself, apart from names, requirements
// and tools, which depend on the others.
type assembler struct {
	in       assembleInput
	builtins map[string]bool
	pinned   map[string]bool
}

func newAssembler(in assembleInput, builtins map[string]bool) *assembler {
	pinned := make(map[string]bool, len(in.pinned))
	for _, p := range in.pinned {
		pinned[p] = true
	}
	return &assembler{in: in, builtins: builtins, pinned: pinned}
}

// prepare copies a scanned capability and applies the stored grants and
// badge and the built-in names it may not shadow.
func (a *assembler) prepare(orig *Capability) Capability {
	in := a.in
	c := *orig
	if c.Manifest != nil {
		m := *c.Manifest
		// Appending a warning must not write into the scanned
		// manifest's array, which later snapshots share.
		m.Warnings = slices.Clip(m.Warnings)
		c.Manifest = &m
		if lt, ok := in.learned[c.Name]; ok && c.Kind == KindMCP {
			// The server's list replaces any declared one.
			m.Tools = lt
		}
	}
	if st, ok := in.states[c.Name]; ok {
		if len(st.Granted) > 0 && st.GrantedFor == c.CodeHash {
			c.Granted = sortedCopy(st.Granted)
		} else if len(st.Granted) > 0 && c.Manifest != nil {
			c.Manifest.Warnings = append(c.Manifest.Warnings, skillmd.Problem{File: c.Folder + "/SKILL.md", Field: "permissions", Warning: true,
				Message: fmt.Sprintf("its code changed since %s was granted, so the grant lapsed; review the new code and grant %s again",
					strings.Join(st.Granted, ", "), commalist.Prose(st.Granted))})
		}
		if st.Authored && c.Source == SourceWorkspace {
			c.Badge = BadgeAuthored
		}
	}
	switch {
	case c.State == StateFailed:
	case c.Source == SourceWorkspace && a.builtins[c.Folder]:
		c.fail(fmt.Sprintf("folder %q shadows the built-in capability of that name: rename the folder and its name", c.Folder), "")
	case c.Source == SourceWorkspace && a.builtins[c.Name]:
		c.fail(fmt.Sprintf("name %q shadows a built-in capability: choose another name", c.Name), "")
	}
	return c
}

// finish applies known load failures, missing runtimes, the user's
// disabling and pinning to a capability that keeps its name.
func (a *assembler) finish(c *Capability) {
	in := a.in
	if c.State == StateOK {
		if f, ok := in.failures[c.Name]; ok && f.hash == c.Hash {
			c.fail(f.msg, "")
		}
	}
	if c.State == StateOK && c.Kind == KindPlugin && !in.native[c.Name] && !c.HasPluginSource() {
		c.fail("SKILL.md declares tools but the folder has no plugin/*.go to serve them: add the plugin or remove the tools", "")
	}
	if c.State == StateOK && c.Kind == KindPlugin && !in.native[c.Name] && !in.hasLoader[KindPlugin] {
		c.fail("no plugin host is available in this build to run its tools", "")
	}
	if c.State == StateOK && c.Kind == KindMCP && !in.hasLoader[KindMCP] {
		c.fail("MCP servers are not supported by this build yet", "")
	}
	if c.State == StateOK {
		if st, ok := in.states[c.Name]; ok && st.Disabled && !c.Core {
			c.State = StateDisabled
		}
	}
	if c.Kind == KindMCP {
		c.NoNetwork = in.states[c.Name].NoNetwork
		c.Approved = in.states[c.Name].Launch
	}
	if c.State == StateOK {
		// A command nobody approved in the window or the CLI does not run.
		if note := approvalNote(c, in.states[c.Name].Launch); note != "" {
			c.State, c.Unapproved = StateDisabled, note
		}
	}
	if c.State == StateOK && a.pinned[c.Name] {
		c.Pinned = true
	}
}

// collectPatterns lists the danger patterns of usable capabilities, then
// their confirm patterns, in scan order.
func collectPatterns(caps []*Capability) []GatePattern {
	var out []GatePattern
	for _, c := range caps {
		if !c.Usable() || c.Manifest == nil {
			continue
		}
		for _, p := range c.Manifest.DangerPatterns {
			out = append(out, GatePattern{Capability: c.Name, Block: true, Pattern: p})
		}
	}
	for _, c := range caps {
		if !c.Usable() || c.Manifest == nil {
			continue
		}
		for _, p := range c.Manifest.ConfirmPatterns {
			out = append(out, GatePattern{Capability: c.Name, Pattern: p})
		}
	}
	return out
}

func (s *Snapshot) add(c *Capability) {
	s.caps = append(s.caps, c)
	s.byName[c.Name] = c
}

// resolveRequires fails capabilities whose dependencies are missing, disabled
// or failed, until nothing changes. It reports whether anything failed.
func (s *Snapshot) resolveRequires() bool {
	any := false
	for changed := true; changed; {
		changed = false
		for _, c := range s.caps {
			if c.State != StateOK || c.Manifest == nil {
				continue
			}
			var problems []string
			for _, r := range c.Manifest.Requires {
				dep, ok := s.byName[r]
				switch {
				case !ok:
					problems = append(problems, fmt.Sprintf("%s is not installed", r))
				case dep.State == StateDisabled:
					problems = append(problems, fmt.Sprintf("%s is disabled (enable it first)", r))
				case dep.State == StateFailed:
					problems = append(problems, fmt.Sprintf("%s failed to load", r))
				}
			}
			if len(problems) > 0 {
				c.fail("requires "+strings.Join(problems, "; "), "")
				changed, any = true, true
			}
		}
	}
	return any
}

// registerTools maps the tools of usable capabilities to owners in scan
// order. A capability whose tool is already taken fails whole, naming the
// other owner: never last-writer-wins. The unusable capabilities' tools
// (shadowTools, multiTools) are mapped on first use (see shadows): most
// snapshots never need them, and at 10,000 capabilities hashing every tool
// name was most of the registry's share of `caps list` after the scan.
func (s *Snapshot) registerTools() {
	usable := 0
	for _, c := range s.caps {
		if c.Manifest != nil && c.State == StateOK {
			usable += len(c.Manifest.Tools)
		}
	}
	s.tools = make(map[string]toolRef, usable)
	for _, c := range s.caps {
		if c.Manifest == nil || c.State != StateOK {
			continue
		}
		// c's own tools go in only after this loop, so what it sees is
		// the earlier capabilities'.
		var clashes []string
		for _, t := range c.Manifest.Tools {
			if o, held := s.tools[t.Name]; held {
				clashes = append(clashes, fmt.Sprintf("%s (already provided by %s)", t.Name, o.cap.Name))
			}
		}
		if len(clashes) > 0 {
			sort.Strings(clashes)
			c.fail("tool name collision: "+strings.Join(clashes, ", ")+"; rename the tools in "+c.Folder+"/SKILL.md", "")
			continue
		}
		for i := range c.Manifest.Tools {
			t := &c.Manifest.Tools[i]
			s.tools[t.Name] = toolRef{cap: c, tool: t}
		}
	}
}

// shadows returns shadowTools and multiTools, mapped on first use for a
// snapshot assemble made (next makes them with the snapshot).
func (s *Snapshot) shadows() (map[string]*Capability, map[string]bool) {
	s.shadowOnce.Do(func() {
		if !s.shadowsMade {
			s.shadowTools, s.multiTools = registerShadows(s.caps)
		}
	})
	return s.shadowTools, s.multiTools
}

// shadowOwners is shadowTools (see shadows).
func (s *Snapshot) shadowOwners() map[string]*Capability {
	sh, _ := s.shadows()
	return sh
}

// registerShadows maps the tools of unusable capabilities to the first
// of them in scan order that declares each, and finds the tool names more
// than one capability declares. States are final by then: a capability
// failed by a tool collision failed at its turn in registerTools, so this
// sees what that loop saw.
func registerShadows(caps []*Capability) (map[string]*Capability, map[string]bool) {
	all, unusable := 0, 0
	for _, c := range caps {
		if c.Manifest != nil {
			all += len(c.Manifest.Tools)
			if c.State != StateOK {
				unusable += len(c.Manifest.Tools)
			}
		}
	}
	first := make(map[string]*Capability, all)
	shadow := make(map[string]*Capability, unusable)
	multi := map[string]bool{}
	for _, c := range caps {
		if c.Manifest == nil {
			continue
		}
		failed := c.State != StateOK
		for _, t := range c.Manifest.Tools {
			if f, ok := first[t.Name]; !ok {
				first[t.Name] = c
			} else if f != c {
				multi[t.Name] = true
			}
			if failed {
				if _, ok := shadow[t.Name]; !ok {
					shadow[t.Name] = c
				}
			}
		}
	}
	return shadow, multi
}
