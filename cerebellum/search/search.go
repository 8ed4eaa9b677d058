package search

import (
	"math"
	"slices"
	"strings"
	"sync"
)

const (
	// maxQueryTerms bounds the distinct terms one query may use, so a
	// pasted essay costs a bounded amount of work.
	maxQueryTerms = 64
	// maxPrefixExpansions bounds the index terms one query word may reach
	// by prefix.
	maxPrefixExpansions = 16
)

// qterm is a query term and how much its matches count.
type qterm struct {
	t int32
	w float32
}

type cand struct {
	doc   int32
	score float32
}

// scratch is the per-search working memory, reused so that a search
// allocates almost nothing.
type scratch struct {
	scores  []float32 // by document; zero when untouched
	touched []int32   // documents with a non-zero score
	terms   []qterm
	buf     []byte
	heap    []cand
}

// scratchPool keeps scratch for reuse. Unlike a sync.Pool it is not
// emptied by garbage collection, so a query does not allocate a score
// array over every document again after each collection; an index made
// by Update shares the pool of the one it came from.
type scratchPool struct {
	mu   sync.Mutex
	free []*scratch
}

// maxFreeScratch bounds the scratch kept for concurrent searches.
const maxFreeScratch = 16

// get returns scratch with room for n documents' scores, all zero.
func (sp *scratchPool) get(n int) *scratch {
	sp.mu.Lock()
	var s *scratch
	if l := len(sp.free); l > 0 {
		s, sp.free = sp.free[l-1], sp.free[:l-1]
	}
	sp.mu.Unlock()
	if s == nil {
		s = &scratch{}
	}
	if len(s.scores) < n {
		// Grown past what is needed, so an index growing by one
		// document at a time reallocates rarely.
		s.scores = slices.Grow(s.scores[:0], n+n/4)[:n+n/4]
	}
	return s
}

func (sp *scratchPool) put(s *scratch) {
	for _, d := range s.touched {
		s.scores[d] = 0
	}
	s.touched = s.touched[:0]
	s.terms = s.terms[:0]
	s.heap = s.heap[:0]
	sp.mu.Lock()
	if len(sp.free) < maxFreeScratch {
		sp.free = append(sp.free, s)
	}
	sp.mu.Unlock()
}

// addTerm adds t to the query, keeping the larger weight when it is there.
func (s *scratch) addTerm(t int32, w float32) {
	for i := range s.terms {
		if s.terms[i].t == t {
			s.terms[i].w = max(s.terms[i].w, w)
			return
		}
	}
	s.terms = append(s.terms, qterm{t, w})
}

// worse orders candidates: lower score first, and on equal scores the
// later ID, so the final order is score descending, then ID ascending.
func (ix *Index) worse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return ix.id(a.doc) > ix.id(b.doc)
}

// live reports whether term t is in some document.
func (ix *Index) live(t int32) bool { return t >= 0 && ix.terms.at(int(t)).df > 0 }

// normTable is, for one index version, each field's length normalisation
// weight_f / (1 − b_f + b_f·len_f/avglen_f) for lengths of up to
// normTableLen halves: the same divisions a build made once per document,
// made once per version here instead of once per posting.
type normTable struct {
	avg [numFields]float64
	n   [numFields][normTableLen]float64
}

const normTableLen = 1024

func (ix *Index) normTable() *normTable {
	ix.normsOnce.Do(func() {
		t := &normTable{}
		for f := range numFields {
			t.avg[f] = 1
			if ix.n > 0 && ix.sumLen[f] > 0 {
				t.avg[f] = ix.sumLen[f] / float64(ix.n)
			}
			for h := range normTableLen {
				t.n[f][h] = ix.norm(f, float32(h)/2, t.avg[f])
			}
		}
		ix.norms = t
	})
	return ix.norms
}

// norm is the length normalisation of a field of length l.
func (ix *Index) norm(f int, l float32, avg float64) float64 {
	return ix.p.weight[f] / (1 - ix.p.b[f] + ix.p.b[f]*float64(l)/avg)
}

// idf is the Okapi/Lucene IDF of a term in df documents (always
// positive), sharpened by idfPow.
func (ix *Index) idf(df int32) float64 {
	return math.Pow(math.Log(1+(float64(ix.n)-float64(df)+0.5)/(float64(df)+0.5)), ix.p.idfPow)
}

// postingWeights are the weights of term t's postings in this version,
// computed once: the first search of a term after an update pays for its
// postings, later ones only add.
func (ix *Index) postingWeights(t int32, ti *termInfo) []float32 {
	if ws, ok := ix.termWeights.Load(t); ok {
		return ws.([]float32)
	}
	nt := ix.normTable()
	idf := ix.idf(ti.df)
	ws := make([]float32, len(ti.post))
	for i := range ti.post {
		if ix.slots.at(int(ti.post[i].doc)).id != "" {
			ws[i] = ix.weight(nt, idf, &ti.post[i])
		}
	}
	ix.termWeights.Store(t, ws)
	return ws
}

// weight is a posting's BM25F contribution: the same arithmetic, in the
// same order, as a build that stored it did.
func (ix *Index) weight(nt *normTable, idf float64, p *posting) float32 {
	lens := ix.lens.at(int(p.doc))
	var tf float64
	for f := range numFields {
		if p.tf[f] == 0 {
			continue // adds an exact zero
		}
		var norm float64
		if h := int(lens[f] * 2); h < normTableLen {
			norm = nt.n[f][h]
		} else {
			norm = ix.norm(f, lens[f], nt.avg[f])
		}
		tf += float64(p.tf[f]) / 2 * norm
	}
	return float32(idf * tf * (ix.p.k1 + 1) / (ix.p.k1 + tf))
}

// Search returns up to k documents for query, best first.
//
// A query that is, up to case and spaces, hyphens and underscores, the name
// of a capability or of one of its tools comes first with Exact set
// (capability names before tool names, then by ID), whatever its score. The
// rest follow by BM25F score, ties broken by ID ascending; only documents
// with a positive score are returned. keep, when not nil, filters documents
// before the top k are taken. The result depends only on the index and the
// arguments.
func (ix *Index) Search(query string, k int, keep func(id string) bool) []Hit {
	if k <= 0 || ix.n == 0 {
		return nil
	}
	s := ix.pool.get(ix.slots.len())
	defer ix.pool.put(s)

	s.buf = splitWords(query, s.buf, func(w []byte, _ bool) {
		if len(s.terms) >= maxQueryTerms {
			return
		}
		if id, ok := ix.words.getBytes(w); ok { // no allocation
			t := ix.winfo.at(int(id)).term
			if t < 0 {
				return // a stop word
			}
			if ix.live(t) {
				s.addTerm(t, 1)
				return
			}
			// A word no document has any more reads as one never seen.
		}
		if isStop(w) {
			return
		}
		st := stem(string(w))
		if t, ok := ix.stems.get(st); ok && ix.live(t) {
			s.addTerm(t, 1)
			return
		}
		ix.expand(s, st)
	})
	for _, qt := range s.terms {
		ti := ix.terms.at(int(qt.t))
		ws := ix.postingWeights(qt.t, ti)
		for i := range ti.post {
			if ws[i] == 0 {
				continue // a removed document's
			}
			d := ti.post[i].doc
			if s.scores[d] == 0 {
				s.touched = append(s.touched, d)
			}
			s.scores[d] += ws[i] * qt.w
		}
	}

	s.buf = appendNorm(s.buf[:0], query)
	hits, exactDocs := ix.exactHits(s.buf, k, keep, s.scores)

	// Top k of the rest with a bounded heap whose root is the worst kept.
	room := k - len(hits)
	h := s.heap[:0]
	for _, d := range s.touched {
		c := cand{doc: d, score: s.scores[d]}
		if len(h) == room && (room == 0 || !ix.worse(h[0], c)) {
			continue // cannot enter: skip before calling keep
		}
		if slices.Contains(exactDocs, d) || (keep != nil && !keep(ix.id(d))) {
			continue
		}
		if len(h) < room {
			h = append(h, c)
			ix.siftUp(h, len(h)-1)
		} else {
			h[0] = c
			ix.siftDown(h, 0)
		}
	}
	s.heap = h
	slices.SortFunc(h, func(a, b cand) int {
		switch {
		case ix.worse(b, a):
			return -1
		case ix.worse(a, b):
			return 1
		}
		return 0
	})
	if hits == nil {
		hits = make([]Hit, 0, len(h))
	}
	for _, c := range h {
		hits = append(hits, Hit{ID: ix.id(c.doc), Score: float64(c.score)})
	}
	return hits
}

// exactHits returns the documents a query names exactly, in rank order,
// and their positions; norm is the query as appendNorm makes it.
func (ix *Index) exactHits(norm []byte, k int, keep func(string) bool, scores []float32) ([]Hit, []int32) {
	found, ok := ix.exact.getBytes(norm) // no allocation
	if !ok {
		return nil, nil
	}
	refs := slices.Clone(found)
	slices.SortFunc(refs, func(a, b exactRef) int {
		if a.named != b.named {
			if a.named {
				return -1
			}
			return 1
		}
		return strings.Compare(ix.id(a.doc), ix.id(b.doc))
	})
	var hits []Hit
	var docs []int32
	for _, r := range refs {
		if len(hits) == k {
			break
		}
		if keep != nil && !keep(ix.id(r.doc)) {
			continue
		}
		hits = append(hits, Hit{ID: ix.id(r.doc), Score: float64(scores[r.doc]), Exact: true, MatchedTool: r.tool})
		docs = append(docs, r.doc)
	}
	return hits, docs
}

// expand adds, at reduced weight, the index stems that share at least
// prefixMin bytes with st by one being a prefix of the other.
func (ix *Index) expand(s *scratch, st string) {
	pm := ix.p.prefixMin
	if ix.p.prefixWeight <= 0 || len(st) < pm || len(s.terms) >= maxQueryTerms {
		return
	}
	w := float32(ix.p.prefixWeight)
	for l := pm; l < len(st); l++ {
		if t, ok := ix.stems.get(st[:l]); ok && ix.live(t) {
			s.addTerm(t, w)
		}
	}
	// The stems st is a prefix of, ascending over both sorted lists, dead
	// ones skipped (a build would not have them).
	a, b := ix.sorted, ix.sortedDelta
	i, _ := slices.BinarySearch(a, st)
	j, _ := slices.BinarySearch(b, st)
	for n := 0; n < maxPrefixExpansions; {
		var next string
		switch {
		case i < len(a) && (j >= len(b) || a[i] < b[j]):
			next, i = a[i], i+1
		case j < len(b):
			next, j = b[j], j+1
		default:
			return
		}
		if !strings.HasPrefix(next, st) {
			return
		}
		if t, _ := ix.stems.get(next); ix.live(t) {
			s.addTerm(t, w)
			n++
		}
	}
}

func (ix *Index) siftUp(h []cand, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !ix.worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (ix *Index) siftDown(h []cand, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && ix.worse(h[r], h[l]) {
			m = r
		}
		if !ix.worse(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// Exact returns only the documents query names exactly (up to case,
// spaces, hyphens and underscores), capability names first, then by ID; a
// map lookup, far cheaper than Search. keep filters as in Search.
func (ix *Index) Exact(query string, k int, keep func(id string) bool) []Hit {
	if k <= 0 || ix.n == 0 {
		return nil
	}
	norm := appendNorm(nil, query)
	if len(norm) == 0 {
		return nil
	}
	s := ix.pool.get(ix.slots.len())
	defer ix.pool.put(s)
	hits, _ := ix.exactHits(norm, k, keep, s.scores) // all zero
	return hits
}
