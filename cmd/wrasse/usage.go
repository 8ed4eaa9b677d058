package main

import (
	"fmt"
	"strings"

	"github.com/wrasse-app/wrasse/brain/provider"
)

// usageLine sums a conversation's token use for `conversations show`:
// "Tokens: 52,310 in (47,104 from the prompt cache, 3,020 written to it),
// 1,204 out." It is "" when no reply reported usage.
func usageLine(u provider.Usage) string {
	if u.InputTokens == 0 && u.OutputTokens == 0 {
		return ""
	}
	var cache []string
	if u.CachedTokens > 0 {
		cache = append(cache, fmt.Sprintf("%s from the prompt cache", thousands(u.CachedTokens)))
	}
	if u.CacheWriteTokens > 0 {
		cache = append(cache, fmt.Sprintf("%s written to it", thousands(u.CacheWriteTokens)))
		if u.CachedTokens == 0 {
			cache[len(cache)-1] = fmt.Sprintf("%s written to the prompt cache", thousands(u.CacheWriteTokens))
		}
	}
	in := thousands(u.InputTokens) + " in"
	if len(cache) > 0 {
		in += " (" + strings.Join(cache, ", ") + ")"
	}
	return fmt.Sprintf("Tokens: %s, %s out.", in, thousands(u.OutputTokens))
}

// thousands writes n with comma separators: 52310 → "52,310".
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
