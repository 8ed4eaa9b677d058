package store

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
)

// minEncodedLen is the shortest secret whose encodings are redacted too:
// a shorter value's base64 or hex is a few characters that ordinary text
// and data hold by chance. A shorter value is matched in its own case and
// with nothing but white space inside it (exact patterns).
const minEncodedLen = 8

// encodedForms are the forms of v that a command prints when it encodes a
// secret to get it past exact-text redaction: reversed (rev), hex (xxd -p,
// od -An -tx1 with its spaces), hex of byte pairs swapped (od -x and
// hexdump on a little-endian machine, at either byte alignment),
// URL-encoded, base64 in both alphabets and base32, with and without
// padding. For base64 and base32 also the stretch of characters fixed by
// v alone at each byte alignment, so v encoded inside a longer blob is
// caught whatever comes before and after it. Matching ignores ASCII case
// (tr a-z A-Z, xxd -u, %2f or %2F), so each form is listed in one case.
func encodedForms(v string) []string {
	if len(v) < minEncodedLen {
		return nil
	}
	b := []byte(v)
	rev := make([]byte, len(b))
	for i, c := range b {
		rev[len(b)-1-i] = c
	}
	out := []string{string(rev), hex.EncodeToString(b), url.QueryEscape(v), url.PathEscape(v), percentAll(v)}
	out = append(out, swappedHex(b)...)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString(b))
		out = append(out, alignedStretches(b, enc.WithPadding(base64.NoPadding).EncodeToString, 3, 6)...)
	}
	out = append(out, base32.StdEncoding.EncodeToString(b))
	out = append(out, alignedStretches(b, base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString, 5, 5)...)
	return out
}

// alignedStretches are, for each of the group's byte alignments, the
// characters of enc(pad+b) that b alone decides: character i of an
// encoding of bits bits each holds bits [bits·i, bits·i+bits); b's are
// [8k, 8k+8·len(b)) after k bytes of padding.
func alignedStretches(b []byte, enc func([]byte) string, group, bits int) []string {
	var out []string
	for k := range group {
		buf := make([]byte, k+len(b))
		copy(buf[k:], b)
		s := enc(buf)
		first, end := (8*k+bits-1)/bits, (8*k+8*len(b))/bits
		out = append(out, s[first:end])
	}
	return out
}

// swappedHex is b as od -x prints it on a little-endian machine, 16-bit
// words with their two bytes swapped, at both byte alignments: the words
// made of b's bytes alone.
func swappedHex(b []byte) []string {
	var out []string
	for k := range 2 {
		var s strings.Builder
		for i := k; i+1 < len(b); i += 2 {
			s.WriteString(hex.EncodeToString([]byte{b[i+1], b[i]}))
		}
		out = append(out, s.String())
	}
	return out
}

// percentAll escapes every byte but RFC 3986's unreserved characters, as
// encodeURIComponent and Python's quote(safe="") do.
func percentAll(v string) string {
	const hexDigits = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}

// Byte classes, as the scan treats them inside a match in progress.
const (
	// classUnit bytes are matched against the forms.
	classUnit = iota
	// classGap bytes may stand anywhere inside a form, any number of them:
	// line breaks (base64 wraps at 76 columns, PEM at 64), spaces and tabs
	// (od and hexdump put them between bytes, sed 's/./&\t/g' after each).
	// A gap never starts a match, so text around a secret keeps its
	// spacing; gaps are taken out of the patterns.
	classGap
	// classSep bytes (ASCII punctuation but % and \, which begin escapes)
	// may stand one at a time between two bytes of a form, where the form
	// does not have them itself: 73,6b,2d (paste -sd,), s|k|-, 73:6b.
	classSep
)

func byteClass(c byte) uint8 {
	switch {
	case c == ' ' || c == '\n' || c == '\r' || c == '\t':
		return classGap
	case c == '%' || c == '\\':
		return classUnit
	case c > ' ' && c < '0' || c > '9' && c < 'A' || c > 'Z' && c < 'a' || c > 'z' && c < 0x7f:
		return classSep
	}
	return classUnit
}

// fold is c in lower case, for ASCII letters: the automaton matches
// without regard to case.
func fold(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// A dump's layout around the bytes it shows: od, hexdump and xxd start
// each line with the offset (6 to 16 hex or octal digits, then a colon or
// white space), and xxd and hexdump -C end it with the bytes as text. A
// match in progress goes over both, but only where the next line's offset
// is followed by the match's next bytes, so ordinary text is never passed
// over. A match that went over a dump's layout also covers the rest of
// its last line: the text column there shows the end of the secret.
const (
	minOffsetDigits = 6
	maxOffsetDigits = 16
	// maxTextColumn bounds the text column passed over (xxd -c 64 prints 64).
	maxTextColumn = 128
	// maxLastLine bounds the rest of a dump's last line that a match
	// covers: the remaining bytes (xxd -c 64: 160 characters) and the text
	// column.
	maxLastLine = 256
	// maxStartLook bounds the gaps looked over for the second byte of a
	// form that may begin.
	maxStartLook = 16
	// confirmBytes is how far past a dump's layout a match must go on for
	// the layout to be passed over: a chance continuation of four bytes
	// is one in 65,536 for hex.
	confirmBytes = 4
)

// matcher finds every form of every secret in one pass over the text, as
// an Aho–Corasick automaton: the cost per byte does not grow with the
// number of secrets. The trie's edges are stored compactly (most states
// have one child); the root's in a full table, since most bytes of
// ordinary text leave from it. Patterns are stored in lower case and each
// byte is folded before it moves the automaton.
type matcher struct {
	root  [256]int32 // the root's child per byte, 0 for none
	first []int32    // state s's edges are edgeB/edgeT[first[s]:first[s+1]], sorted by byte
	edgeB []byte
	edgeT []int32
	fail  []int32
	depth []int32 // bytes of pattern read to reach the state
	// out is the first pattern of the longest one ending at the state (its
	// own, else its longest suffix's), -1 for none.
	out    []int32
	patLen []int32
	patTag []int32 // index of the pattern's name
	// patState is the state the pattern ends in; patSame the next pattern
	// ending there (another secret with the same folded form), -1 for none.
	patState []int32
	patSame  []int32
	// patExact holds, for an exact pattern, its text as written (gaps
	// taken out): a match must have these bytes, in this case, with only
	// gaps inside. "" for the others.
	patExact []string
	maxLen   int
	// dense are the full move tables of the shallowest states (denseOf[s],
	// -1 for the others): ordinary text seldom goes deeper than a few
	// bytes into a form, so most bytes cost one lookup.
	dense   [][256]int32
	denseOf []int32
	// starts has bit b0<<8|b1 set when some form begins with the bytes b0
	// b1, in either case: from the root, a byte that begins no form with
	// the next one is passed over with one look at this 8 KiB table.
	starts [1 << 16 / 64]uint64
	class  [256]uint8
}

// maxDense bounds the states given a full move table (1 KiB each), in
// breadth-first order: a state's failure state comes before it, so it is
// dense whenever the state is.
const maxDense = 512

// pattern is one form to find and the name it is redacted as. An exact
// pattern matches only in its own case with nothing but gaps inside.
type pattern struct {
	text  string
	tag   int32
	exact bool
}

// newMatcher builds the automaton. Gap bytes are taken out of the
// patterns, as the scan skips them inside a match.
func newMatcher(pats []pattern) *matcher {
	// The trie as first-child and next-sibling lists while it grows:
	// most states have one child, so this beats a map per state.
	child, sib, pat := []int32{-1}, []int32{-1}, []int32{-1}
	label := []byte{0}
	m := &matcher{}
	for c := range 256 {
		m.class[c] = byteClass(byte(c))
	}
	for _, p := range pats {
		t := stripGaps(p.text)
		if t == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(t); i++ {
			b := fold(t[i])
			c := child[s]
			for c >= 0 && label[c] != b {
				c = sib[c]
			}
			if c < 0 {
				c = int32(len(child))
				child, sib, pat, label = append(child, -1), append(sib, child[s]), append(pat, -1), append(label, b)
				child[s] = c
			}
			s = c
		}
		if len(t) > 1 {
			for _, b0 := range bothCases(t[0]) {
				for _, b1 := range bothCases(t[1]) {
					b := uint16(b0)<<8 | uint16(b1)
					m.starts[b/64] |= 1 << (b % 64)
				}
			}
		}
		exact := ""
		if p.exact {
			exact = t
		}
		o := int32(len(m.patLen))
		if pat[s] >= 0 {
			if !p.exact && m.patExact[pat[s]] == "" {
				continue // the same form again: the first name keeps it
			}
			// Last in the chain: the first name wins among equals.
			last := pat[s]
			for m.patSame[last] >= 0 {
				last = m.patSame[last]
			}
			m.patSame[last] = o
		} else {
			pat[s] = o
		}
		m.patLen = append(m.patLen, int32(len(t)))
		m.patTag = append(m.patTag, p.tag)
		m.patState = append(m.patState, s)
		m.patSame = append(m.patSame, -1)
		m.patExact = append(m.patExact, exact)
		m.maxLen = max(m.maxLen, len(t))
	}
	n := len(child)
	m.first = make([]int32, n+1)
	m.fail = make([]int32, n)
	m.depth = make([]int32, n)
	m.out = make([]int32, n)
	m.edgeB = make([]byte, 0, n-1)
	m.edgeT = make([]int32, 0, n-1)
	for s := range n {
		m.first[s] = int32(len(m.edgeB))
		from := len(m.edgeT)
		for c := child[s]; c >= 0; c = sib[c] {
			m.edgeT = append(m.edgeT, c)
		}
		kids := m.edgeT[from:]
		slices.SortFunc(kids, func(a, b int32) int { return int(label[a]) - int(label[b]) })
		for _, c := range kids {
			m.edgeB = append(m.edgeB, label[c])
		}
	}
	m.first[n] = int32(len(m.edgeB))
	for i := m.first[0]; i < m.first[1]; i++ {
		m.root[m.edgeB[i]] = m.edgeT[i]
	}
	// Breadth first: a state's failure link is its longest proper suffix
	// that is a state, found from its parent's.
	m.out[0] = -1
	queue := make([]int32, 0, n)
	for c := 0; c < 256; c++ {
		if t := m.root[c]; t != 0 {
			m.fail[t] = 0
			m.depth[t] = 1
			queue = append(queue, t)
		}
	}
	m.denseOf = make([]int32, n)
	for i := range m.denseOf {
		m.denseOf[i] = -1
	}
	m.denseOf[0] = 0
	m.dense = append(m.dense, bothCaseRow(m.root))
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if len(m.dense) < maxDense {
			// Every move from a shallow state, failures resolved: its
			// failure state is shallower, so already dense.
			var row [256]int32
			f := m.dense[m.denseOf[m.fail[s]]]
			for c := range 256 {
				row[c] = f[c]
			}
			for i := m.first[s]; i < m.first[s+1]; i++ {
				row[m.edgeB[i]] = m.edgeT[i]
			}
			m.denseOf[s] = int32(len(m.dense))
			m.dense = append(m.dense, bothCaseRow(row))
		}
		m.out[s] = pat[s]
		if m.out[s] < 0 {
			m.out[s] = m.out[m.fail[s]]
		}
		for i := m.first[s]; i < m.first[s+1]; i++ {
			c, t := m.edgeB[i], m.edgeT[i]
			f := m.fail[s]
			for {
				if g := m.child(f, c); g >= 0 {
					m.fail[t] = g
					break
				}
				if f == 0 {
					m.fail[t] = 0
					break
				}
				f = m.fail[f]
			}
			m.depth[t] = m.depth[s] + 1
			queue = append(queue, t)
		}
	}
	return m
}

// bothCaseRow is a move table of folded bytes that upper-case letters
// index too, so a dense move needs no folding.
func bothCaseRow(row [256]int32) [256]int32 {
	for c := 'A'; c <= 'Z'; c++ {
		row[c] = row[c+'a'-'A']
	}
	return row
}

// bothCases is c and, for a lower-case ASCII letter, its upper case.
func bothCases(c byte) []byte {
	c = fold(c)
	if c >= 'a' && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

func stripGaps(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 128 && byteClass(byte(r)) == classGap }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if byteClass(s[i]) != classGap {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// child is state s's child by c (folded), or -1.
func (m *matcher) child(s int32, c byte) int32 {
	if s == 0 {
		if t := m.root[c]; t != 0 {
			return t
		}
		return -1
	}
	lo, hi := m.first[s], m.first[s+1]
	if hi-lo <= 8 {
		for i := lo; i < hi; i++ {
			if m.edgeB[i] == c {
				return m.edgeT[i]
			}
		}
		return -1
	}
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		switch b := m.edgeB[mid]; {
		case b == c:
			return m.edgeT[mid]
		case b < c:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return -1
}

// move is the automaton's move from st by c, failures followed.
func (m *matcher) move(st int32, c byte) int32 {
	if d := m.denseOf[st]; d >= 0 {
		return m.dense[d][c]
	}
	return m.moveSparse(st, c)
}

// moveSparse is move from a state without a full table.
func (m *matcher) moveSparse(st int32, c byte) int32 {
	c = fold(c)
	for {
		if d := m.denseOf[st]; d >= 0 {
			return m.dense[d][c]
		}
		if t := m.child(st, c); t >= 0 {
			return t
		}
		st = m.fail[st]
	}
}

// goesOn reports whether the match st goes on at s[k:]: its next bytes
// (gaps passed over) continue it for confirmBytes bytes or until a form
// is complete. more says s ends before it could tell.
func (m *matcher) goesOn(s string, k int, st int32) (ok, more bool) {
	for n := 0; n < confirmBytes; k++ {
		if k == len(s) {
			return false, true
		}
		c := s[k]
		if m.class[c] == classGap {
			continue
		}
		next := m.move(st, c)
		if m.depth[next] != m.depth[st]+1 {
			return false, false
		}
		if st = next; m.out[st] >= 0 {
			return true, false
		}
		n++
	}
	return true, false
}

// offset looks at s[i:], the start of a line inside the match st, for a
// dump's offset column after which the match goes on: next is where it
// goes on (i when there is no such column); more says s ends before it
// could tell.
func (m *matcher) offset(s string, i int, st int32) (next int, more bool) {
	k := i
	for k < len(s) && k-i <= maxOffsetDigits && isHexDigit(s[k]) {
		k++
	}
	if k == len(s) {
		return i, true
	}
	if n := k - i; n < minOffsetDigits || n > maxOffsetDigits {
		return i, false
	}
	switch s[k] {
	case ':':
		k++
	case ' ', '\t':
	default:
		return i, false
	}
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if ok, more := m.goesOn(s, k, st); !ok {
		return i, more
	}
	return k, false
}

// textColumn looks at s[i:], after two spaces or more inside the match st,
// for a dump's text column: printable text to the end of the line, then
// the next line's offset and the match's next byte. end is the line break
// ending the column (i when there is none); more says s ends before it
// could tell.
func (m *matcher) textColumn(s string, i int, st int32) (end int, more bool) {
	k := i
	for k < len(s) && s[k] != '\n' {
		c := s[k]
		if k-i >= maxTextColumn || (c < ' ' || c > '~') && !(c == '\r' && k+1 < len(s) && s[k+1] == '\n') {
			return i, false
		}
		k++
	}
	if k == len(s) {
		return i, true
	}
	next, more := m.offset(s, k+1, st)
	if more {
		return i, true
	}
	if next == k+1 {
		return i, false
	}
	return k, false
}

// lineEnd is where the line holding s[from-1] ends (before its line
// break), for a match over a dump's layout: from when the line goes on
// past maxLastLine (no dump's line is that long); more says s ends first.
func lineEnd(s string, from int) (end int, more bool) {
	rest := s[from:min(len(s), from+maxLastLine)]
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		return from + len(strings.TrimSuffix(rest[:j], "\r")), false
	}
	if from+maxLastLine < len(s) {
		return from, false
	}
	return len(s), true
}

// isStart reports whether some form begins with the bytes b0 b1.
func (m *matcher) isStart(b0, b1 byte) bool {
	b := uint16(b0)<<8 | uint16(b1)
	return m.starts[b/64]&(1<<(b%64)) != 0
}

// skip is the first index from i where a form may begin, len(s) when
// none can. Most bytes of ordinary text cost one look at the table of
// starts, in a loop of their own.
func (m *matcher) skip(s string, i int) int {
	starts, class, root := &m.starts, &m.class, &m.dense[0]
	for ; i+1 < len(s); i++ {
		n := s[i+1]
		if class[n] != classUnit {
			// A word's end: one space before the next word is the
			// common case.
			if n != ' ' || i+2 == len(s) || class[s[i+2]] != classUnit {
				if root[s[i]] != 0 && m.mayStart(s, i) {
					return i
				}
				continue
			}
			n = s[i+2]
		}
		if b := uint16(s[i])<<8 | uint16(n); starts[b/64]&(1<<(b%64)) != 0 {
			return i
		}
	}
	if i < len(s) && m.root[fold(s[i])] == 0 {
		return len(s)
	}
	return i
}

// mayStart says whether a form may begin at s[i] when s[i+1] is a gap or
// a separator, from s[i] and the byte a match would read next: the first
// after the gaps, or after a separator a form may lack. When a line break
// comes first (a dump's offset may follow) or the look goes too far, it
// may.
func (m *matcher) mayStart(s string, i int) bool {
	c, k := s[i], i+1
	for seps := 0; ; seps++ {
		for end := min(len(s), k+maxStartLook); k < end && m.class[s[k]] == classGap; k++ {
			if s[k] == '\n' {
				return true
			}
		}
		if k == len(s) || m.class[s[k]] == classGap {
			return true
		}
		if m.isStart(c, s[k]) {
			return true
		}
		if m.class[s[k]] != classSep || seps > 0 {
			return false
		}
		k++
	}
}

// span is a stretch of the text to redact, as the pattern with tag.
type span struct {
	start, end int
	tag        int32
	n          int32 // the matched pattern's length, to name a merged span
}

// find returns the stretches of s to redact, in order and not
// overlapping (overlapping matches merge, named after the longest), and
// where a trailing partial match begins (len(s) when none): text that may
// be the start of a form whose rest is still to come. final says s is all
// there is; otherwise a match whose course depends on what follows s
// (a dump's layout, the rest of its last line) stops the scan there, and
// partial is where that match begins.
func (m *matcher) find(s string, final bool) (spans []span, partial int) {
	// ring holds the positions of the bytes of the match in progress, so
	// a match that skipped gaps knows where it began.
	var buf [512]int
	size := len(buf)
	for size < m.maxLen {
		size *= 2
	}
	ring := buf[:]
	if size > len(buf) {
		ring = make([]int, size)
	}
	mask := size - 1
	cnt := 0
	st := int32(0)
	// Since the last byte of the match in progress: the spaces and whether
	// a line break were passed over.
	spaces, lineStart := 0, false
	// cnt when a separator, and a dump's layout, were last passed over:
	// inside the match when greater than its first byte's count.
	sepAt, dumpAt := -1, -1
	stopped := false
scan:
	for i := 0; i < len(s); i++ {
		if st == 0 {
			if i = m.skip(s, i); i == len(s) {
				break
			}
		}
		c := s[i]
		if st != 0 {
			if m.class[c] == classGap {
				switch c {
				case '\n':
					lineStart, spaces = true, 0
				case ' ':
					spaces++
				}
				continue
			}
			if lineStart && isHexDigit(c) {
				next, more := m.offset(s, i, st)
				if more && !final {
					stopped = true
					break scan
				}
				if next > i {
					dumpAt, lineStart = cnt, false
					i = next - 1
					continue
				}
			}
			if spaces >= 2 {
				// Asked even when c goes on with the match: a text column
				// may begin with the character the match expects.
				end, more := m.textColumn(s, i, st)
				if more && !final {
					stopped = true
					break scan
				}
				if end > i {
					dumpAt, spaces = cnt, 0
					i = end - 1 // the line break comes next
					continue
				}
			}
		}
		var next int32
		if d := m.denseOf[st]; d >= 0 {
			next = m.dense[d][c]
		} else {
			next = m.moveSparse(st, c)
		}
		if st != 0 && m.depth[next] != m.depth[st]+1 && m.class[c] == classSep && sepAt != cnt {
			// A separator between two bytes of a form.
			sepAt = cnt
			continue
		}
		st, spaces, lineStart = next, 0, false
		if st == 0 {
			continue
		}
		ring[cnt&mask] = i
		cnt++
		o := m.out[st]
		for o >= 0 && !m.accepts(o, s, ring, cnt, mask, max(sepAt, dumpAt)) {
			if same := m.patSame[o]; same >= 0 {
				o = same
			} else {
				o = m.out[m.fail[m.patState[o]]]
			}
		}
		if o < 0 {
			continue
		}
		sp := span{start: ring[(cnt-int(m.patLen[o]))&mask], end: i + 1, tag: m.patTag[o], n: m.patLen[o]}
		if dumpAt > cnt-int(m.patLen[o]) {
			end, more := lineEnd(s, i+1)
			if more && !final {
				stopped = true
				break scan
			}
			sp.end = end
		}
		for len(spans) > 0 && spans[len(spans)-1].end > sp.start {
			top := spans[len(spans)-1]
			spans = spans[:len(spans)-1]
			sp.start, sp.end = min(sp.start, top.start), max(sp.end, top.end)
			if top.n > sp.n {
				sp.tag, sp.n = top.tag, top.n
			}
		}
		spans = append(spans, sp)
	}
	partial = len(s)
	if st != 0 {
		partial = ring[(cnt-int(m.depth[st]))&mask]
	}
	if stopped {
		// What is held is scanned again with what follows: no span may
		// reach into it.
		for len(spans) > 0 && spans[len(spans)-1].end > partial {
			partial = min(partial, spans[len(spans)-1].start)
			spans = spans[:len(spans)-1]
		}
	}
	return spans, partial
}

// accepts checks pattern o, just matched by the last bytes read (cnt
// so far), when it is exact: its bytes in its own case, and nothing but
// gaps passed over between them (skipAt is cnt when a separator or a
// dump's layout last was).
func (m *matcher) accepts(o int32, s string, ring []int, cnt, mask, skipAt int) bool {
	t := m.patExact[o]
	if t == "" {
		return true
	}
	n := len(t)
	if skipAt > cnt-n {
		return false
	}
	for k := range n {
		if s[ring[(cnt-n+k)&mask]] != t[k] {
			return false
		}
	}
	return true
}
