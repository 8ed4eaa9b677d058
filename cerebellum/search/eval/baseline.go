package eval

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// The two baselines tool_search is measured against. Both rank the same
// documents and return capability names.

// bm25StopWords is the small stop list of the published MetaTool BM25
// baseline (articles, auxiliaries, prepositions, pronouns).
var bm25StopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "but": true,
	"by": true, "for": true, "if": true, "in": true, "into": true, "is": true, "it": true, "no": true,
	"not": true, "of": true, "on": true, "or": true, "such": true, "that": true, "the": true,
	"their": true, "then": true, "there": true, "these": true, "they": true, "this": true, "to": true,
	"was": true, "will": true, "with": true, "i": true, "me": true, "my": true, "you": true,
	"your": true, "can": true, "do": true, "what": true, "how": true,
}

// bm25Tokens lower-cases s and splits it on non-alphanumerics and camelCase;
// no stemming.
func bm25Tokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			w := strings.ToLower(string(cur))
			if !bm25StopWords[w] {
				out = append(out, w)
			}
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prev := rs[i-1]
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// BM25 is plain Okapi BM25 (k1 = 1.2, b = 0.75) over name + description,
// the published baseline.
type BM25 struct {
	ids      []string
	tf       []map[string]int
	dl       []float64
	avgdl    float64
	idf      map[string]float64
	k1, b    float64
	postings map[string][]int
}

// NewBM25 indexes docs (Name and Description only).
func NewBM25(docs []search.Doc) *BM25 {
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b search.Doc) int { return cmp.Compare(a.ID, b.ID) })
	m := &BM25{k1: 1.2, b: 0.75, idf: map[string]float64{}, postings: map[string][]int{}}
	var total float64
	for i, d := range docs {
		toks := bm25Tokens(d.Name + " " + d.Description)
		tf := map[string]int{}
		for _, t := range toks {
			if tf[t] == 0 {
				m.postings[t] = append(m.postings[t], i)
			}
			tf[t]++
		}
		m.ids = append(m.ids, d.ID)
		m.tf = append(m.tf, tf)
		m.dl = append(m.dl, float64(len(toks)))
		total += float64(len(toks))
	}
	n := float64(len(docs))
	if n > 0 {
		m.avgdl = total / n
	}
	if m.avgdl == 0 {
		m.avgdl = 1
	}
	for t, p := range m.postings {
		df := float64(len(p))
		m.idf[t] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return m
}

// Name implements Namer.
func (m *BM25) Name() string { return "bm25" }

// Rank implements Ranker.
func (m *BM25) Rank(query string, k int) []string {
	scores := map[int]float64{}
	for _, t := range bm25Tokens(query) { // repeated query terms count again, as in Okapi
		for _, d := range m.postings[t] {
			f := float64(m.tf[d][t])
			scores[d] += m.idf[t] * f * (m.k1 + 1) / (f + m.k1*(1-m.b+m.b*m.dl[d]/m.avgdl))
		}
	}
	return topK(scores, m.ids, k)
}

// Substring is the reference product's tool_search: the query is
// lower-cased and split on anything but letters, digits and underscores;
// terms under three characters are dropped; each term found as a substring
// of a field adds that field's weight (name 4, tool names 3, keywords 2,
// description 2, tool descriptions 1). No IDF, no stemming.
type Substring struct {
	ids    []string
	fields [][5]string
}

// NewSubstring indexes docs.
func NewSubstring(docs []search.Doc) *Substring {
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b search.Doc) int { return cmp.Compare(a.ID, b.ID) })
	m := &Substring{}
	for _, d := range docs {
		m.ids = append(m.ids, d.ID)
		m.fields = append(m.fields, [5]string{
			strings.ToLower(d.Name),
			strings.ToLower(strings.Join(d.ToolNames, " ")),
			strings.ToLower(strings.Join(d.Keywords, " ")),
			strings.ToLower(d.Description),
			strings.ToLower(strings.Join(d.ToolDescriptions, " ")),
		})
	}
	return m
}

var substringWeights = [5]float64{4, 3, 2, 2, 1}

// Name implements Namer.
func (m *Substring) Name() string { return "substring" }

// Rank implements Ranker.
func (m *Substring) Rank(query string, k int) []string {
	var terms []string
	for _, t := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if utf8.RuneCountInString(t) >= 3 {
			terms = append(terms, t) // repeated terms count again, as in the reference
		}
	}
	scores := map[int]float64{}
	for d, fs := range m.fields {
		var s float64
		for _, t := range terms {
			for i, f := range fs {
				if strings.Contains(f, t) {
					s += substringWeights[i]
				}
			}
		}
		if s > 0 {
			scores[d] = s
		}
	}
	return topK(scores, m.ids, k)
}

// topK returns the ids of the k best scores, ties by ID ascending (ids are
// sorted, so by index).
func topK(scores map[int]float64, ids []string, k int) []string {
	docs := make([]int, 0, len(scores))
	for d := range scores {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(docs) > k {
		docs = docs[:k]
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = ids[d]
	}
	return out
}
