// Package modelfacts words what a server says about its models the same
// way on every screen that lists them (the chat header's picker, the
// Model page, the first-run page): "tools · vision · thinking · 128k
// window · 4.9 GB".
package modelfacts

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// Abilities are the abilities a chat model is listed with, in a fixed
// order ("" when the server does not say).
func Abilities(m provider.ModelInfo) string {
	if m.Abilities == nil {
		return ""
	}
	var parts []string
	for _, a := range []provider.Ability{provider.AbilityTools, provider.AbilityVision, provider.AbilityThinking, provider.AbilityEmbedding} {
		if m.Can(a) {
			parts = append(parts, string(a))
		}
	}
	if !m.Can(provider.AbilityTools) && !m.Can(provider.AbilityEmbedding) {
		parts = append([]string{"no tools"}, parts...)
	}
	return strings.Join(parts, " · ")
}

// Summary is what a model can do, its window and its size, as far as the
// server says: "tools · thinking · 40k window · 5.2 GB".
func Summary(m provider.ModelInfo) string {
	var parts []string
	if a := Abilities(m); a != "" {
		parts = append(parts, a)
	}
	if m.ContextWindow > 0 {
		parts = append(parts, Tokens(m.ContextWindow)+" window")
	}
	if m.Size > 0 {
		parts = append(parts, Bytes(m.Size))
	}
	return strings.Join(parts, " · ")
}

// Chat reports whether m can hold a conversation (an embedding model
// cannot).
func Chat(m provider.ModelInfo) bool { return !m.Can(provider.AbilityEmbedding) }

// Tokens writes a token count as people read it: 950, 18.2k, 128k, 1M.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n >= 1_000_000 && n%1_000_000 < 50_000:
		return fmt.Sprintf("%dM", (n+500_000)/1_000_000)
	case n < 100_000 && n%1000 != 0 && n%1024 != 0:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n%1024 == 0 && n < 1_000_000:
		return fmt.Sprintf("%dk", n/1024)
	}
	return fmt.Sprintf("%dk", (n+500)/1000)
}

// Bytes writes a size in bytes: 812 MB, 4.9 GB.
func Bytes(n int64) string {
	const mb, gb = 1_000_000, 1_000_000_000
	switch {
	case n >= gb:
		return fmt.Sprintf("%.1f GB", float64(n)/gb)
	case n >= mb:
		return fmt.Sprintf("%d MB", (n+mb/2)/mb)
	case n >= 1000:
		return fmt.Sprintf("%d kB", (n+500)/1000)
	}
	return fmt.Sprintf("%d B", n)
}
