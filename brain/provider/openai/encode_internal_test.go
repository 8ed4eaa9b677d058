package openai

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Conversations taking turns (the person switching chats, a scheduled task
// between two turns) reuse their messages' JSON; past the budget, what the
// latest request did not use goes.
func TestEncodedMessagesKeptAcrossConversations(t *testing.T) {
	conv := func(name string, n, size int) []provider.Message {
		var ms []provider.Message
		for i := range n {
			ms = append(ms, provider.Message{Role: provider.RoleUser, Content: fmt.Sprintf("%s %d %s", name, i, strings.Repeat("x", size))})
		}
		return ms
	}
	var c encodedMessages
	a, b := conv("a", 50, 100), conv("b", 50, 100)
	steps := []struct {
		name  string
		msgs  []provider.Message
		fresh int
	}{
		{"a's first request encodes all of it", a, 50},
		{"b's first request encodes all of it", b, 50},
		{"back to a: nothing to encode", append(a, provider.Message{Role: provider.RoleUser, Content: "new in a"}), 1},
		{"back to b: nothing to encode", b, 0},
	}
	for _, st := range steps {
		before := c.fresh
		parts, err := c.messages(st.msgs)
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != len(st.msgs) {
			t.Fatalf("%s: %d parts for %d messages", st.name, len(parts), len(st.msgs))
		}
		if got := c.fresh - before; got != st.fresh {
			t.Errorf("%s: %d messages encoded, want %d", st.name, got, st.fresh)
		}
	}

	// Over the budget: only the latest request's messages stay.
	big := conv("big", 4, encodedBudget/2)
	if _, err := c.messages(big); err != nil {
		t.Fatal(err)
	}
	if len(c.m) != len(big) {
		t.Errorf("%d messages kept after a request over the budget, want its %d", len(c.m), len(big))
	}
	want := 0
	for _, e := range c.m {
		want += len(e.b)
	}
	if c.bytes != want {
		t.Errorf("bytes = %d, want the %d kept", c.bytes, want)
	}
	before := c.fresh
	if _, err := c.messages(a[:1]); err != nil {
		t.Fatal(err)
	}
	if c.fresh-before != 1 {
		t.Errorf("a message evicted over the budget was not encoded again")
	}
}

// dayHistory is n messages of a long day: questions, answers of about
// 400 bytes, and now and then a tool call and its result.
func dayHistory(n int) []provider.Message {
	ms := make([]provider.Message, 0, n)
	for i := 0; len(ms) < n; i++ {
		ms = append(ms, provider.Message{Role: provider.RoleUser, Content: fmt.Sprintf("Question %d: what should I do next?", i)})
		if i%4 == 0 {
			id := fmt.Sprintf("call_%d", i)
			ms = append(ms,
				provider.Message{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: id, Name: "calc_eval", Arguments: []byte(`{"expression":"6*7"}`)}}},
				provider.Message{Role: provider.RoleTool, ToolCallID: id, ToolName: "calc_eval", Content: "42"})
		}
		ms = append(ms, provider.Message{Role: provider.RoleAssistant, Content: fmt.Sprintf("%d. %s", i, strings.Repeat("An answer of a few words. ", 16))})
	}
	return ms[:n]
}

// BenchmarkEncodedMessages is the history part of a request of n messages
// whose window moves on by one message each time, as a long
// conversation's requests do: all but the newest message were sent before.
func BenchmarkEncodedMessages(b *testing.B) {
	for _, n := range []int{30, 580} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			const ahead = 4096
			all := dayHistory(n + ahead)
			var c encodedMessages
			if _, err := c.messages(all[:n]); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 1
			for b.Loop() {
				if i == ahead {
					b.StopTimer()
					c = encodedMessages{}
					if _, err := c.messages(all[:n]); err != nil {
						b.Fatal(err)
					}
					i = 1
					b.StartTimer()
				}
				if _, err := c.messages(all[i : i+n]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// What encodedMessages gives for a history is what encoding it cold
// gives, byte for byte, whatever changed in the messages since an earlier
// request: found by where a message is in memory, a message whose calls
// changed in place, or that was edited, regenerated or flagged, is still
// encoded as it is now.
func TestEncodedMessagesMatchColdEncoding(t *testing.T) {
	h := dayHistory(60)
	var c encodedMessages
	check := func(name string, msgs []provider.Message) {
		t.Helper()
		got, err := c.messages(msgs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var cold encodedMessages
		want, err := cold.messages(msgs)
		if err != nil {
			t.Fatalf("%s: cold: %v", name, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d parts, cold %d", name, len(got), len(want))
		}
		for i := range got {
			if string(got[i]) != string(want[i]) {
				t.Errorf("%s: part %d\n got %s\nwant %s", name, i, got[i], want[i])
			}
		}
		if len(c.at) > len(c.m) {
			t.Errorf("%s: %d keys by place for %d entries", name, len(c.at), len(c.m))
		}
		for k, e := range c.at {
			if !e.hasAt || e.at != k {
				t.Errorf("%s: a key by place whose entry does not name it", name)
			}
		}
	}
	check("first", h[:40])
	check("grown", h[:50])
	check("moved on", h[5:55])

	call := slices.IndexFunc(h, func(m provider.Message) bool { return len(m.ToolCalls) > 0 })
	if call < 0 {
		t.Fatal("no call in the history")
	}
	// In place: the same slices and strings' places, other contents.
	h[call].ToolCalls[0].Arguments[len(h[call].ToolCalls[0].Arguments)-2] = '8'
	check("a call's arguments changed in place", h[:50])
	h[call].ToolCalls[0] = provider.ToolCall{ID: "call_other", Name: "calc_eval", Arguments: []byte(`{"expression":"1+1"}`)}
	check("a call replaced in place", h[:50])
	h[call].ToolCalls[0].Name = "other_tool"
	check("a call's name changed in place", h[:50])
	h[call+1].IsError = true
	check("a result flagged as failed", h[:50])
	h[call+1].Role = provider.RoleUser
	check("a message's role changed", h[:50])
	h[call+1].Role = provider.RoleTool
	check("and back", h[:50])

	// Edited and regenerated: other strings in the same places of the
	// history.
	h[10].Content = "An edited question?"
	check("a message edited", h[:50])
	last := slices.Clone(h[:50])
	last[49].Content = "A regenerated answer."
	check("the last answer regenerated", last)
	check("the answer before it again", h[:50])
	// The same text elsewhere in memory: reused, not encoded again.
	moved := slices.Clone(h[:50])
	for i := range moved {
		moved[i].Content = strings.Clone(moved[i].Content)
	}
	before := c.fresh
	check("the same messages read again", moved)
	if c.fresh != before {
		t.Errorf("%d messages encoded again for the same text elsewhere in memory", c.fresh-before)
	}
	check("and the first copy again", h[:50])

	// Over the budget what the latest request did not use goes, from
	// both maps.
	big := []provider.Message{{Role: provider.RoleUser, Content: strings.Repeat("x", encodedBudget)}}
	check("over the budget", big)
	if len(c.m) != 1 || len(c.at) != 1 {
		t.Errorf("over the budget: %d entries, %d keys by place kept, want 1 and 1", len(c.m), len(c.at))
	}
	check("after it", h[:50])
}
