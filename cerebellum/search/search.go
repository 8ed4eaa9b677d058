package search

import (
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
func worse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.doc > b.doc
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
	if k <= 0 || len(ix.ids) == 0 {
		return nil
	}
	s := ix.pool.get(len(ix.ids))
	defer ix.pool.put(s)

	s.buf = splitWords(query, s.buf, func(w []byte, _ bool) {
		if len(s.terms) >= maxQueryTerms {
			return
		}
		if id, ok := ix.words[string(w)]; ok { // no allocation
			if t := ix.wterm[id]; t >= 0 {
				s.addTerm(t, 1)
			}
			return
		}
		if isStop(w) {
			return
		}
		st := stem(string(w))
		if t, ok := ix.stems[st]; ok {
			s.addTerm(t, 1)
			return
		}
		ix.expand(s, st)
	})
	for _, qt := range s.terms {
		for _, p := range ix.post[ix.offs[qt.t]:ix.offs[qt.t+1]] {
			if s.scores[p.doc] == 0 {
				s.touched = append(s.touched, p.doc)
			}
			s.scores[p.doc] += p.w * qt.w
		}
	}

	s.buf = appendNorm(s.buf[:0], query)
	hits, exactDocs := ix.exactHits(s.buf, k, keep, s.scores)

	// Top k of the rest with a bounded heap whose root is the worst kept.
	room := k - len(hits)
	h := s.heap[:0]
	for _, d := range s.touched {
		c := cand{doc: d, score: s.scores[d]}
		if len(h) == room && (room == 0 || !worse(h[0], c)) {
			continue // cannot enter: skip before calling keep
		}
		if slices.Contains(exactDocs, d) || (keep != nil && !keep(ix.ids[d])) {
			continue
		}
		if len(h) < room {
			h = append(h, c)
			siftUp(h, len(h)-1)
		} else {
			h[0] = c
			siftDown(h, 0)
		}
	}
	s.heap = h
	slices.SortFunc(h, func(a, b cand) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	if hits == nil {
		hits = make([]Hit, 0, len(h))
	}
	for _, c := range h {
		hits = append(hits, Hit{ID: ix.ids[c.doc], Score: float64(c.score)})
	}
	return hits
}

// exactHits returns the documents a query names exactly, in rank order,
// and their positions; norm is the query as appendNorm makes it.
func (ix *Index) exactHits(norm []byte, k int, keep func(string) bool, scores []float32) ([]Hit, []int32) {
	head, ok := ix.exact[string(norm)] // no allocation
	if !ok {
		return nil, nil
	}
	var refs []exactRef
	for i := head; i >= 0; i = ix.exactRefs[i].next {
		refs = append(refs, ix.exactRefs[i])
	}
	slices.SortFunc(refs, func(a, b exactRef) int {
		if a.named != b.named {
			if a.named {
				return -1
			}
			return 1
		}
		return int(a.doc - b.doc)
	})
	var hits []Hit
	var docs []int32
	for _, r := range refs {
		if len(hits) == k {
			break
		}
		if keep != nil && !keep(ix.ids[r.doc]) {
			continue
		}
		hits = append(hits, Hit{ID: ix.ids[r.doc], Score: float64(scores[r.doc]), Exact: true, MatchedTool: r.tool})
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
		if t, ok := ix.stems[st[:l]]; ok {
			s.addTerm(t, w)
		}
	}
	i, _ := slices.BinarySearch(ix.sorted, st)
	for n := 0; i < len(ix.sorted) && n < maxPrefixExpansions && strings.HasPrefix(ix.sorted[i], st); i, n = i+1, n+1 {
		s.addTerm(ix.stems[ix.sorted[i]], w)
	}
}

func siftUp(h []cand, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func siftDown(h []cand, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && worse(h[r], h[l]) {
			m = r
		}
		if !worse(h[m], h[i]) {
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
	if k <= 0 || len(ix.ids) == 0 {
		return nil
	}
	norm := appendNorm(nil, query)
	if len(norm) == 0 {
		return nil
	}
	s := ix.pool.get(len(ix.ids))
	defer ix.pool.put(s)
	hits, _ := ix.exactHits(norm, k, keep, s.scores) // all zero
	return hits
}
