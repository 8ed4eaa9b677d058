package cerebellum_test

import (
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// A text added in pieces cut at whitespace counts exactly as the whole
// text does, whatever the pieces.
func TestTokenTallyPiecesCutAtWhitespace(t *testing.T) {
	texts := []string{
		"",
		"hello world",
		"Paragraph 70 has **bold** words, `code` and a [link](https://example.com).\n\n- item 70.1\n",
		"xkcd qzvr 12345678 ü € 中文 \t\r\n end",
		strings.Repeat("It goes on for a while, as a long answer does, and wraps. ", 40),
	}
	for _, text := range texts {
		want := cerebellum.EstimateTokens(text)
		for step := 1; step <= 17; step += 4 {
			var tally cerebellum.TokenTally
			start := 0
			for i := step; i < len(text); i += step {
				if c := text[i-1]; c == ' ' || c == '\n' || c == '\t' || c == '\r' {
					tally.Add(text[start:i])
					start = i
				}
			}
			tally.Add(text[start:])
			if got := tally.Tokens(); got != want {
				t.Errorf("%.30q in pieces of about %d: %d tokens, the whole text %d", text, step, got, want)
			}
		}
	}
}
