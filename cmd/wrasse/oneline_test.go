package main

import (
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// FuzzOneLine holds the listing's one-pass oneLine equal to
// cerebellum.OneLine, which it replaces for speed.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{
		"", " ", "plain", "  lead", "trail  ", "a  b", "a\tb", "a\n\nb", "a\u00a0b", "a\u0085b",
		"Café résumé naïve 東京 🙂 — emoji and wide letters count as one rune each, so the cut lands after seventy of them",
		"exactly ten", "ends with punctuation, here;:.-  and then more words to pass the limit of the cut",
		"bad \xff byte \xfe in a long enough text to be cut at some point after the limit", "\xff\xfe",
		"word                                                                                    word",
	} {
		for _, limit := range []int{1, 2, 10, 70, 100} {
			f.Add(s, limit)
		}
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if limit < 1 || limit > 300 {
			t.Skip()
		}
		if got, want := oneLine(s, limit), cerebellum.OneLine(s, limit); got != want {
			t.Fatalf("oneLine(%q, %d) = %q, want %q", s, limit, got, want)
		}
	})
}
