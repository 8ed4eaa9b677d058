package store_test

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/store"
)

func TestUsageTotal(t *testing.T) {
	tests := []struct {
		name   string
		events []store.Event
		want   provider.Usage
	}{
		{"none", nil, provider.Usage{}},
		{"replies and other events", []store.Event{
			{Type: store.EventUserMessage, Text: "hi"},
			{Type: store.EventUsage, Usage: &provider.Usage{InputTokens: 1000, OutputTokens: 10, CacheWriteTokens: 900}},
			{Type: store.EventAssistantText, Text: "hello"},
			{Type: store.EventUsage, Usage: &provider.Usage{InputTokens: 1100, OutputTokens: 20, CachedTokens: 900, CacheWriteTokens: 150}},
			{Type: store.EventUsage}, // a usage event without Usage (never stored, but not a crash)
		}, provider.Usage{InputTokens: 2100, OutputTokens: 30, CachedTokens: 900, CacheWriteTokens: 1050}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := store.UsageTotal(tt.events); got != tt.want {
				t.Errorf("UsageTotal = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// Cache reads and writes survive the round trip through the store.
func TestUsageStoredWithCache(t *testing.T) {
	db, err := store.Open(t.TempDir()+"/wrasse.db", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.CreateConversation("m")
	if err != nil {
		t.Fatal(err)
	}
	u := provider.Usage{InputTokens: 5000, OutputTokens: 40, CachedTokens: 4096, CacheWriteTokens: 800}
	if _, err := db.AppendEvent(c.ID, store.Event{Type: store.EventUsage, Usage: &u, Model: "m"}); err != nil {
		t.Fatal(err)
	}
	events, err := db.Events(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := store.UsageTotal(events); got != u {
		t.Errorf("stored usage %+v, want %+v", got, u)
	}
}
