package agent

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// dayConv is a conversation as its turns keep it between them: its events
// (a tail of them once cut), the history the requests were prepared with,
// and the base of the tail.
type dayConv struct {
	events []store.Event
	seq    uint64
	h      requestHistory
	base   *tailBase
}

// turn is turn n of c as the agent takes it, with the long-day bench's
// turns: a question and an answer of about 400 bytes, every fourth a tool
// call and its result first. Each request is prepared and, at the end,
// the history cut as turn.keep does.
func (c *dayConv) turn(tb testing.TB, n int) {
	add := func(e store.Event) {
		c.seq++
		e.Seq = c.seq
		c.events = append(c.events, e)
	}
	prepare := func() {
		if _, _, ok := c.h.prepare(c.events, c.base, limit32k, 3000, cerebellum.EstimateTokens); !ok {
			tb.Fatalf("turn %d: the tail was too short", n)
		}
	}
	add(store.Event{Type: store.EventUserMessage, Text: fmt.Sprintf("Question %d: what should I do next?", n)})
	prepare()
	if n%4 == 0 {
		id := fmt.Sprintf("call_%d", n)
		add(store.Event{Type: store.EventToolCall, ToolCallID: id, ToolName: "calc_eval", Arguments: json.RawMessage(`{"expression":"6*7"}`)})
		add(store.Event{Type: store.EventToolResult, ToolCallID: id, ToolName: "calc_eval", Text: "42"})
		prepare()
	}
	add(store.Event{Type: store.EventAssistantText, Text: strings.Repeat("An answer of a few words. ", 16)})
	if e, m, nb := c.h.cut(c.events, c.base, limit32k, cerebellum.EstimateTokens); e > 0 {
		c.events = append([]store.Event(nil), c.events[e:]...)
		c.h.drop(e, m, c.events)
		c.base = &nb
	}
}

// BenchmarkTurnHistory is what preparing a turn's request costs the agent
// at turn 10 of a conversation and at turn 300 (a question, no tool
// call, into a 32k window): converting, fitting and cutting, not the
// store nor the provider (BenchmarkCoreTurn in wrasse-bench has them).
func BenchmarkTurnHistory(b *testing.B) {
	for _, at := range []int{10, 300} {
		b.Run(fmt.Sprintf("turn=%d", at), func(b *testing.B) {
			var c dayConv
			for i := 1; i < at; i++ {
				c.turn(b, i)
			}
			b.ReportAllocs()
			n := at
			for b.Loop() {
				if at == 10 {
					b.StopTimer()
					c = dayConv{}
					for i := 1; i < at; i++ {
						c.turn(b, i)
					}
					b.StartTimer()
				} else if n%4 == 0 {
					b.StopTimer()
					c.turn(b, n)
					n++
					b.StartTimer()
				}
				c.turn(b, n)
				n++
			}
		})
	}
}
