package search

import "unicode/utf8"

// Name segmentation. Tool and capability names are often words run together
// without separators ("airqualityforeast", "hdbcarpark"). segment splits such
// a word into words known from the index's own text, so a query for "air
// quality" can reach it. It is a plain dynamic program over the vocabulary of
// every description, keyword and heading in the index: nothing in it is
// tuned to a data set.

const (
	minSegment = 3  // shorter pieces are too ambiguous to trust
	maxSegment = 24 // longer vocabulary words are not worth the search
	minSegWord = 6  // shorter words are left whole
	maxSegWord = 64 // longer words are not names
)

// segment returns the known words of a run-together word w, in order, or nil
// when it has none that is not w itself. The program minimises the number of
// pieces, where a known word is one piece and each uncovered rune is one
// piece too, so long known words win ("weathertool" → weather, tool rather
// than wea, the, rtool) and stretches nobody knows stay uncovered.
func segment(w string, known func(string) bool) []string {
	n := len(w)
	if n < minSegWord || n > maxSegWord {
		return nil
	}
	const inf = 1 << 30
	// cost[i]: fewest pieces covering w[:i]; from[i]: start of the last
	// piece; word[i]: whether that piece is a known word.
	var costA, fromA [maxSegWord + 1]int
	var wordA [maxSegWord + 1]bool
	cost, from, word := costA[:n+1], fromA[:n+1], wordA[:n+1]
	for i := 1; i <= n; i++ {
		cost[i] = inf
	}
	for i := 0; i < n; i++ {
		if cost[i] == inf {
			continue // inside a multi-byte rune
		}
		_, size := utf8.DecodeRuneInString(w[i:])
		if c := cost[i] + 1; c < cost[i+size] {
			cost[i+size], from[i+size], word[i+size] = c, i, false
		}
		for j := i + minSegment; j <= n && j-i <= maxSegment; j++ {
			if (i == 0 && j == n) || !known(w[i:j]) {
				continue
			}
			// Among equal counts a known piece beats an unknown rune; between
			// known pieces the first found, the longest last piece, is kept.
			if c := cost[i] + 1; c < cost[j] || (c == cost[j] && !word[j]) {
				cost[j], from[j], word[j] = c, i, true
			}
		}
	}
	var pieces []string
	for i := n; i > 0; i = from[i] {
		if word[i] {
			pieces = append(pieces, w[from[i]:i])
		}
	}
	for l, r := 0, len(pieces)-1; l < r; l, r = l+1, r-1 {
		pieces[l], pieces[r] = pieces[r], pieces[l]
	}
	return pieces
}
