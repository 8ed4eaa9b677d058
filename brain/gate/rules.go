package gate

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Rules are a snapshot's patterns prepared for matching, built once per
// registry state (Snapshot.GateRules). Two things keep a check from costing
// a regular expression run per pattern of every capability:
//
//   - A pattern anchored on tool names (`^shell_exec `, `^(fs_write|fs_patch) `)
//     can only match calls of those tools, since every rendering starts with
//     the tool and a space; it is filed under them, and a call tries only its
//     tool's patterns and the unanchored (global) ones, in pattern order.
//   - A pattern that needs some literal text (`sudo`, `"overwrite":true`) is
//     run only on renderings that contain it, compared case-folded as the
//     pattern is. Both are necessary conditions of a match, so they skip only
//     patterns that cannot match: the verdict is the one every pattern run
//     would give.
//
// The literal filter is kept for what it measures (BenchmarkRulesLongArgument,
// BenchmarkCheck/write-1MiB, 2026-12-02, docs/performance.md): without it a
// 10 KB write against 1,000 capabilities' rules took 41 ms instead of 0.3 ms,
// and a 1 MiB write against the built-in rules 2.2 s instead of 43 ms, a
// pause a person sees before every large write.
type Rules struct {
	patterns []cerebellum.GatePattern
	// need[i] is what any match of pattern i contains; nil when nothing
	// is known.
	need []*need
	// byTool holds, for each folded tool name, the indexes of the patterns
	// anchored on it; global those anchored on none. Both ascend.
	byTool map[string][]int
	global []int
	// bufs are byte buffers for folded renderings, reused so that a long
	// argument is not folded into fresh memory on every call.
	bufs sync.Pool
}

// Limits of the literal analysis: past them a pattern is treated as
// needing nothing, which only costs speed.
const (
	maxPrefixes = 64
	maxClass    = 16
)

// Compile prepares patterns for Evaluate. Patterns without a compiled
// expression never match, as in Evaluate.
func Compile(patterns []cerebellum.GatePattern) *Rules {
	r := &Rules{patterns: patterns, need: make([]*need, len(patterns)), byTool: map[string][]int{}}
	for i, p := range patterns {
		if p.Pattern.Re == nil {
			continue
		}
		re, err := syntax.Parse(p.Pattern.Re.String(), syntax.Perl)
		if err != nil {
			// Cannot happen for a compiled expression; matching it everywhere
			// keeps the gate exact.
			r.global = append(r.global, i)
			continue
		}
		tools, rest := anchoredTools(re)
		if tools == nil {
			r.global = append(r.global, i)
		}
		for _, t := range tools {
			r.byTool[t] = append(r.byTool[t], i)
		}
		if rest != nil {
			// Every text the pattern needs (up to maxNeeds), so that one
			// also found in the tool name ("cap500" in `drop table cap500`)
			// does not let the expression run on every call of that tool.
			var chain *need
			all := requiredAll(rest)
			for j := len(all) - 1; j >= 0; j-- {
				if n := newNeed(all[j]); n != nil {
					n.and, chain = chain, n
				}
			}
			r.need[i] = chain
		}
	}
	return r
}

// candidates are the indexes of the patterns that may match a call of
// tool, ascending. buf is reused.
func (r *Rules) candidates(tool string, buf []int) []int {
	if strings.ContainsAny(tool, " \t\r\n") {
		// The line's first space is not where the tool ends: try everything.
		buf = buf[:0]
		for i := range r.patterns {
			buf = append(buf, i)
		}
		return buf
	}
	own := r.byTool[foldString(tool)]
	if len(own) == 0 {
		return r.global
	}
	if len(r.global) == 0 {
		return own
	}
	buf = append(append(buf[:0], own...), r.global...)
	slices.Sort(buf)
	return buf
}

// anchoredTools reads a pattern anchored at the start of the line on tool
// names: the folded names it can match and the rest of the expression after
// the anchor and tool names. tools is nil when the pattern may match a
// call of any tool; rest is nil when no literal analysis applies.
func anchoredTools(re *syntax.Regexp) (tools []string, rest *syntax.Regexp) {
	switch re.Op {
	case syntax.OpCapture:
		return anchoredTools(re.Sub[0])
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			t, _ := anchoredTools(s)
			if t == nil {
				return nil, re
			}
			tools = append(tools, t...)
		}
		slices.Sort(tools)
		return slices.Compact(tools), re
	case syntax.OpConcat:
		if len(re.Sub) == 0 || re.Sub[0].Op != syntax.OpBeginText {
			return nil, re
		}
		after := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: re.Sub[1:]}
		pre, _ := prefixes(after)
		seen := map[string]bool{}
		for _, p := range pre {
			name, _, ok := strings.Cut(p, " ")
			if !ok {
				return nil, re
			}
			if !seen[name] {
				seen[name] = true
				tools = append(tools, name)
			}
		}
		if len(tools) == 0 {
			return nil, re
		}
		slices.Sort(tools)
		// The leading tool names are always in a line of those tools, so
		// they say nothing about whether it matches: look past them.
		n := 1
		for n < len(re.Sub) {
			if _, exact := prefixes(re.Sub[n]); !exact {
				break
			}
			n++
		}
		return tools, &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: re.Sub[n:]}
	}
	return nil, re
}

// prefixes is a set of folded strings one of which starts every match of
// re, and whether re matches exactly those (a finite set of strings).
// {""} says nothing.
func prefixes(re *syntax.Regexp) (set []string, exact bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		return []string{foldRunes(re.Rune)}, true
	case syntax.OpCharClass:
		runes := classRunes(re)
		if runes == nil {
			return []string{""}, false
		}
		for _, c := range runes {
			set = append(set, string(c))
		}
		return dedupe(set), true
	case syntax.OpCapture:
		return prefixes(re.Sub[0])
	case syntax.OpAlternate:
		exact = true
		for _, s := range re.Sub {
			p, e := prefixes(s)
			set = append(set, p...)
			exact = exact && e
		}
		set = dedupe(set)
		if len(set) > maxPrefixes {
			return []string{""}, false
		}
		return set, exact
	case syntax.OpConcat:
		set = []string{""}
		for _, s := range re.Sub {
			p, e := prefixes(s)
			next := product(set, p)
			if next == nil {
				return set, false
			}
			set = next
			if !e {
				return set, false
			}
		}
		return set, true
	}
	return []string{""}, false
}

// required is a set of folded, non-empty strings of which every match of
// re contains one; nil when none is known.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{foldRunes(re.Rune)}
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var set []string
		for _, s := range re.Sub {
			r := required(s)
			if r == nil {
				return nil
			}
			set = append(set, r...)
		}
		set = dedupe(set)
		if len(set) > maxPrefixes {
			return nil
		}
		return set
	case syntax.OpConcat:
		// Runs of exact pieces make longer strings (`"path":"` then `/etc`);
		// any other piece may need something of its own. Keep the best.
		var best []string
		consider := func(set []string) {
			if better(set, best) {
				best = set
			}
		}
		run := []string{""}
		for _, s := range re.Sub {
			if p, exact := prefixes(s); exact {
				if next := product(run, p); next != nil {
					run = next
					continue
				}
			}
			consider(run)
			run = []string{""}
			if p, exact := prefixes(s); exact {
				run = p
				continue
			}
			consider(required(s))
		}
		consider(run)
		return best
	}
	return nil
}

// maxNeeds bounds the required texts checked per pattern.
const maxNeeds = 3

// requiredAll is like required but, for a sequence, returns up to maxNeeds
// of the sets its parts require (all of which every match contains), the
// strongest first.
func requiredAll(re *syntax.Regexp) [][]string {
	if re.Op == syntax.OpCapture {
		return requiredAll(re.Sub[0])
	}
	if re.Op != syntax.OpConcat {
		if r := required(re); r != nil {
			return [][]string{r}
		}
		return nil
	}
	var sets [][]string
	keep := func(set []string) {
		if len(set) > 0 && minLen(set) > 0 {
			sets = append(sets, set)
		}
	}
	run := []string{""}
	for _, sub := range re.Sub {
		if p, exact := prefixes(sub); exact {
			if next := product(run, p); next != nil {
				run = next
				continue
			}
		}
		keep(run)
		run = []string{""}
		if p, exact := prefixes(sub); exact {
			run = p
			continue
		}
		keep(required(sub))
	}
	keep(run)
	slices.SortStableFunc(sets, func(a, b []string) int { return minLen(b) - minLen(a) })
	return sets[:min(len(sets), maxNeeds)]
}

// better reports whether set is a stronger requirement than best: its
// shortest string is longer. A set holding "" requires nothing.
func better(set, best []string) bool {
	if len(set) == 0 {
		return false
	}
	m := minLen(set)
	return m > 0 && (best == nil || m > minLen(best))
}

func minLen(set []string) int {
	m := len(set[0])
	for _, s := range set[1:] {
		m = min(m, len(s))
	}
	return m
}

// product is every a followed by every b, or nil past maxPrefixes.
func product(a, b []string) []string {
	if len(a)*len(b) > maxPrefixes {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return dedupe(out)
}

func dedupe(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// classRunes lists the runes of a small character class, or nil.
func classRunes(re *syntax.Regexp) []rune {
	var out []rune
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], re.Rune[i+1]
		if hi-lo >= maxClass || len(out)+int(hi-lo)+1 > maxClass {
			return nil
		}
		for c := lo; c <= hi; c++ {
			out = append(out, foldRune(c))
		}
	}
	return out
}

// foldRune is the representative of r's case-folding orbit (its smallest
// member), so two runes a case-insensitive expression treats as equal fold
// to the same rune.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

func foldRunes(rs []rune) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldString folds every rune of s; bytes that are not UTF-8 become
// U+FFFD, as a regular expression reads them.
func foldString(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return foldASCII(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

func foldASCII(s string) string {
	lower := false
	for i := 0; i < len(s); i++ {
		if 'a' <= s[i] && s[i] <= 'z' {
			lower = true
			break
		}
	}
	if !lower {
		return s
	}
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		b[i] = c
	}
	return string(b)
}

// need is a set of folded strings of which a line must contain one. When
// they share a substring (`"PATH":"` in `[{,]"path":"(/etc|/usr)`), the
// line is searched once for it and each string is checked where it occurs.
type need struct {
	// and is a further need of the same pattern: a line must hold both.
	and    *need
	strs   [][]byte
	anchor []byte
	// offs[i] are the positions of anchor in strs[i].
	offs [][]int
	// ascii is true when every string is ASCII: then a line without the
	// two non-ASCII runes that fold to ASCII is searched as it is, without
	// folding it (see asciiSearch).
	ascii bool
	// rare[i] is the position in strs[i] (in anchor, for rareAnchor) of
	// its least common byte, which the search looks for first.
	rare       []int
	rareAnchor int
}

// Bounds of the search for a shared substring, which runs once per pattern.
const (
	minAnchor = 3
	maxAnchor = 24
)

func newNeed(strs []string) *need {
	if len(strs) == 0 {
		return nil
	}
	n := &need{}
	for _, s := range strs {
		n.strs = append(n.strs, []byte(s))
	}
	n.ascii = true
	for _, b := range n.strs {
		n.ascii = n.ascii && isASCII(b)
		n.rare = append(n.rare, rarest(b))
	}
	if len(strs) == 1 {
		return n
	}
	anchor := sharedSubstring(strs)
	if anchor == "" {
		return n
	}
	n.anchor = []byte(anchor)
	n.rareAnchor = rarest(n.anchor)
	n.offs = make([][]int, len(strs))
	for i, s := range strs {
		for at := 0; ; {
			j := strings.Index(s[at:], anchor)
			if j < 0 {
				break
			}
			n.offs[i] = append(n.offs[i], at+j)
			at += j + 1
		}
	}
	return n
}

// sharedSubstring is the longest substring (minAnchor to maxAnchor bytes)
// of the shortest of strs that all of them contain, or "".
func sharedSubstring(strs []string) string {
	short := strs[0]
	for _, s := range strs[1:] {
		if len(s) < len(short) {
			short = s
		}
	}
	for l := min(len(short), maxAnchor); l >= minAnchor; l-- {
	next:
		for i := 0; i+l <= len(short); i++ {
			sub := short[i : i+l]
			for _, s := range strs {
				if !strings.Contains(s, sub) {
					continue next
				}
			}
			return sub
		}
	}
	return ""
}

// mayMatch reports whether a folded line holds one of n's strings.
func (n *need) mayMatch(folded []byte) bool {
	if n == nil {
		return true
	}
	if n.anchor == nil {
		for _, s := range n.strs {
			if bytes.Contains(folded, s) {
				return true
			}
		}
		return false
	}
	for at := 0; ; {
		j := bytes.Index(folded[at:], n.anchor)
		if j < 0 {
			return false
		}
		p := at + j
		for i, s := range n.strs {
			for _, o := range n.offs[i] {
				if p >= o && bytes.HasPrefix(folded[p-o:], s) {
					return true
				}
			}
		}
		at = p + 1
	}
}

// mayMatchLine reports whether rendering i of f holds one of n's strings,
// searching the line as it is when it can.
func (n *need) mayMatchLine(f *folded, i int) bool {
	for ; n != nil; n = n.and {
		if !n.holds(f, i) {
			return false
		}
	}
	return true
}

// holds reports whether rendering i holds one of n's own strings.
func (n *need) holds(f *folded, i int) bool {
	if !n.ascii || f.special(i) {
		return n.mayMatch(f.line(i))
	}
	l := f.lines[i]
	if n.anchor == nil {
		for j, s := range n.strs {
			if asciiSearch(l, s, n.rare[j], func(int) bool { return true }) {
				return true
			}
		}
		return false
	}
	return asciiSearch(l, n.anchor, n.rareAnchor, func(p int) bool {
		for j, s := range n.strs {
			for _, o := range n.offs[j] {
				if p >= o && hasPrefixFold(l[p-o:], s) {
					return true
				}
			}
		}
		return false
	})
}

// asciiSearch reports whether ok holds at a position of l where the
// folded ASCII string s occurs, ignoring ASCII case; k is the position in
// s of the byte to look for first.
func asciiSearch(l string, s []byte, k int, ok func(p int) bool) bool {
	c := s[k]
	cases := []byte{c}
	if 'A' <= c && c <= 'Z' {
		cases = append(cases, c+'a'-'A')
	}
	for _, c := range cases {
		for at := k; at < len(l); {
			j := strings.IndexByte(l[at:], c)
			if j < 0 {
				break
			}
			p := at + j - k
			if hasPrefixFold(l[p:], s) && ok(p) {
				return true
			}
			at += j + 1
		}
	}
	return false
}

// hasPrefixFold reports whether l starts with the folded ASCII string s,
// ignoring ASCII case.
func hasPrefixFold(l string, s []byte) bool {
	if len(l) < len(s) {
		return false
	}
	for i, c := range s {
		d := l[i]
		if 'a' <= d && d <= 'z' {
			d -= 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}

// letterOrder ranks folded letters from most to least common in text.
const letterOrder = "ETAOINSHRDLCUMWFGYPBVKJXQZ"

// rarest is the position of the byte of s least likely in a line: a
// character other than a letter, digit or space first, then the rarest
// letter.
func rarest(s []byte) int {
	best, score := 0, -1
	for i, c := range s {
		var sc int
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			sc = 0
		case 'A' <= c && c <= 'Z':
			sc = 1 + strings.IndexByte(letterOrder, c)
		case '0' <= c && c <= '9':
			sc = 20
		default:
			sc = 40
		}
		if sc > score {
			best, score = i, sc
		}
	}
	return best
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldInto appends s folded (see foldRune) to dst.
func foldInto(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += size
	}
	return dst
}

// folded holds a call's renderings case-folded, each filled when a
// pattern first needs it, in buffers reused across calls.
type folded struct {
	pool  *sync.Pool
	lines []string
	bufs  [][]byte
	done  []bool
	// spec[i]: 0 unknown, 1 rendering i holds a rune that folds to ASCII
	// (KELVIN SIGN, LATIN SMALL LETTER LONG S), 2 it holds none.
	spec []uint8
}

func (r *Rules) folded(lines []string) *folded {
	return &folded{pool: &r.bufs, lines: lines, bufs: make([][]byte, len(lines)), done: make([]bool, len(lines)), spec: make([]uint8, len(lines))}
}

// special reports whether rendering i holds a non-ASCII rune that folds
// to an ASCII letter, so that it must be folded to be searched.
func (f *folded) special(i int) bool {
	if f.spec[i] == 0 {
		f.spec[i] = 2
		if strings.Contains(f.lines[i], "\u212a") || strings.Contains(f.lines[i], "\u017f") {
			f.spec[i] = 1
		}
	}
	return f.spec[i] == 1
}

// line returns rendering i folded.
func (f *folded) line(i int) []byte {
	if !f.done[i] {
		var b []byte
		if p, ok := f.pool.Get().(*[]byte); ok {
			b = (*p)[:0]
		}
		f.bufs[i], f.done[i] = foldInto(b, f.lines[i]), true
	}
	return f.bufs[i]
}

// release returns the buffers for reuse.
func (f *folded) release() {
	for i, b := range f.bufs {
		if f.done[i] {
			f.pool.Put(&b)
		}
	}
}
