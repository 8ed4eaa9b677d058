package gate

import (
	"github.com/wrasse-app/wrasse/cerebellum"
)

// EvaluateEveryPattern is Evaluate running every pattern on every
// rendering, without the tool index and literal filters of Rules: the
// reference the tests hold Rules to.
func EvaluateEveryPattern(patterns []cerebellum.GatePattern, call Call) Verdict {
	r := &Rules{patterns: patterns, need: make([]*need, len(patterns)), byTool: map[string][]int{}}
	for i := range patterns {
		r.global = append(r.global, i)
	}
	return r.Evaluate(call)
}

// Filed counts the patterns filed under tools, the global ones, and those
// with a literal filter.
func (r *Rules) Filed() (anchored, global, filtered int) {
	seen := map[int]bool{}
	for _, l := range r.byTool {
		for _, i := range l {
			seen[i] = true
		}
	}
	for _, n := range r.need {
		if n != nil {
			filtered++
		}
	}
	return len(seen), len(r.global), filtered
}
