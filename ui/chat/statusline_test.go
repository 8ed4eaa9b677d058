package chat

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func TestUsageText(t *testing.T) {
	tests := []struct {
		u    provider.Usage
		want string
	}{
		{provider.Usage{InputTokens: 1500, OutputTokens: 20}, "last reply: 1.5k in · 20 out"},
		{provider.Usage{InputTokens: 18200, OutputTokens: 20, CachedTokens: 17900, CacheWriteTokens: 300}, "last reply: 18.2k in (17.9k cached) · 20 out"},
		{provider.Usage{InputTokens: 900, OutputTokens: 3, CacheWriteTokens: 900}, "last reply: 900 in · 3 out"},
	}
	for _, tt := range tests {
		if got := usageText(tt.u); got != tt.want {
			t.Errorf("usageText(%+v) = %q, want %q", tt.u, got, tt.want)
		}
	}
}
