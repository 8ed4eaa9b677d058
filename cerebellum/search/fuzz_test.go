package search

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzTokenize checks the splitter on any input: no panic, no empty
// words, only letters, digits and marks in words, a joined run equal to its
// pieces, and the same answer twice.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "getWeather", "SEOTool", "AI2sql", "snake_case-kebab", "Ünïcödé", "e\u0301", "東京2024年", "\xff\xfe", strings.Repeat("aB", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var run []string
		splitWords(s, nil, func(w []byte, joined bool) {
			if len(w) == 0 {
				t.Fatalf("empty word from %q", s)
			}
			word := string(w)
			for _, r := range word {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) && r != utf8.RuneError {
					t.Fatalf("word %q from %q holds %q", word, s, r)
				}
			}
			if joined {
				// A run that split ends with its joined form: the last two
				// or more pieces, concatenated.
				tail, n := "", 0
				for i := len(run) - 1; i >= 0 && len(tail) < len(word); i-- {
					tail, n = run[i]+tail, n+1
				}
				if tail != word || n < 2 {
					t.Fatalf("joined %q is not its pieces (pieces so far %q, from %q)", word, run, s)
				}
				run = run[:0]
				return
			}
			run = append(run, word)
		})
		a, b := Tokenize(s), Tokenize(s)
		if !slices.Equal(a, b) {
			t.Fatalf("Tokenize(%q) not deterministic: %q vs %q", s, a, b)
		}
		for _, w := range a {
			if w == "" {
				t.Fatalf("Tokenize(%q) gave an empty term", s)
			}
		}
	})
}

// FuzzSearch checks that any query and k give at most k hits, exact hits
// first, the rest in score order with ties by ID, and the same answer twice.
func FuzzSearch(f *testing.F) {
	docs := fixture()
	ix := Build(docs)
	for _, q := range []string{"weather", "get_forecast", "search", "air quality", "rental", "", "\x00", "the the the", "forecast forecasting forecasts", strings.Repeat("x", 300)} {
		f.Add(q, 5)
	}
	f.Add("search", 1)
	f.Add("pdf", -3)
	f.Fuzz(func(t *testing.T, q string, k int) {
		k %= 20
		hits := ix.Search(q, k, nil)
		if k <= 0 && len(hits) != 0 || len(hits) > max(k, 0) {
			t.Fatalf("Search(%q, %d): %d hits", q, k, len(hits))
		}
		if again := ix.Search(q, k, nil); !slices.Equal(hits, again) {
			t.Fatalf("Search(%q, %d) not deterministic: %v vs %v", q, k, hits, again)
		}
		seen := map[string]bool{}
		for i, h := range hits {
			if seen[h.ID] {
				t.Fatalf("Search(%q): %s twice", q, h.ID)
			}
			seen[h.ID] = true
			if i == 0 {
				continue
			}
			p := hits[i-1]
			switch {
			case h.Exact && !p.Exact:
				t.Fatalf("Search(%q): exact %v after lexical %v", q, h, p)
			case !h.Exact && !p.Exact && (p.Score < h.Score || p.Score == h.Score && p.ID > h.ID):
				t.Fatalf("Search(%q): %v before %v", q, p, h)
			}
		}
	})
}
