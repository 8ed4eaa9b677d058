package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/brain/agent"
	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

const sectionCache = "prompt cache"

// Issue 16's conversation and target.
const (
	cacheTurns = 20
	// cacheMaxLoaded makes the fourth and fifth loads evict.
	cacheMaxLoaded = 3
	// cacheTarget is the least share of input tokens the cache must serve.
	cacheTarget = 0.85
)

// cacheLoads are the capabilities the conversation loads, by turn (1-based).
var cacheLoads = map[int]string{2: "calc", 5: "web", 9: "archive", 13: "data", 17: "skills"}

// cacheRun is one way of running the conversation.
type cacheRun struct {
	label  string
	format providertest.Format
	layout agent.Layout
	// model is the model name sent: it decides Anthropic's deferred tools.
	model string
	// legacy builds Anthropic requests with the system breakpoint only.
	legacy bool
}

// cacheSection runs a scripted 20-turn conversation with 5 capability
// loads and 2 evictions against fake servers that cache prefixes as the
// real ones do (providertest.PromptCache), once with today's request
// layout and once with the layout before issue 16, and reports the share
// of input tokens the cache served, as the provider reported it in each
// reply's usage and the store summed it.
func (r *runner) cacheSection(ctx context.Context) []Row {
	type pair struct {
		measure   string
		now, then cacheRun
		note      string
	}
	pairs := []pair{
		{measure: "input tokens served by the prompt cache, Anthropic (deferred tools)",
			now:  cacheRun{label: "anthropic-now", format: providertest.Anthropic, layout: agent.LayoutStable, model: "claude-sonnet-4-5"},
			then: cacheRun{label: "anthropic-then", format: providertest.Anthropic, layout: agent.LayoutLegacy, model: "claude-sonnet-4-5", legacy: true},
			note: "claude-sonnet-4-5: loadable tools declared with defer_loading, loads answered with tool_reference blocks; breakpoints on the last tool, the system prompt and the newest message"},
		{measure: "input tokens served by the prompt cache, Anthropic (plain tools)",
			now:  cacheRun{label: "anthropic-plain-now", format: providertest.Anthropic, layout: agent.LayoutStable, model: "claude-3-5-sonnet-20241022"},
			then: cacheRun{label: "anthropic-plain-then", format: providertest.Anthropic, layout: agent.LayoutLegacy, model: "claude-3-5-sonnet-20241022", legacy: true},
			note: "a model without deferred tools: loaded tools appended to the tools array, so a load re-reads the system prompt and history once"},
		{measure: "input tokens served by the prompt cache, OpenAI-compatible",
			now:  cacheRun{label: "openai-now", format: providertest.OpenAI, layout: agent.LayoutStable, model: "bench"},
			then: cacheRun{label: "openai-then", format: providertest.OpenAI, layout: agent.LayoutLegacy, model: "bench"},
			note: "prefix = tools then messages as servers render them, served from 1,024 tokens in steps of 128; a load appends to the tools array and re-reads what follows"},
	}
	var rows []Row
	for _, p := range pairs {
		now, err := r.cacheConversation(ctx, p.now)
		if err != nil {
			rows = append(rows, errorRow(sectionCache, p.measure, err))
			continue
		}
		then, err := r.cacheConversation(ctx, p.then)
		if err != nil {
			rows = append(rows, errorRow(sectionCache, p.measure, err))
			continue
		}
		row := Row{Section: sectionCache, Measure: p.measure,
			Value:  fmt.Sprintf("%s%% of %s", formatFloat(100*now.share()), FormatInt(now.InputTokens)),
			Number: 100 * now.share(), Unit: "%",
			Baseline: fmt.Sprintf("before issue 16: %s%% of %s", formatFloat(100*then.share()), FormatInt(then.InputTokens)),
			Target:   fmt.Sprintf("≥ %s%%", formatFloat(100*cacheTarget)),
			Pass:     verdict(now.share() >= cacheTarget),
			Note: fmt.Sprintf("%d turns, %d requests, 5 loads, 2 evictions; %s. Before issue 16 = the same run with agent.LayoutLegacy "+
				"(the index marks loaded capabilities and favours recent ones, loaded tools sorted by name, run_go's description listing every loaded tool)%s. "+
				"Shares are what the fake server's usage reported, summed by store.UsageTotal; tokens are estimated at 4 bytes each",
				cacheTurns, now.requests, p.note, map[bool]string{true: " and Anthropic's breakpoint on the system prompt only, no deferred tools", false: ""}[p.then.legacy]),
		}
		rows = append(rows, row)
	}
	return rows
}

// cacheTotals is one conversation's summed usage.
type cacheTotals struct {
	provider.Usage
	requests int
}

func (c cacheTotals) share() float64 {
	if c.InputTokens == 0 {
		return 0
	}
	return float64(c.CachedTokens) / float64(c.InputTokens)
}

// cacheFS is the built-in capabilities' SKILL.md files alone: their real
// descriptions and schemas make the prompt, and a canned runtime answers
// their calls (what a tool returns does not change how a prefix caches).
func cacheFS() (fstest.MapFS, []string, error) {
	out := fstest.MapFS{}
	var names []string
	err := fs.WalkDir(builtin.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Base(p) != "SKILL.md" || strings.Count(p, "/") != 1 {
			return nil
		}
		data, err := fs.ReadFile(builtin.FS(), p)
		if err != nil {
			return err
		}
		out[p] = &fstest.MapFile{Data: data}
		names = append(names, path.Dir(p))
		return nil
	})
	return out, names, err
}

// cannedRuntime answers every call with a result of realistic size.
type cannedRuntime struct{}

func (cannedRuntime) Close() error { return nil }
func (cannedRuntime) Call(_ context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	return cerebellum.Result{Content: fmt.Sprintf("%s(%s) returned:\n%s", tool, args, strings.Repeat("a line of the tool's output, ", 40))}, nil
}

// approveAll approves every call that needs confirmation.
type approveAll struct{}

func (approveAll) Approve(context.Context, gate.Request) (gate.Approval, error) {
	return gate.ApproveOnce, nil
}

// cacheConversation runs the scripted conversation one way and sums its
// usage.
func (r *runner) cacheConversation(ctx context.Context, run cacheRun) (cacheTotals, error) {
	fsys, names, err := cacheFS()
	if err != nil {
		return cacheTotals{}, err
	}
	native := map[string]cerebellum.Runtime{}
	for _, n := range names {
		native[n] = cannedRuntime{}
	}
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fsys, Native: native, MaxLoaded: cacheMaxLoaded,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return cacheTotals{}, err
	}
	defer reg.Close()
	snap := reg.Snapshot()
	firstTool := func(name string) (string, error) {
		c, ok := snap.Get(name)
		if !ok || len(c.Tools()) == 0 || !c.Usable() {
			return "", fmt.Errorf("capability %s has no usable tools for the script", name)
		}
		return c.Tools()[0].Name, nil
	}
	coreTool, err := firstTool("filesystem")
	if err != nil {
		return cacheTotals{}, err
	}
	db, err := store.Open(filepath.Join(r.tmp, "cache-"+run.label+".db"), store.Options{NoSync: true})
	if err != nil {
		return cacheTotals{}, err
	}
	defer db.Close()
	m, err := providertest.StartModel(run.format, providertest.WithPromptCache())
	if err != nil {
		return cacheTotals{}, err
	}
	defer m.Close()
	var prov provider.Provider
	if run.format == providertest.Anthropic {
		prov, err = anthropic.New(anthropic.Config{BaseURL: m.BaseURL(), Model: run.model, SystemBreakpointOnly: run.legacy,
			DisableDeferredTools: run.legacy, Logger: slog.New(slog.DiscardHandler)})
	} else {
		prov, err = openai.New(openai.Config{BaseURL: m.BaseURL(), Model: run.model, Logger: slog.New(slog.DiscardHandler)})
	}
	if err != nil {
		return cacheTotals{}, err
	}
	ag, err := agent.New(agent.Options{Registry: reg, Store: db, Provider: prov, Model: run.model, Approver: approveAll{},
		Layout: run.layout, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return cacheTotals{}, err
	}
	answer := strings.Repeat("Here is what I found, with the details you asked for. ", 8)
	c, err := db.CreateConversation(run.model) // an agent runs turns in a conversation that exists (App.Turn creates it)
	if err != nil {
		return cacheTotals{}, err
	}
	id := c.ID
	for turn := 1; turn <= cacheTurns; turn++ {
		// Every turn calls a tool and answers; a load turn first loads a
		// capability and then calls its tool.
		if name, ok := cacheLoads[turn]; ok {
			tool, err := firstTool(name)
			if err != nil {
				return cacheTotals{}, err
			}
			m.Reply(providertest.ToolCall("tool_activate", fmt.Sprintf(`{"capability":%q}`, name)))
			m.Reply(providertest.ToolCall(tool, `{}`))
		} else {
			m.Reply(providertest.ToolCall(coreTool, fmt.Sprintf(`{"path":"notes/day-%d.md"}`, turn)))
		}
		m.Reply(providertest.Text(fmt.Sprintf("Turn %d. %s", turn, answer)))
		msg := fmt.Sprintf("Request %d: please look into the next item on my list and tell me what you find. %s", turn,
			strings.Repeat("Some context for the request. ", 4))
		if id, err = ag.Turn(ctx, id, msg, nil); err != nil {
			return cacheTotals{}, fmt.Errorf("%s, turn %d: %w", run.label, turn, err)
		}
	}
	if err := m.Err(); err != nil {
		return cacheTotals{}, err
	}
	if loaded, err := db.Loaded(id); err != nil || len(loaded) != cacheMaxLoaded {
		return cacheTotals{}, fmt.Errorf("%s: loaded set %q (%v): the script should have evicted twice", run.label, loaded, err)
	}
	events, err := db.Events(id)
	if err != nil {
		return cacheTotals{}, err
	}
	return cacheTotals{Usage: store.UsageTotal(events), requests: len(m.Requests())}, nil
}
