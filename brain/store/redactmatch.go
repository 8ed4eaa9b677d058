package store

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
)

// minEncodedLen is the shortest secret whose encodings are redacted too:
// a shorter value's base64 or hex is a few characters that ordinary text
// and data hold by chance.
const minEncodedLen = 8

// encodedForms are the forms of v that a command prints when it encodes a
// secret to get it past exact-text redaction: reversed (rev), hex in
// either case (xxd -p, od -An -tx1 with its spaces), URL-encoded, and
// base64 in both alphabets, with and without padding. For base64 also the
// stretch of characters fixed by v alone in each of the three byte
// alignments, so v encoded inside a longer blob is caught whatever comes
// before and after it.
func encodedForms(v string) []string {
	if len(v) < minEncodedLen {
		return nil
	}
	b := []byte(v)
	rev := make([]byte, len(b))
	for i, c := range b {
		rev[len(b)-1-i] = c
	}
	h := hex.EncodeToString(b)
	out := []string{string(rev), h, strings.ToUpper(h),
		url.QueryEscape(v), url.PathEscape(v), percentAll(v, "0123456789ABCDEF"), percentAll(v, "0123456789abcdef")}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString(b))
		raw := enc.WithPadding(base64.NoPadding)
		for k := range 3 {
			// Character i holds bits [6i, 6i+6); v's are [8k, 8k+8n).
			buf := make([]byte, k+len(b))
			copy(buf[k:], b)
			s := raw.EncodeToString(buf)
			first, end := (8*k+5)/6, (8*k+8*len(b))/6
			out = append(out, s[first:end])
		}
	}
	return out
}

// percentAll escapes every byte but RFC 3986's unreserved characters, as
// encodeURIComponent and Python's quote(safe="") do, with digits from
// hexDigits.
func percentAll(v, hexDigits string) string {
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

// isGap reports whether c may stand inside a redacted form without
// breaking it: line breaks (base64 wraps at 76 columns, PEM at 64) and
// spaces (od and hexdump put one between bytes). A gap never starts a
// match, so text around a secret keeps its spacing.
func isGap(c byte) bool { return c == '\n' || c == '\r' || c == ' ' }

// matcher finds every form of every secret in one pass over the text, as
// an Aho–Corasick automaton: the cost per byte does not grow with the
// number of secrets. The trie's edges are stored compactly (most states
// have one child); the root's in a full table, since most bytes of
// ordinary text leave from it.
type matcher struct {
	root  [256]int32 // the root's child per byte, 0 for none
	first []int32    // state s's edges are edgeB/edgeT[first[s]:first[s+1]], sorted by byte
	edgeB []byte
	edgeT []int32
	fail  []int32
	depth []int32 // bytes of pattern read to reach the state
	// out is the longest pattern ending at the state (its own, else its
	// longest suffix's), -1 for none.
	out    []int32
	patLen []int32
	patTag []int32 // index of the pattern's name
	maxLen int
	// dense are the full move tables of the shallowest states (denseOf[s],
	// -1 for the others): ordinary text seldom goes deeper than a few
	// bytes into a form, so most bytes cost one lookup.
	dense   [][256]int32
	denseOf []int32
	// starts has bit b0<<8|b1 set when some form begins with the bytes b0
	// b1: from the root, a byte that begins no form with the next one is
	// passed over with one look at this 8 KiB table.
	starts [1 << 16 / 64]uint64
}

// maxDense bounds the states given a full move table (1 KiB each), in
// breadth-first order: a state's failure state comes before it, so it is
// dense whenever the state is.
const maxDense = 512

// pattern is one form to find and the name it is redacted as.
type pattern struct {
	text string
	tag  int32
}

// newMatcher builds the automaton. Gap bytes are taken out of the
// patterns, as the scan skips them inside a match.
func newMatcher(pats []pattern) *matcher {
	// The trie as first-child and next-sibling lists while it grows:
	// most states have one child, so this beats a map per state.
	child, sib, pat := []int32{-1}, []int32{-1}, []int32{-1}
	label := []byte{0}
	m := &matcher{}
	for _, p := range pats {
		t := stripGaps(p.text)
		if t == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(t); i++ {
			c := child[s]
			for c >= 0 && label[c] != t[i] {
				c = sib[c]
			}
			if c < 0 {
				c = int32(len(child))
				child, sib, pat, label = append(child, -1), append(sib, child[s]), append(pat, -1), append(label, t[i])
				child[s] = c
			}
			s = c
		}
		if len(t) > 1 {
			b := uint16(t[0])<<8 | uint16(t[1])
			m.starts[b/64] |= 1 << (b % 64)
		}
		if pat[s] < 0 {
			pat[s] = int32(len(m.patLen))
			m.patLen = append(m.patLen, int32(len(t)))
			m.patTag = append(m.patTag, p.tag)
			m.maxLen = max(m.maxLen, len(t))
		}
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
	m.dense = append(m.dense, m.root)
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
			m.dense = append(m.dense, row)
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

func stripGaps(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 128 && isGap(byte(r)) }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if !isGap(s[i]) {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// child is state s's child by c, or -1.
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

// span is a stretch of the text to redact, as the pattern with tag.
type span struct {
	start, end int
	tag        int32
	n          int32 // the matched pattern's length, to name a merged span
}

// find returns the stretches of s to redact, in order and not
// overlapping (overlapping matches merge, named after the longest), and
// where a trailing partial match begins (len(s) when none): text that may
// be the start of a form whose rest is still to come.
func (m *matcher) find(s string) (spans []span, partial int) {
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
	for i := 0; i < len(s); i++ {
		c := s[i]
		if st == 0 {
			if i+1 < len(s) && !isGap(s[i+1]) {
				if b := uint16(c)<<8 | uint16(s[i+1]); m.starts[b/64]&(1<<(b%64)) == 0 {
					continue
				}
			}
		} else if isGap(c) {
			continue
		}
		for {
			if d := m.denseOf[st]; d >= 0 {
				st = m.dense[d][c]
				break
			}
			if t := m.child(st, c); t >= 0 {
				st = t
				break
			}
			st = m.fail[st]
		}
		if st == 0 {
			continue
		}
		ring[cnt&mask] = i
		cnt++
		o := m.out[st]
		if o < 0 {
			continue
		}
		sp := span{start: ring[(cnt-int(m.patLen[o]))&mask], end: i + 1, tag: m.patTag[o], n: m.patLen[o]}
		for len(spans) > 0 && spans[len(spans)-1].end > sp.start {
			top := spans[len(spans)-1]
			spans = spans[:len(spans)-1]
			if top.start < sp.start {
				sp.start = top.start
			}
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
	return spans, partial
}
