package openai

import (
	"fmt"
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
