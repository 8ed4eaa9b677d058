package chat

import (
	"slices"
	"testing"
)

func TestWrapLines(t *testing.T) {
	// Every character is 1 wide, so widths count characters.
	measure := func(s string) float32 { return float32(len([]rune(s))) }
	for _, tc := range []struct {
		text  string
		width float32
		want  []string
	}{
		{"short", 10, []string{"short"}},
		{"one two three", 8, []string{"one two", "three"}},
		{"a\n\nb", 10, []string{"a", "", "b"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"xx abcdefgh", 4, []string{"xx", "abcd", "efgh"}},
	} {
		if got := wrapLines(tc.text, tc.width, measure); !slices.Equal(got, tc.want) {
			t.Errorf("wrapLines(%q, %v) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}

func TestTokens(t *testing.T) {
	for n, want := range map[int]string{950: "950", 18200: "18.2k", 32000: "32k", 200000: "200k", 1500: "1.5k"} {
		if got := tokens(n); got != want {
			t.Errorf("tokens(%d) = %q, want %q", n, got, want)
		}
	}
	if got := gaugeText(18200, 32000); got != "Context 18.2k / 32k" {
		t.Errorf("gauge %q", got)
	}
}
