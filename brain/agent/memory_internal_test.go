package agent

import (
	"reflect"
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// nextTurn is history ev as the next turn reads it: a new slice (the
// store hands each turn its own), the turn's question and answer added.
func nextTurn(ev []store.Event, q string) []store.Event {
	out := slices.Clone(ev)
	out = append(out, store.Event{Seq: uint64(len(out) + 1), Type: store.EventUserMessage, Text: q})
	return out
}

// A history carried to the next turn is reused only while the events it
// was converted from are unchanged: the request always equals the one
// made from scratch, and an unchanged history is neither converted nor
// counted again (a handful of allocations instead of one per message).
func TestRequestHistoryAcrossTurns(t *testing.T) {
	// changed applies f to the last event of type typ before the last
	// 20 (kept by the fitting, before the current turn).
	changed := func(typ store.EventType, f func(*store.Event)) func([]store.Event) []store.Event {
		return func(ev []store.Event) []store.Event {
			i := len(ev) - 20
			for ev[i].Type != typ {
				i--
			}
			f(&ev[i])
			return ev
		}
	}
	tests := []struct {
		name   string
		change func([]store.Event) []store.Event
		reused bool
	}{
		{"unchanged", func(ev []store.Event) []store.Event { return ev }, true},
		{"old tool output rewritten", changed(store.EventToolResult, func(e *store.Event) { e.Text = "shorter" }), false},
		{"old arguments changed", changed(store.EventToolCall, func(e *store.Event) { e.Arguments = []byte(`{"path":"other.md"}`) }), false},
		{"old event now code mode's", changed(store.EventToolCall, func(e *store.Event) { e.ParentCallID = "run" }), false},
		{"old answer edited", changed(store.EventAssistantText, func(e *store.Event) { e.Text = "a different answer" }), false},
		{"truncated far back", func(ev []store.Event) []store.Event { return ev[:41] }, false},
		{"same length, other events", func(ev []store.Event) []store.Event {
			return append(ev[:100:100], history5000()[200:len(ev)]...)
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := history5000()
			var h requestHistory
			h.prepare(ev, nil, limit32k, 3000, cerebellum.EstimateTokens)
			next := nextTurn(tc.change(slices.Clone(ev)), "and now?")
			want, wrep := referenceFit(store.ToMessages(next), limit32k, 3000, cerebellum.EstimateTokens)
			var allocs float64
			got, rep, _ := h.prepare(next, nil, limit32k, 3000, cerebellum.EstimateTokens)
			if rep != wrep || !reflect.DeepEqual(got, want) {
				t.Fatalf("the next turn's request differs from the reference: %+v vs %+v", rep, wrep)
			}
			if tc.reused {
				again := nextTurn(next, "and then?")
				allocs = testing.AllocsPerRun(1, func() {
					hh := h
					hh.prepare(again, nil, limit32k, 3000, cerebellum.EstimateTokens)
				})
				if allocs > 50 {
					t.Errorf("an unchanged history was converted again: %.0f allocations", allocs)
				}
			}
		})
	}
}
