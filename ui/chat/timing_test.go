package chat

import (
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

// QA bug 7: a card times the call's own run, apart from what came before
// it in the turn (the rest of the model's reply, the calls before it, the
// user's approval), which it shows as "waited" when it was a wait.
func TestToolCardTimesTheCallItself(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	ms := time.Millisecond
	call := func(seq uint64, id string, d time.Duration) store.Event {
		return store.Event{Seq: seq, Type: store.EventToolCall, ToolCallID: id, ToolName: "calc_eval", Time: at(d)}
	}
	result := func(seq uint64, id string, d time.Duration, isError bool) store.Event {
		return store.Event{Seq: seq, Type: store.EventToolResult, ToolCallID: id, ToolName: "calc_eval", Text: "x", IsError: isError, Time: at(d)}
	}
	decision := func(seq uint64, id string, d time.Duration, kind store.DecisionKind, reason string) store.Event {
		return store.Event{Seq: seq, Type: store.EventApproval, ToolCallID: id, ToolName: "calc_eval", Time: at(d),
			Decision: &store.Decision{Kind: kind, Reason: reason}}
	}
	usage := func(seq uint64, d time.Duration) store.Event {
		return store.Event{Seq: seq, Type: store.EventUsage, Usage: &provider.Usage{InputTokens: 1}, Time: at(d)}
	}
	type want struct{ id, state, note string }
	for _, tc := range []struct {
		name   string
		events []store.Event
		want   []want
	}{
		{"two calls streamed, then run one after the other",
			[]store.Event{call(1, "a", 0), call(2, "b", 100*ms), usage(3, 2000*ms),
				result(4, "a", 2050*ms, false), result(5, "b", 2200*ms, true)},
			[]want{{"a", "ok · 50ms", ""}, {"b", "failed · 150ms", ""}}},
		{"denied after a wait",
			[]store.Event{call(1, "a", 0), usage(2, 1000*ms),
				decision(3, "a", 7400*ms, store.Denied, "the user said no"), result(4, "a", 7401*ms, true)},
			[]want{{"a", "denied", "Denied: the user said no · waited 6.4s"}}},
		{"approved after a wait",
			[]store.Event{call(1, "a", 0), usage(2, 1000*ms),
				decision(3, "a", 3400*ms, store.ApprovedOnce, ""), result(4, "a", 3431*ms, false)},
			[]want{{"a", "ok · 31ms", "Approved once · waited 2.4s"}}},
		{"a program's calls count in the program's run",
			[]store.Event{call(1, "p", 0), usage(2, 1000*ms),
				{Seq: 3, Type: store.EventToolCall, ToolCallID: "n", ToolName: "calc_eval", ParentCallID: "p", Time: at(1100 * ms)},
				{Seq: 4, Type: store.EventToolResult, ToolCallID: "n", ToolName: "calc_eval", Text: "1", Time: at(1150 * ms)},
				result(5, "p", 1300*ms, false)},
			[]want{{"p", "ok · 300ms", ""}, {"n", "ok · 50ms", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTranscript(store.ID(1), nil)
			tr.load(tc.events, true)
			for _, w := range tc.want {
				r := tr.calls[w.id]
				if r == nil {
					t.Fatalf("no card for %s", w.id)
				}
				if state, note := toolState(r.tool); state != w.state || note != w.note {
					t.Errorf("%s: toolState = %q, %q; want %q, %q", w.id, state, note, w.state, w.note)
				}
			}
		})
	}
}
