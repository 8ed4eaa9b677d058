package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum"
)

const sectionPrompt = "prompt economy"

// requestSamples is how many random loaded sets a request's schema size is
// averaged over: tools per capability vary from 1 to 20, so one set alone
// would say more about the draw than about the design.
const requestSamples = 20

// requestLoaded is how many capabilities a conversation has loaded.
const requestLoaded = cerebellum.DefaultMaxLoaded

// openAITool is one entry of an OpenAI chat request's "tools" array, the
// wire form a request's tool schemas take.
type openAITool struct {
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// toolJSON returns the wire form of one tool, compact.
func toolJSON(t cerebellum.ToolDef) (string, error) {
	var params bytes.Buffer
	if err := json.Compact(&params, t.Parameters); err != nil {
		return "", fmt.Errorf("tool %s: parameters: %w", t.Name, err)
	}
	b, err := json.Marshal(openAITool{Type: "function", Function: openAIFunction{Name: t.Name, Description: t.Description, Parameters: params.Bytes()}})
	if err != nil {
		return "", fmt.Errorf("tool %s: %w", t.Name, err)
	}
	return string(b), nil
}

// toolsArray returns the "tools" array of a request carrying defs.
func toolsArray(defs []cerebellum.ToolDef) (string, error) {
	parts := make([]string, len(defs))
	for i, d := range defs {
		s, err := toolJSON(d)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return "[" + strings.Join(parts, ",") + "]", nil
}

// allTools returns the tool definitions of every usable capability, grouped
// per capability in scan order: what a request sending every tool carries.
func allTools(snap *cerebellum.Snapshot) [][]cerebellum.ToolDef {
	var out [][]cerebellum.ToolDef
	for _, c := range snap.Capabilities() {
		if !c.Usable() || len(c.Tools()) == 0 {
			continue
		}
		var defs []cerebellum.ToolDef
		for _, t := range c.Tools() {
			defs = append(defs, cerebellum.ToolDef{Capability: c.Name, Name: t.Name, Description: t.Description, Parameters: t.Parameters, Annotations: t.Annotations})
		}
		out = append(out, defs)
	}
	return out
}

// allToolsTokens counts the tokens of a tools array holding every tool.
// The array is cut into one piece per capability and the pieces are counted
// in parallel. Each cut falls just before the letters of a capability's
// first `"type"` key, where the tokenizer's pre-split (punctuation runs,
// then letter runs) already separates the text, so the pieces sum to the
// whole array's count.
func allToolsTokens(tc *counter, groups [][]cerebellum.ToolDef) (tokens, tools int, err error) {
	var b strings.Builder
	b.WriteString("[")
	cuts := []int{0}
	for i, g := range groups {
		if i > 0 {
			b.WriteString(",")
			cuts = append(cuts, b.Len()+len(`{"`))
		}
		for j, d := range g {
			s, err := toolJSON(d)
			if err != nil {
				return 0, 0, err
			}
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(s)
		}
		tools += len(g)
	}
	b.WriteString("]")
	whole := b.String()
	cuts = append(cuts, len(whole))
	pieces := make([]string, 0, len(cuts)-1)
	for i := 1; i < len(cuts); i++ {
		pieces = append(pieces, whole[cuts[i-1]:cuts[i]])
	}
	sum, err := tc.Sum(pieces)
	if err != nil {
		return 0, 0, err
	}
	return sum, tools, nil
}

// loadable lists the workspace capabilities a conversation could load:
// usable, with tools, not always loaded.
func loadable(snap *cerebellum.Snapshot) []string {
	var out []string
	for _, c := range snap.Capabilities() {
		if c.Usable() && c.Source == cerebellum.SourceWorkspace && len(c.Tools()) > 0 && !c.AlwaysLoaded() {
			out = append(out, c.Name)
		}
	}
	return out
}

// economy measures the index and request schemas on one workspace.
func economy(ctx context.Context, sp *space, tc, cl *counter, seed int64) []Row {
	label := fmt.Sprintf("%s capabilities", FormatInt(sp.n))
	reg := sp.reg
	snap := reg.Snapshot()
	sess := reg.NewSession("bench", nil)
	var rows []Row

	// The index as the app renders it (its own conservative estimate keeps
	// it in budget), counted with a real tokenizer; the baseline lists every
	// capability.
	idx := reg.Index(sess)
	n := tc.Count(idx)
	full := cerebellum.RenderIndex(snap, reg.LoadedNames(sess), nil, math.MaxInt32, cerebellum.EstimateTokens)
	fullTokens := tc.Count(full)
	rows = append(rows, Row{
		Section: sectionPrompt, Measure: "index, " + label,
		Value: FormatInt(n) + " tokens", Number: float64(n), Unit: "tokens",
		Baseline: "all listed: " + FormatInt(fullTokens),
		Target:   fmt.Sprintf("≤ %d", cerebellum.DefaultIndexBudget), Pass: verdict(n <= cerebellum.DefaultIndexBudget),
		Note: fmt.Sprintf("index at %s: %d lines, %s tokens in o200k_base, %s in cl100k_base; the full list would be %s tokens",
			label, strings.Count(idx, "\n")+1, FormatInt(n), FormatInt(cl.Count(idx)), FormatInt(fullTokens)),
	})

	// Tool schemas of a request: core + requestLoaded capabilities, averaged
	// over random loaded sets, against every tool.
	all, allN, err := allToolsTokens(tc, allTools(snap))
	if err != nil {
		return append(rows, errorRow(sectionPrompt, "request tool schemas, "+label, err))
	}
	cands := loadable(snap)
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(sp.n)))
	var sizes, toolCounts, kept []int
	for i := range requestSamples {
		if ctx.Err() != nil {
			return append(rows, errorRow(sectionPrompt, "request tool schemas, "+label, ctx.Err()))
		}
		// Load them the way a conversation does (tool_search/tool_activate),
		// so the per-conversation limits apply: at most 10, within the tool budget.
		picked := pickN(rng, cands, requestLoaded)
		s := reg.NewSession(fmt.Sprintf("sample-%d", i), nil)
		for _, name := range picked {
			if _, err := reg.Activate(s, name); err != nil {
				return append(rows, errorRow(sectionPrompt, "request tool schemas, "+label, err))
			}
		}
		kept = append(kept, len(s.Loaded()))
		defs := reg.Tools(s)
		arr, err := toolsArray(defs)
		if err != nil {
			return append(rows, errorRow(sectionPrompt, "request tool schemas, "+label, err))
		}
		sizes = append(sizes, tc.Count(arr))
		toolCounts = append(toolCounts, len(defs))
	}
	coreArr, err := toolsArray(reg.Tools(reg.NewSession("core-only", nil)))
	if err != nil {
		return append(rows, errorRow(sectionPrompt, "request tool schemas, "+label, err))
	}
	core := tc.Count(coreArr)
	mean, meanTools := meanInt(sizes), meanInt(toolCounts)
	share := 100 * mean / float64(all)
	row := Row{
		Section: sectionPrompt, Measure: "request tool schemas, " + label,
		Value:  fmt.Sprintf("%s tokens = %.2f%%", FormatInt(int(math.Round(mean))), share),
		Number: share, Unit: "% of all tools",
		Baseline: fmt.Sprintf("all %s tools: %s", FormatInt(allN), FormatInt(all)),
		Note: fmt.Sprintf("request at %s: core + %d capabilities activated in turn, mean of %d random sets; the conversation keeps %.1f of them on average (at most 10, within the default tool budget of %s estimated tokens = %d%% of a %s-token context window): %.0f tools, %s tokens (range %s–%s), of which the core tools alone are %s; every tool: %s tools, %s tokens",
			label, requestLoaded, requestSamples, meanInt(kept), FormatInt(workspace.Config{}.WithDefaults().EffectiveToolBudget()), workspace.ToolBudgetShare, FormatInt(workspace.DefaultContextWindow),
			meanTools, FormatInt(int(math.Round(mean))), FormatInt(slices.Min(sizes)), FormatInt(slices.Max(sizes)), FormatInt(core), FormatInt(allN), FormatInt(all)),
	}
	if sp.n == 1000 {
		row.Target, row.Pass = "≤ 1%", verdict(share <= 1)
	}
	return append(rows, row)
}

// pickN returns up to n distinct items of list drawn with rng, sorted.
func pickN(rng *rand.Rand, list []string, n int) []string {
	idx := rng.Perm(len(list))
	var out []string
	for _, i := range idx[:min(n, len(idx))] {
		out = append(out, list[i])
	}
	slices.Sort(out)
	return out
}

func meanInt(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0
	for _, x := range xs {
		s += x
	}
	return float64(s) / float64(len(xs))
}
