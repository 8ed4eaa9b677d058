package cerebellum

import (
	"fmt"
	"sort"
	"strings"
)

func (r *Registry) notFound(name string) error {
	close := r.Closest(name, 3)
	if len(close) == 0 {
		return fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return fmt.Errorf("%w: %q (did you mean %s?)", ErrNotFound, name, strings.Join(close, ", "))
}

// Closest returns up to n capability names nearest to name by edit distance.
func (r *Registry) Closest(name string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, c := range r.Snapshot().caps {
		d := editDistance(strings.ToLower(name), c.Name)
		if strings.Contains(c.Name, strings.ToLower(name)) || strings.Contains(strings.ToLower(name), c.Name) {
			d = min(d, 2)
		}
		if d <= max(3, len(name)/2) {
			cs = append(cs, cand{c.Name, d})
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

func editDistance(a, b string) int {
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
