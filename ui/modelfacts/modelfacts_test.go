package modelfacts

import (
	"testing"

	"github.com/wrasse-app/wrasse/brain/provider"
)

func TestSummary(t *testing.T) {
	tests := []struct {
		name string
		m    provider.ModelInfo
		want string
	}{
		{"nothing said", provider.ModelInfo{ID: "gpt-4o"}, ""},
		{"an Ollama model", provider.ModelInfo{ID: "qwen3:8b", Abilities: []provider.Ability{provider.AbilityThinking, provider.AbilityTools},
			ContextWindow: 40960, Size: 5_225_000_000}, "tools · thinking · 40k window · 5.2 GB"},
		{"no tools", provider.ModelInfo{Abilities: []provider.Ability{"completion"}, ContextWindow: 4096}, "no tools · 4k window"},
		{"vision", provider.ModelInfo{Abilities: []provider.Ability{provider.AbilityVision, provider.AbilityTools}, ContextWindow: 131072},
			"tools · vision · 128k window"},
		{"embedding", provider.ModelInfo{Abilities: []provider.Ability{provider.AbilityEmbedding}, Size: 274_000_000}, "embedding · 274 MB"},
		{"a window in thousands", provider.ModelInfo{ContextWindow: 200000}, "200k window"},
		{"a million", provider.ModelInfo{ContextWindow: 1_048_576}, "1M window"},
		{"an odd window", provider.ModelInfo{ContextWindow: 32500}, "32.5k window"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summary(tt.m); got != tt.want {
				t.Errorf("Summary = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1500: "2 kB", 812_400_000: "812 MB", 4_920_753_328: "4.9 GB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
