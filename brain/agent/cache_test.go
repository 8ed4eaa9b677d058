package agent_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// loadables are the capabilities the cache tests load, one tool each.
var loadables = []string{"alpha", "bravo", "charlie", "delta", "echo"}

func loadSkill(name string) string {
	return fmt.Sprintf(`---
name: %s
description: The %s capability.
tools:
  - name: %s_run
    description: Runs %s.
    parameters: {type: object, properties: {x: {type: string}}, additionalProperties: false}
    annotations: {readOnly: true}
---
# %s
`, name, name, name, name, name)
}

// cacheEnv is an env whose registry holds the loadables and keeps three
// loaded at most, so the fourth and fifth loads evict.
func cacheEnv(t *testing.T, prov *providertest.Provider) *env {
	e := newEnv(t, prov)
	fsys := fstest.MapFS{
		"tool-discovery/SKILL.md": {Data: builtinFile(t, "tool-discovery/SKILL.md")},
		"testing-tools/SKILL.md":  {Data: []byte(toolsSkill)},
		"codemode/SKILL.md":       {Data: builtinFile(t, "codemode/SKILL.md")},
	}
	native := map[string]cerebellum.Runtime{"testing-tools": e.rt, agent.CodeModeCapability: agent.NewCodeMode(nil)}
	for _, n := range loadables {
		fsys[n+"/SKILL.md"] = &fstest.MapFile{Data: []byte(loadSkill(n))}
		native[n] = e.rt
	}
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fsys, Native: native, MaxLoaded: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	e.reg = reg
	return e
}

// cacheScript is a conversation of one turn per loadable: load it, call
// its tool, answer.
func cacheScript(t *testing.T) *providertest.Provider {
	var turns []turn
	for _, n := range loadables {
		turns = append(turns,
			calls(tc("", "tool_activate", fmt.Sprintf(`{"capability":%q}`, n))),
			calls(tc("", n+"_run", `{"x":"y"}`)),
			text("Done with "+n+"."))
	}
	return newProvider(t, turns...)
}

func runCacheScript(t *testing.T, layout agent.Layout) []provider.Request {
	prov := cacheScript(t)
	e := cacheEnv(t, prov)
	a := e.agent(func(o *agent.Options) { o.Layout = layout })
	id := e.conv()
	for _, n := range loadables {
		got, err := a.Turn(t.Context(), id, "Use "+n+".", nil)
		if err != nil {
			t.Fatal(err)
		}
		id = got
	}
	if loaded, _ := e.db.Loaded(id); len(loaded) != 3 {
		t.Fatalf("loaded set %q: the script should have evicted twice", loaded)
	}
	return prov.Requests()
}

// The system prompt is byte-identical in every request of a conversation
// that loads five capabilities and evicts two, and the tools array only
// grows at its end or loses an evicted capability's tools: the tools that
// stay keep their order.
func TestStableLayoutKeepsThePrefix(t *testing.T) {
	reqs := runCacheScript(t, agent.LayoutStable)
	if len(reqs) != 3*len(loadables) {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		if r.System != reqs[0].System {
			t.Fatalf("request %d changed the system prompt:\n%s\nwas\n%s", i+1, r.System, reqs[0].System)
		}
		if !slices.Equal(toolNames(r.Deferrable), toolNames(reqs[0].Deferrable)) {
			t.Errorf("request %d: deferrable tools moved: %q", i+1, toolNames(r.Deferrable))
		}
		// Core tools, run_go included (its description lists functions),
		// are byte-identical: they are the front of the prefix.
		for j, tl := range r.Tools {
			if !tl.Loadable && (j >= len(reqs[0].Tools) || tl.Description != reqs[0].Tools[j].Description || tl.Name != reqs[0].Tools[j].Name) {
				t.Errorf("request %d: core tool %d (%s) differs from the first request's", i+1, j, tl.Name)
			}
		}
		if i == 0 {
			continue
		}
		prev, cur := toolNames(reqs[i-1].Tools), toolNames(r.Tools)
		var kept []string
		for _, n := range prev {
			if slices.Contains(cur, n) {
				kept = append(kept, n)
			}
		}
		if !slices.Equal(cur[:len(kept)], kept) {
			t.Errorf("request %d: tools %q do not keep %q in order at the front", i+1, cur, kept)
		}
	}
	last := toolNames(reqs[len(reqs)-1].Tools)
	if want := []string{"charlie_run", "delta_run", "echo_run"}; !slices.Equal(last[len(last)-3:], want) {
		t.Errorf("last tools %q, want the loaded ones in load order %q", last, want)
	}
	// Each load's result names the tools it made callable.
	refs := 0
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.ToolName == "tool_activate" {
			if len(m.ToolRefs) != 1 {
				t.Errorf("tool_activate result %q references %q", m.Content, m.ToolRefs)
			}
			// run_go's description stays fixed, so the load's result gives
			// the loaded tool's function for programs.
			if fn := m.ToolRefs[0] + "("; len(m.ToolRefs) == 1 && !strings.Contains(m.Content, "programs these are now functions:\n"+fn) {
				t.Errorf("tool_activate result %q does not give run_go's function %s…", m.Content, fn)
			}
			refs++
		}
	}
	if refs != len(loadables) {
		t.Errorf("%d tool_activate results with references, want %d", refs, len(loadables))
	}
}

// The layout before issue 16 rewrote the system prompt on every load: the
// test above would catch a return to it.
func TestLegacyLayoutMovesThePrompt(t *testing.T) {
	reqs := runCacheScript(t, agent.LayoutLegacy)
	prompts := map[string]bool{}
	for _, r := range reqs {
		prompts[r.System] = true
		if len(r.Deferrable) > 0 {
			t.Fatal("the legacy layout offered deferrable tools")
		}
	}
	if len(prompts) < len(loadables) {
		t.Errorf("%d distinct system prompts, want one per load at least", len(prompts))
	}
}

// Over the wire to a Claude model with deferred tools, the result that
// loaded a capability carries a tool_reference to its tool, the loadable
// tools are declared deferred, and the tools and system prompt the server
// sees are the same in every request.
func TestDeferredLoadOverTheWire(t *testing.T) {
	m := providertest.NewModel(t, providertest.Anthropic)
	m.Reply(providertest.ToolCall("tool_activate", `{"capability":"alpha"}`))
	m.Reply(providertest.ToolCall("alpha_run", `{"x":"y"}`))
	m.Reply(providertest.Text("Done."))
	p, err := anthropic.New(anthropic.Config{BaseURL: m.BaseURL(), Model: "claude-sonnet-4-5"})
	if err != nil {
		t.Fatal(err)
	}
	e := cacheEnv(t, nil)
	a := e.agent(func(o *agent.Options) { o.Provider = p; o.Model = "claude-sonnet-4-5" })
	if _, err := a.Turn(t.Context(), e.conv(), "Use alpha.", nil); err != nil {
		t.Fatal(err)
	}
	reqs := m.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		if r.System != reqs[0].System || !slices.Equal(r.ToolNames(), reqs[0].ToolNames()) {
			t.Errorf("request %d: the system prompt or the tools changed", i+1)
		}
		for _, tl := range r.Tools {
			if strings.HasSuffix(tl.Name, "_run") && !tl.Deferred {
				t.Errorf("request %d: %s is not deferred", i+1, tl.Name)
			}
		}
	}
	if refs := reqs[1].LastMessage().ToolRefs; !slices.Equal(refs, []string{"alpha_run"}) {
		t.Errorf("tool_activate result references %q, want alpha_run", refs)
	}
	if refs := reqs[2].Messages[2].ToolRefs; !slices.Equal(refs, []string{"alpha_run"}) {
		t.Errorf("the reference is not sent again in the next request: %q", refs)
	}
}
