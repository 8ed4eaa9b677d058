package store

import "github.com/wrasse-app/wrasse/brain/provider"

// UsageTotal sums the usage events of a conversation's history: every
// reply's input and output tokens, and what the provider's prompt cache
// served (CachedTokens) and wrote (CacheWriteTokens).
func UsageTotal(events []Event) provider.Usage {
	var sum provider.Usage
	for _, e := range events {
		if e.Type != EventUsage || e.Usage == nil {
			continue
		}
		sum.InputTokens += e.Usage.InputTokens
		sum.OutputTokens += e.Usage.OutputTokens
		sum.CachedTokens += e.Usage.CachedTokens
		sum.CacheWriteTokens += e.Usage.CacheWriteTokens
	}
	return sum
}
