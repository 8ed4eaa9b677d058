package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// Targets for preparing a request from a 5,000-message history (issue 14).
const (
	requestTargetN    = 5000
	requestTargetTime = 20 * time.Millisecond
	requestTargetMB   = 20.0
	// requestWindow is the model's context window the history is fitted
	// into, and requestFixed the system prompt and tool schemas beside it.
	requestWindow = 128000
	requestFixed  = 3000
)

// requestEvents is a stored history of n messages (n ≥ 4): a greeting,
// then turns of a question, a tool call, a 2 KB tool result and an answer,
// the last turn stopping after its result, as a request in the middle of a
// turn sees it. Every message is one event.
func requestEvents(n int) []store.Event {
	ev := make([]store.Event, 0, n+2)
	add := func(e store.Event) { e.Seq = uint64(len(ev) + 1); ev = append(ev, e) }
	var rb strings.Builder
	for rb.Len() < 2000 {
		rb.WriteString("total 48\n-rw-r--r-- 1 user staff 2311 Nov 30 notes-2026-11-30.md: meeting with the design team\n")
	}
	result := rb.String()
	add(store.Event{Type: store.EventAssistantText, Text: "Hello! What shall we work on today?"})
	for i := 0; len(ev) < n; i++ {
		id := fmt.Sprintf("call_%d", i)
		add(store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("Question %d: could you look in my notes folder and tell me what the latest file says about the launch?", i)})
		add(store.Event{Type: store.EventToolCall, ToolCallID: id, ToolName: "fs_list", Arguments: json.RawMessage(`{"path":"~/notes","long":true}`)})
		add(store.Event{Type: store.EventToolResult, ToolCallID: id, ToolName: "fs_list", Text: result})
		add(store.Event{Type: store.EventAssistantText, Text: fmt.Sprintf("Answer %d: the latest note, from 30 November, says the launch moves a week later so the design team can finish the onboarding screens.", i)})
	}
	// End on a tool result: drop answers until the last event is one.
	for ev[len(ev)-1].Type != store.EventToolResult {
		ev = ev[:len(ev)-1]
	}
	return ev
}

// prepareCost is one measured preparation.
type prepareCost struct {
	wall time.Duration
	mb   float64
}

// measurePrepare runs setup then fn, reps times, and returns fn's least
// wall time (the work itself, with the least interference from whatever
// else runs on the machine) and median bytes allocated
// (runtime.MemStats.TotalAlloc, the same every time).
func measurePrepare(reps int, setup, fn func()) prepareCost {
	var walls []time.Duration
	var mbs []float64
	var before, after runtime.MemStats
	for range reps {
		setup()
		runtime.GC()
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		fn()
		walls = append(walls, time.Since(t0))
		runtime.ReadMemStats(&after)
		mbs = append(mbs, float64(after.TotalAlloc-before.TotalAlloc)/1e6)
	}
	slices.Sort(mbs)
	return prepareCost{wall: Min(walls), mb: mbs[len(mbs)/2]}
}

// linearCount is the baseline: converting the history and counting every
// message once, nothing more.
func linearCount(ev []store.Event) int {
	t := requestFixed
	for _, m := range store.ToMessages(ev) {
		t += cerebellum.EstimateTokens(m.Content)
		for _, c := range m.ToolCalls {
			t += cerebellum.EstimateTokens(c.Name) + cerebellum.EstimateTokens(string(c.Arguments))
		}
	}
	return t
}

// scaleRequest measures preparing the first request of a turn (what
// agent.RequestHistory does for turn.request: convert the stored events to
// messages, fit them into a 128k window) over growing histories, beside a
// plain linear count of the same history, and judges 5,000 messages,
// including a further request of the same turn.
func (r *runner) scaleRequest(ctx context.Context) []Row {
	const measure = "preparing a request"
	limit := agent.Limit(requestWindow)
	reps := 7
	if r.cfg.Short {
		reps = 3
	}
	curveSizes := r.scaleSizes()
	sizes := curveSizes
	if !slices.Contains(sizes, requestTargetN) {
		sizes = slices.Sorted(slices.Values(append(slices.Clone(sizes), requestTargetN)))
	}
	tc := curve{Measure: measure + ", time, n messages", Unit: "ms"}
	mc := curve{Measure: measure + ", allocated, n messages", Unit: "MB"}
	var target []Row
	var bases []string
	nothing := func() {}
	for _, n := range sizes {
		if ctx.Err() != nil {
			break
		}
		ev := requestEvents(n)
		var rep agent.FitReport
		cost := measurePrepare(reps, nothing, func() {
			var h agent.RequestHistory
			_, rep = h.Prepare(ev, limit, requestFixed, cerebellum.EstimateTokens)
		})
		if rep.Over || rep.Tokens > limit {
			return []Row{errorRow(sectionScale, measure, fmt.Errorf("%d messages did not fit the %d-token budget: %+v", n, limit, rep))}
		}
		base := measurePrepare(reps, nothing, func() { linearCount(ev) })
		if n == requestTargetN {
			target = r.requestAtTarget(ev, limit, cost, base, rep, reps)
		}
		if slices.Contains(curveSizes, n) {
			tc.Points = append(tc.Points, curvePoint{N: n, Value: ms(cost.wall)})
			mc.Points = append(mc.Points, curvePoint{N: n, Value: cost.mb})
			bases = append(bases, fmt.Sprintf("%s: %s, %.1f MB", FormatInt(n), FormatDuration(base.wall), base.mb))
		}
	}
	tc.Baseline = "linear count of the same history, see note"
	mc.Baseline = tc.Baseline
	tc.Note = fmt.Sprintf("agent.RequestHistory.Prepare on a fresh history (the first request of a turn): store.ToMessages of the events, then Fit into a %s-token window (budget %s tokens beside %s fixed) with cerebellum.EstimateTokens; a greeting, then turns of a question, a tool call, a 2 KB result and an answer, the last stopping after its result; best of %d. Baseline, store.ToMessages and one EstimateTokens of every message: %s",
		FormatInt(requestWindow), FormatInt(limit), FormatInt(requestFixed), reps, strings.Join(bases, "; "))
	mc.Note = "bytes allocated while preparing (runtime.MemStats.TotalAlloc), median of the repetitions"
	return append(append(curveRows(tc), curveRows(mc)...), target...)
}

// requestAtTarget judges the 5,000-message figures and measures a further
// request of the same turn: it must count only the messages added.
func (r *runner) requestAtTarget(ev []store.Event, limit int, first, base prepareCost, rep agent.FitReport, reps int) []Row {
	const measure = "preparing a request, 5,000 messages"
	rows := []Row{
		{Section: sectionScale, Measure: measure + ", time", Value: FormatDuration(first.wall), Number: ms(first.wall), Unit: "ms",
			Baseline: "linear count " + FormatDuration(base.wall), Target: "≤ " + FormatDuration(requestTargetTime), Pass: verdict(first.wall <= requestTargetTime),
			Note: fmt.Sprintf("the first request of a turn: %d old tool results trimmed, %d earlier turns dropped and summarised, %s tokens sent", rep.Trimmed, rep.Dropped, FormatInt(rep.Tokens))},
		{Section: sectionScale, Measure: measure + ", allocated", Value: fmt.Sprintf("%.1f MB", first.mb), Number: first.mb, Unit: "MB",
			Baseline: fmt.Sprintf("linear count %.1f MB", base.mb), Target: fmt.Sprintf("≤ %.0f MB", requestTargetMB), Pass: verdict(first.mb <= requestTargetMB)},
	}
	// A further request of the same turn, after the model called one more
	// tool: it should count just the call and its result.
	grown := append(slices.Clip(ev),
		store.Event{Seq: uint64(len(ev) + 1), Type: store.EventToolCall, ToolCallID: "more", ToolName: "fs_read", Arguments: json.RawMessage(`{"path":"~/notes/launch.md"}`)},
		store.Event{Seq: uint64(len(ev) + 2), Type: store.EventToolResult, ToolCallID: "more", ToolName: "fs_read", Text: "The launch moves to 14 December."})
	counted := 0
	counting := func(s string) int { counted++; return cerebellum.EstimateTokens(s) }
	var h *agent.RequestHistory
	firstCounted := 0
	further := measurePrepare(reps, func() {
		h = &agent.RequestHistory{}
		counted = 0
		h.Prepare(ev, limit, requestFixed, counting)
		firstCounted, counted = counted, 0
	}, func() { h.Prepare(grown, limit, requestFixed, counting) })
	rows = append(rows, Row{Section: sectionScale, Measure: measure + ", a further request of the same turn",
		Value: FormatDuration(further.wall), Number: ms(further.wall), Unit: "ms",
		Baseline: "first request " + FormatDuration(first.wall),
		Target:   "counts only what was added", Pass: verdict(counted <= 4),
		Note: fmt.Sprintf("after one more tool call and its result the estimator ran %d times (the 2 new messages have 4 texts), against %d times for the first request of the turn; %.2f MB allocated", counted, firstCounted, further.mb)})
	return rows
}
