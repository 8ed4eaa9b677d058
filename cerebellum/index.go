package cerebellum

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
)

// DefaultIndexBudget is the capability index budget in tokens.
const DefaultIndexBudget = 800

// MinIndexBudget is the smallest budget honoured: the block's header and
// the collapse line alone take about 60 tokens.
const MinIndexBudget = 100

const (
	indexOpen   = "<capabilities>"
	indexHeader = "Installed capabilities ([loaded] = tools callable now; find others with tool_search, load one with tool_activate, read a guide with skill_read_source):"
	indexClose  = "</capabilities>"
	// stableHeader heads the index of StableIndex, which marks only what
	// is always loaded: what a conversation loads is told by the tool
	// result that loaded it, not by rewriting the prompt.
	stableHeader = "Installed capabilities ([loaded] = always callable; find others with tool_search, load one with tool_activate, whose result names the tools it made callable; read a guide with skill_read_source):"
)

// Index renders the capability index for sess's system prompt. The same
// registry state and session give byte-identical output.
func (r *Registry) Index(sess *Session) string {
	return RenderIndex(r.Snapshot(), r.LoadedNames(sess), recentOf(sess), r.tune().IndexBudget, r.opts.CountTokens)
}

// StableIndex renders the capability index for a conversation's system
// prompt so that it does not change within the conversation: only core and
// pinned capabilities are marked [loaded], and lines are admitted by
// priority (pinned, then by name) without regard to recent use. It changes
// only when the registry or the settings do, so the system prompt stays a
// warm prompt-cache prefix across loads and evictions.
func (r *Registry) StableIndex() string {
	snap := r.Snapshot()
	budget := r.tune().IndexBudget
	if text, ok := snap.stableIndex(budget); ok {
		return text
	}
	// Rendered once per snapshot and budget (every request of every turn
	// asks): it depends on nothing else.
	text := renderIndex(snap, r.LoadedNames(nil), nil, budget, r.opts.CountTokens, stableHeader)
	if r.Snapshot() == snap {
		snap.setStableIndex(budget, text)
	}
	return text
}

func recentOf(sess *Session) []string {
	if sess == nil {
		return nil
	}
	return sess.Recent()
}

// indexLine is one capability line and its sort keys.
type indexLine struct {
	name   string
	text   string
	tokens int
}

// RenderIndex writes the index block: loaded capabilities first, then the
// others, within budget tokens. Lines are admitted in priority order
// (loaded, pinned, recently used, then by name); whatever does not fit
// collapses into one line pointing at tool_search. Within each group lines
// are sorted by name so the text only changes when the state does.
func RenderIndex(snap *Snapshot, loaded, recent []string, budget int, count func(string) int) string {
	return renderIndex(snap, loaded, recent, budget, count, indexHeader)
}

func renderIndex(snap *Snapshot, loaded, recent []string, budget int, count func(string) int, header string) string {
	if count == nil {
		count = EstimateTokens
	}
	isLoaded := map[string]bool{}
	for _, n := range loaded {
		isLoaded[n] = true
	}
	var usable []*Capability
	for _, c := range snap.caps {
		if c.Usable() {
			usable = append(usable, c)
		}
	}
	if len(usable) == 0 {
		return ""
	}
	recentRank := map[string]int{}
	for i, n := range recent {
		if _, ok := recentRank[n]; !ok {
			recentRank[n] = i
		}
	}
	// Priority order for admission.
	prio := func(c *Capability) int {
		switch {
		case isLoaded[c.Name] && (c.Core || c.Pinned):
			return 0
		case isLoaded[c.Name]:
			return 1
		case c.Pinned:
			return 2
		}
		if _, ok := recentRank[c.Name]; ok {
			return 3
		}
		return 4
	}
	order := append([]*Capability(nil), usable...)
	sort.SliceStable(order, func(i, j int) bool {
		pi, pj := prio(order[i]), prio(order[j])
		if pi != pj {
			return pi < pj
		}
		if pi == 3 {
			return recentRank[order[i].Name] < recentRank[order[j].Name]
		}
		return order[i].Name < order[j].Name
	})

	fixed := count(indexOpen+"\n") + count(header+"\n") + count(indexClose)
	totalTools := 0
	for _, c := range usable {
		totalTools += len(c.Tools())
	}
	// Reserve room for the collapse line at its widest.
	reserve := count(collapseLine(len(usable), totalTools) + "\n")
	remaining := budget - fixed - reserve
	var shown []indexLine
	admitted := map[string]bool{}
	hiddenCaps, hiddenTools := 0, 0
	for _, c := range order {
		text := lineFor(c, isLoaded[c.Name])
		t := count(text + "\n")
		if t <= remaining {
			remaining -= t
			shown = append(shown, indexLine{name: c.Name, text: text, tokens: t})
			admitted[c.Name] = true
			continue
		}
		hiddenCaps++
		hiddenTools += len(c.Tools())
	}
	// Display: loaded lines first, then the rest, each sorted by name. A
	// guide has no tools to load, so it sorts with the rest.
	loadedLine := map[string]bool{}
	for _, c := range usable {
		loadedLine[c.Name] = isLoaded[c.Name] && c.Kind != KindGuide
	}
	sort.SliceStable(shown, func(i, j int) bool {
		li, lj := loadedLine[shown[i].name], loadedLine[shown[j].name]
		if li != lj {
			return li
		}
		return shown[i].name < shown[j].name
	})
	// Counting line by line can differ slightly from counting the block as
	// a whole; the whole block is what must fit, so give up lines (last
	// admitted first) until it does.
	out := renderBlock(header, shown, hiddenCaps, hiddenTools)
	for count(out) > budget && len(shown) > 0 {
		worst := len(shown) - 1
		for i, l := range shown {
			if prioRank(order, l.name) > prioRank(order, shown[worst].name) {
				worst = i
			}
		}
		c := snap.byName[shown[worst].name]
		hiddenCaps++
		hiddenTools += len(c.Tools())
		shown = append(shown[:worst:worst], shown[worst+1:]...)
		out = renderBlock(header, shown, hiddenCaps, hiddenTools)
	}
	return out
}

func prioRank(order []*Capability, name string) int {
	for i, c := range order {
		if c.Name == name {
			return i
		}
	}
	return len(order)
}

func renderBlock(header string, shown []indexLine, hiddenCaps, hiddenTools int) string {
	var b strings.Builder
	b.WriteString(indexOpen + "\n")
	b.WriteString(header + "\n")
	for _, l := range shown {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	if hiddenCaps > 0 {
		b.WriteString(collapseLine(hiddenCaps, hiddenTools))
		b.WriteByte('\n')
	}
	b.WriteString(indexClose)
	return b.String()
}

func collapseLine(caps, tools int) string {
	return fmt.Sprintf("- …plus %d more %s (%d %s) — use tool_search to find them", caps, plural(caps, "capability", "capabilities"), tools, plural(tools, "tool", "tools"))
}

// lineFor renders "- name (N tools) — description [loaded]". The name and
// description are the capability's words: PromptLine keeps them on their
// line and unable to write a marker or a section tag.
func lineFor(c *Capability, loaded bool) string {
	line := fmt.Sprintf("- %s (%s) — %s", PromptLine(c.Name, NameLimit), kindText(c), PromptLine(c.Description(), IndexDescriptionLimit))
	switch missing := c.MissingGrants(); {
	case len(missing) > 0:
		// Nothing of it can run: the model can only ask the user.
		line += " [needs " + commalist.Prose(missing) + ": only the user can grant it]"
	case loaded && c.Kind != KindGuide:
		line += " [loaded]"
	}
	return line
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// kindText says what a capability is in an index line or a search result:
// "guide", "N tools", or for an MCP server "MCP server, N tools" (its tools
// and their descriptions come from the server, and the model should know).
func kindText(c *Capability) string {
	n := len(c.Tools())
	tools := fmt.Sprintf("%d %s", n, plural(n, "tool", "tools"))
	switch {
	case c.Kind == KindGuide:
		return "guide"
	case c.Kind == KindMCP && n == 0:
		return "MCP server"
	case c.Kind == KindMCP:
		return "MCP server, " + tools
	}
	return tools
}
