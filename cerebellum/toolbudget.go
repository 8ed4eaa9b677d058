package cerebellum

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// The tool budget holds for every request. A conversation's loaded
// capabilities carry their tools whole while they fit; least recently used
// ones are evicted to make room. A capability whose tools alone exceed the
// budget (an MCP server with hundreds of long tools) is loaded partly: the
// tools most relevant to what loaded it (the query of tool_search or
// tool_activate, or the tool being called) up to the room the budget
// leaves; the session remembers that selection (Session.Selection), the
// others stay findable with tool_search, and calling one adds it, dropping
// the longest-carried ones if the room is short. A selection only ever
// appends tools to the end of the capability's run in the tools array, or
// drops some, so the prompt cache keeps the prefix before them.

// loadIntent says what a load is for, to pick the tools of a capability
// too big for the budget.
type loadIntent struct {
	// query ranks the capability's tools (tool_search's or tool_activate's).
	query string
	// tool is the tool being called: it comes first.
	tool string
	// fresh: this use loaded the capability (it carried none of its tools
	// before), so no order of its tools is in the tools array yet.
	fresh bool
}

// maxNamedTools bounds the tool names an activation result lists as not
// loaded; tool_search finds the rest.
const maxNamedTools = 100

// toolSearchIndex ranks one capability's tools against a query with the
// ranking tool_search uses for capabilities, each tool a document; made
// once per snapshot and capability.
func (s *Snapshot) toolSearchIndex(name string) *search.Index {
	s.tokenMu.Lock()
	defer s.tokenMu.Unlock()
	if ix, ok := s.toolIndexes[name]; ok {
		return ix
	}
	var docs []search.Doc
	if c, ok := s.byName[name]; ok {
		for _, t := range c.Tools() {
			shown := t.Name
			if t.Remote != "" {
				shown = t.Remote
			}
			// A description's first part says what the tool does; the
			// rest of a ten-thousand character one only slows indexing.
			docs = append(docs, search.Doc{ID: t.Name, Name: shown, Description: PromptLine(t.Description, ToolDescriptionLimit),
				ToolNames: []string{shown}})
		}
	}
	ix := search.Build(docs)
	if s.toolIndexes == nil {
		s.toolIndexes = map[string]*search.Index{}
	}
	s.toolIndexes[name] = ix
	return ix
}

// rankTools orders capability c's tools (as indices into c.Tools()) for a
// selection. For a call: the tool called, then the ones the conversation
// carried already (most wanted first), then those most like the tool
// called. For a query: those matching it best first, then the ones
// carried. Then the rest as the capability lists them.
func (s *Snapshot) rankTools(c *Capability, in loadIntent, carried []string) []int {
	tools := c.Tools()
	pos := make(map[string]int, len(tools))
	for i, t := range tools {
		pos[t.Name] = i
	}
	out := make([]int, 0, len(tools))
	seen := make([]bool, len(tools))
	add := func(name string) {
		if i, ok := pos[name]; ok && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	addCarried := func() {
		for _, n := range carried {
			add(n)
		}
	}
	query := in.query
	if in.tool != "" {
		// A call: the tool, then what the conversation carried (a call
		// swaps out the longest-carried tool when room is short), then
		// the tools like it.
		add(in.tool)
		addCarried()
		if i, ok := pos[in.tool]; ok && query == "" {
			t := tools[i]
			query = strings.ReplaceAll(t.Remote+" "+t.Name, "_", " ") + " " + PromptLine(t.Description, 200)
		}
	}
	if strings.TrimSpace(query) != "" {
		for _, h := range s.toolSearchIndex(c.Name).Search(query, len(tools), nil) {
			add(h.ID)
		}
	}
	addCarried()
	for _, t := range tools {
		add(t.Name)
	}
	return out
}

// carriedTokens is what capability name's tools add to sess's requests.
func carriedTokens(snap *Snapshot, sess *Session, name string) int {
	sel, partial := sess.Selection(name)
	return selectionTokens(snap, name, sel, partial)
}

// loadedTokens is what the capabilities loaded add to a request, given
// their partial selections.
func loadedTokens(snap *Snapshot, loaded []string, partial map[string][]string, except string) int {
	total := 0
	for _, n := range loaded {
		if n != except {
			sel, ok := partial[n]
			total += selectionTokens(snap, n, sel, ok)
		}
	}
	return total
}

// selectionTokens is what capability name adds carrying sel (partial) or
// all its tools.
func selectionTokens(snap *Snapshot, name string, sel []string, partial bool) int {
	if !partial {
		return snap.SchemaTokens(name)
	}
	mt := snap.modelTools(name)
	total := 0
	for _, n := range sel {
		if i := slices.IndexFunc(mt.defs, func(d ToolDef) bool { return d.Name == n }); i >= 0 {
			total += mt.tokens[i]
		}
	}
	return total
}

// oversized reports whether capability name's tools alone exceed budget.
func oversized(snap *Snapshot, name string, budget int) bool {
	return budget > 0 && snap.SchemaTokens(name) > budget
}

// fits reports whether a tool of capability c (the one called, or else the
// best for the intent) fits the tool budget on its own: a capability none
// of whose tools fits is not loaded, and a call of such a tool runs
// without loading it.
func (r *Registry) fits(snap *Snapshot, c *Capability, in loadIntent) bool {
	budget := r.tune().ToolBudget
	if !oversized(snap, c.Name, budget) {
		return true
	}
	mt := snap.modelTools(c.Name)
	if in.tool != "" {
		i := slices.IndexFunc(mt.defs, func(d ToolDef) bool { return d.Name == in.tool })
		return i >= 0 && mt.tokens[i] <= budget
	}
	return slices.Min(mt.tokens) <= budget
}

// enforceToolBudget keeps sess's loaded tools within the tool budget. The
// capability just used (used, when it is loaded and not always loaded)
// comes first: when its tools alone exceed the budget it carries the
// tools most relevant to in that fit in the room the others leave, the
// others being evicted (least recently used first) when not even the first
// of those fits. Then, as always, least recently used capabilities are
// evicted while the set is over budget, and a capability still over it on
// its own (the budget shrank) keeps the tools it selected most recently.
func (r *Registry) enforceToolBudget(sess *Session, used string, in loadIntent) {
	budget := r.tune().ToolBudget
	if budget <= 0 || sess == nil {
		return
	}
	snap := r.Snapshot()
	if used != "" && sess.IsLoaded(used) {
		if c, ok := snap.byName[used]; ok && !c.AlwaysLoaded() {
			if oversized(snap, used, budget) {
				r.selectTools(snap, sess, c, in, budget)
			} else {
				sess.setSelection(used, nil, nil)
			}
		}
	}
	ev := sess.evictOldest(func(loaded []string, partial map[string][]string) bool {
		return loadedTokens(snap, loaded, partial, "") > budget
	})
	if len(ev) > 0 {
		r.log.Debug("evicted capabilities over the tool budget", "conversation", sess.ID(), "capabilities", ev)
	}
	for _, n := range sess.Loaded() {
		if carriedTokens(snap, sess, n) > budget {
			if c, ok := snap.byName[n]; ok {
				r.fill(snap, sess, c, snap.rankTools(c, loadIntent{}, sess.wantedOrder(n)), budget, false)
			}
		}
	}
}

// selectTools picks the tools of c, loaded in sess and too big for the
// budget, for intent in: the best ranked that fit the room the other
// loaded capabilities leave, after evicting those (least recently used
// first) while not even the best fits.
func (r *Registry) selectTools(snap *Snapshot, sess *Session, c *Capability, in loadIntent, budget int) {
	rank := snap.rankTools(c, in, sess.wantedOrder(c.Name))
	mt := snap.modelTools(c.Name)
	first := -1
	for _, i := range rank {
		if mt.tokens[i] <= budget {
			first = i
			break
		}
	}
	if first >= 0 {
		// Evict others while the best tool does not fit; c itself is the
		// most recently used, so it is never the one evicted.
		sess.evictOldest(func(loaded []string, partial map[string][]string) bool {
			return mt.tokens[first] > budget-loadedTokens(snap, loaded, partial, c.Name)
		})
	}
	sess.mu.Lock()
	room := budget - loadedTokens(snap, sess.loaded, sess.partial, c.Name)
	sess.mu.Unlock()
	r.fill(snap, sess, c, rank, room, in.fresh)
}

// fill sets c's selection in sess to the tools of rank that fit room, in
// rank order; tools it carried already keep their places, new ones follow.
// fresh says c carried no tools before (it was just loaded).
func (r *Registry) fill(snap *Snapshot, sess *Session, c *Capability, rank []int, room int, fresh bool) {
	mt := snap.modelTools(c.Name)
	chosen := map[string]bool{}
	var added []string
	for _, i := range rank {
		if mt.tokens[i] <= room {
			room -= mt.tokens[i]
			chosen[mt.defs[i].Name] = true
			added = append(added, mt.defs[i].Name)
		}
	}
	carried, partial := sess.Selection(c.Name)
	if !partial && !fresh {
		// Loaded whole before: its tools were in the array in their order.
		for _, d := range mt.defs {
			carried = append(carried, d.Name)
		}
	}
	var sel []string
	for _, n := range carried {
		if chosen[n] {
			sel = append(sel, n)
			delete(chosen, n)
		}
	}
	for _, n := range added {
		if chosen[n] {
			sel = append(sel, n)
		}
	}
	if sel == nil {
		sel = []string{}
	}
	if sess.setSelection(c.Name, sel, added) {
		r.log.Debug("capability loaded partly: its tools exceed the tool budget", "conversation", sess.ID(),
			"capability", c.Name, "tools", len(sel), "of", len(mt.defs))
	}
}

// partialNote tells the model, in the result that loaded a capability
// partly, which of its tools are callable and which are not (by name, up
// to maxNamedTools), and how to reach the others. "" when c is loaded
// whole or not at all.
func (r *Registry) partialNote(sess *Session, c *Capability, query string) string {
	if sess == nil {
		return ""
	}
	sel, partial := sess.Selection(c.Name)
	if !partial || !sess.IsLoaded(c.Name) {
		return ""
	}
	tools := c.Tools()
	carried := map[string]bool{}
	for _, n := range sel {
		carried[n] = true
	}
	var rest []string
	for _, t := range tools {
		if !carried[t.Name] {
			rest = append(rest, t.Name)
		}
	}
	var b strings.Builder
	why := ""
	if query != "" {
		why = fmt.Sprintf(", the most relevant to %q", PromptLine(query, 120))
	}
	fmt.Fprintf(&b, "Loaded %s partly: its %d tools exceed the tool budget, so %d are callable now%s: %s.",
		c.Name, len(tools), len(sel), why, strings.Join(sel, ", "))
	if len(rest) > 0 {
		shown := rest[:min(len(rest), maxNamedTools)]
		fmt.Fprintf(&b, "\nNot loaded (%d): %s", len(rest), strings.Join(shown, ", "))
		if len(rest) > len(shown) {
			fmt.Fprintf(&b, " …and %d more", len(rest)-len(shown))
		}
		b.WriteString(".\nCalling one of these by name loads it; tool_search with what you need finds and loads the right ones.")
	}
	return b.String()
}

// LoadedToolTokens is what sess's loaded capabilities (not core or pinned)
// add to a request in tool schemas, as the tool budget counts them.
func (r *Registry) LoadedToolTokens(sess *Session) int {
	if sess == nil {
		return 0
	}
	snap := r.Snapshot()
	sess.mu.Lock()
	defer sess.mu.Unlock()
	total := 0
	for _, n := range sess.loaded {
		if c, ok := snap.byName[n]; ok && !c.AlwaysLoaded() {
			sel, partial := sess.partial[n]
			total += selectionTokens(snap, n, sel, partial)
		}
	}
	return total
}

// selectListed finishes loading an MCP capability whose server listed its
// tools only when the load started it: loaded with none, no request
// carried any of them, so when they exceed the budget the ones query wants
// are picked now, as for any other load.
func (r *Registry) selectListed(sess *Session, before *Capability, query string) {
	if sess == nil || before == nil || len(before.Tools()) > 0 || !sess.IsLoaded(before.Name) {
		return
	}
	r.enforceToolBudget(sess, before.Name, loadIntent{query: query, fresh: true})
}
