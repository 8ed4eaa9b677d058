package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

func TestUsageLine(t *testing.T) {
	tests := []struct {
		u    provider.Usage
		want string
	}{
		{provider.Usage{}, ""},
		{provider.Usage{InputTokens: 950, OutputTokens: 12}, "Tokens: 950 in, 12 out."},
		{provider.Usage{InputTokens: 52310, OutputTokens: 1204, CachedTokens: 47104, CacheWriteTokens: 3020},
			"Tokens: 52,310 in (47,104 from the prompt cache, 3,020 written to it), 1,204 out."},
		{provider.Usage{InputTokens: 2000, OutputTokens: 5, CacheWriteTokens: 1900}, "Tokens: 2,000 in (1,900 written to the prompt cache), 5 out."},
		{provider.Usage{InputTokens: 1234567, OutputTokens: 1, CachedTokens: 1000000}, "Tokens: 1,234,567 in (1,000,000 from the prompt cache), 1 out."},
	}
	for _, tt := range tests {
		if got := usageLine(tt.u); got != tt.want {
			t.Errorf("usageLine(%+v) = %q, want %q", tt.u, got, tt.want)
		}
	}
}

// `conversations show` prints the conversation's summed usage under its
// header, and the JSON carries it.
func TestPrintConversationUsage(t *testing.T) {
	conv := store.Conversation{ID: 7, Title: "Weather", Model: "m", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), EventCount: 3}
	events := []store.Event{
		{Seq: 1, Type: store.EventUserMessage, Text: "Weather?"},
		{Seq: 2, Type: store.EventUsage, Usage: &provider.Usage{InputTokens: 3000, OutputTokens: 20, CacheWriteTokens: 2800}},
		{Seq: 3, Type: store.EventUsage, Usage: &provider.Usage{InputTokens: 3100, OutputTokens: 30, CachedTokens: 2800, CacheWriteTokens: 200}},
	}
	var b strings.Builder
	if err := printConversation(&b, conv, events, false); err != nil {
		t.Fatal(err)
	}
	if want := "Tokens: 6,100 in (2,800 from the prompt cache, 3,000 written to it), 50 out.\n"; !strings.Contains(b.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	if err := printConversation(&b, conv, events, true); err != nil {
		t.Fatal(err)
	}
	if want := `"cachedTokens": 2800`; !strings.Contains(b.String(), want) {
		t.Errorf("JSON lacks %s:\n%s", want, b.String())
	}
}
