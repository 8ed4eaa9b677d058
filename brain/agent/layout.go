package agent

import (
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/codemode"
)

// Layout is how a turn lays its requests out for the provider's prompt
// cache, which serves the longest unchanged prefix of a request (tools,
// then the system prompt, then the messages).
type Layout int

const (
	// LayoutStable keeps the prefix still within a conversation: the system
	// prompt carries the stable capability index (Registry.StableIndex),
	// so loads and evictions leave it byte-identical; the tools array is
	// core and pinned first, then loaded capabilities in the order they
	// were loaded; and every loadable tool is offered as Deferrable, with
	// the result that loaded a capability naming its tools (ToolRefs), for
	// providers that support deferred tools.
	LayoutStable Layout = iota
	// LayoutLegacy builds requests as Wrasse did before issue 16: the index
	// marks what the conversation loaded and favours what it used recently,
	// loaded tools are sorted by capability name, nothing is deferrable.
	// It exists so wrasse-bench can measure the old layout beside the new
	// one in the same run; nothing else should use it.
	LayoutLegacy
)

// index is the capability index for the system prompt.
func (t *turn) index() string {
	reg := t.a.opts.Registry
	if t.a.opts.Layout == LayoutLegacy {
		return reg.Index(t.sess)
	}
	return reg.StableIndex()
}

// layoutTools finishes t.tools and sets t.deferrable for the layout.
func (t *turn) layoutTools(snap *cerebellum.Snapshot) {
	if t.a.opts.Layout == LayoutLegacy {
		// The loaded capabilities' tools sorted by capability name, as
		// LoadedNames used to order them; core and pinned stay first.
		capOf := map[string]string{}
		for _, d := range t.a.opts.Registry.Tools(t.sess) {
			capOf[d.Name] = d.Capability
		}
		first := slices.IndexFunc(t.tools, func(tl provider.Tool) bool { return tl.Loadable })
		if first >= 0 {
			slices.SortStableFunc(t.tools[first:], func(x, y provider.Tool) int { return strings.Compare(capOf[x.Name], capOf[y.Name]) })
		}
		t.deferrable = nil
		return
	}
	defs := t.a.opts.Registry.DeferrableTools()
	t.deferrable = make([]provider.Tool, 0, len(defs))
	for _, d := range defs {
		t.deferrable = append(t.deferrable, provider.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters, Loadable: true})
	}
}

func alwaysLoaded(snap *cerebellum.Snapshot, capability string) bool {
	c, ok := snap.Get(capability)
	return ok && c.AlwaysLoaded()
}

// newToolRefs names the tools a call made callable, in load order: those
// of the capabilities loaded since before (a LoadOrder taken before the
// call), and those a capability loaded partly (its tools exceed the tool
// budget) added to its selection, which the request the call came from did
// not carry and no earlier result named. The call's result makes them
// callable, which a provider with deferred tools says by reference.
func (t *turn) newToolRefs(before []string) []string {
	if t.a.opts.Layout == LayoutLegacy {
		return nil
	}
	carried := map[string][]string{}
	for _, d := range t.a.opts.Registry.Tools(t.sess) {
		carried[d.Capability] = append(carried[d.Capability], d.Name)
	}
	var inRequest, named map[string]bool
	var refs []string
	for _, name := range t.sess.LoadOrder() {
		if !slices.Contains(before, name) {
			refs = append(refs, carried[name]...)
			continue
		}
		for _, tool := range carried[name] {
			if inRequest == nil {
				inRequest, named = t.requestTools(), t.namedTools()
			}
			if !inRequest[tool] && !named[tool] {
				refs = append(refs, tool)
			}
		}
	}
	return refs
}

// requestTools are the tools the latest request carried.
func (t *turn) requestTools() map[string]bool {
	out := make(map[string]bool, len(t.tools))
	for _, tl := range t.tools {
		out[tl.Name] = true
	}
	return out
}

// namedTools are the tools earlier results made callable by reference.
func (t *turn) namedTools() map[string]bool {
	out := map[string]bool{}
	for _, n := range t.tail.refs {
		out[n] = true
	}
	for _, e := range t.events {
		for _, n := range e.ToolRefs {
			out[n] = true
		}
	}
	return out
}

// codeModeLoadNote tells the model, in the result of the call that loaded
// them, the run_go functions of the tools that call made callable. In the
// stable layout run_go's description lists core and pinned tools only
// (see codeModeDefs), so this is where a program's author learns the
// signatures of loaded tools, without rewriting the top of the request.
func (t *turn) codeModeLoadNote(tool string, refs []string) string {
	// A program's own inner calls answer the program, not the model, and a
	// program that loaded a tool already knew its function.
	if len(refs) == 0 || t.parent != "" || tool == CodeModeTool || t.a.opts.Layout == LayoutLegacy ||
		!slices.ContainsFunc(t.tools, func(tl provider.Tool) bool { return tl.Name == CodeModeTool }) {
		return ""
	}
	var tools []codemode.Tool
	for _, d := range t.a.opts.Registry.Tools(t.sess) {
		if slices.Contains(refs, d.Name) {
			tools = append(tools, codemode.Tool{Name: d.Name, Parameters: d.Parameters})
		}
	}
	if len(tools) == 0 {
		return ""
	}
	// Signatures ends with the helpers' line, which run_go's description
	// already gives.
	sig := strings.TrimSpace(codemode.Signatures(tools))
	if i := strings.LastIndexByte(sig, '\n'); i >= 0 {
		sig = sig[:i]
	}
	return "\n\nIn " + CodeModeTool + " programs these are now functions:\n" + sig
}
