package hint

import (
	"sort"
	"strings"
)

// Closest returns up to n of candidates nearest to name by edit distance
// (case-insensitive; a candidate containing name, or contained in it,
// counts as close), nearest first, ties by name. Candidates farther than
// half of name's length (at least 3 edits) are left out: a "did you mean"
// that is not close misleads.
func Closest(name string, candidates []string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	low := strings.ToLower(name)
	var cs []cand
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := EditDistance(low, lc)
		if low != "" && (strings.Contains(lc, low) || strings.Contains(low, lc)) {
			d = min(d, 2)
		}
		if d <= max(3, len(name)/2) {
			cs = append(cs, cand{c, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// EditDistance is the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
