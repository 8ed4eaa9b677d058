package search

import (
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Doc is one capability as the index sees it.
type Doc struct {
	ID               string   // capability name (unique)
	Name             string   // capability name as shown
	Description      string   // capability description
	Keywords         []string // triggers + keywords + tags
	ToolNames        []string // names of the capability's tools
	ToolDescriptions []string // descriptions of the capability's tools
	Headings         []string // guide headings
}

// Hit is one search result.
type Hit struct {
	ID          string  // capability name
	Score       float64 // BM25F score; exact hits keep theirs, however low
	Exact       bool    // the query is the capability's or one of its tools' name
	MatchedTool string  // the tool the query named exactly, if any
}

// Fields of a document, each with its own weight and length normalisation.
const (
	fieldName = iota // capability name and ID, split and segmented
	fieldKeywords
	fieldTools // tool names, split and segmented
	fieldDesc
	fieldToolDesc
	fieldHeadings
	numFields
)

// params are the ranking constants: general BM25F settings. Short, precise
// fields (names, keywords) weigh more; descriptions are one or two
// sentences whose length says little about their topic, so they are only
// lightly length-normalised. The few values that were compared on data
// (b for descriptions, idfPow, the prefix weight) were chosen on one half of
// the MetaTool development queries and held on the other half; recall
// moves by under a point across sensible values, so nothing here hinges on
// them.
type params struct {
	k1     float64
	weight [numFields]float64
	b      [numFields]float64
	// idfPow > 1 sharpens IDF: in short descriptions a rare shared word
	// is far stronger evidence than a common one.
	idfPow float64
	// segWeight scales the name pieces found by segmentation, which are
	// guesses, against the words a name spells out.
	segWeight float64
	// A query word whose stem the index lacks may match index stems it is a
	// prefix of, or that are a prefix of it, sharing at least prefixMin
	// bytes; such a match counts prefixWeight of a real one. Truncation
	// joins derivations the stemmer leaves apart ("rental" and "rent").
	prefixMin    int
	prefixWeight float64
}

func defaultParams() params {
	return params{
		k1:           1.2,
		weight:       [numFields]float64{fieldName: 3, fieldKeywords: 2, fieldTools: 2, fieldDesc: 1, fieldToolDesc: 0.7, fieldHeadings: 0.7},
		b:            [numFields]float64{fieldName: 0.3, fieldKeywords: 0.3, fieldTools: 0.3, fieldDesc: 0.3, fieldToolDesc: 0.5, fieldHeadings: 0.5},
		idfPow:       1.5,
		segWeight:    0.5,
		prefixMin:    4,
		prefixWeight: 0.5,
	}
}

// posting is one document containing a term, with the term's weighted
// occurrences in each field, in halves (a piece of a split name counts a
// half; counts past 32,767 occurrences of one word in one field are
// capped). The BM25F weight depends on statistics of the whole index (IDF,
// average field lengths), so Search computes it from these counts: a change
// of one document then updates only its own postings, and the weight is
// the very number a build over the same documents gives.
type posting struct {
	doc int32
	tf  [numFields]uint16
}

// exactRef is a document a whole query can name exactly.
type exactRef struct {
	doc   int32
	named bool   // the capability's own name (ID or Name) matches
	tool  string // the first tool whose name matches, if any
}

// slot is one document of the index, live or removed. What Update needs
// to take it out again is read from doc anew.
type slot struct {
	id  string
	doc Doc
	// terms are the terms of the document's postings.
	terms []int32
}

// wordInfo is what the index knows of a word.
type wordInfo struct {
	text string
	term int32 // its stem's term; -1 for a stop word
	// known counts the documents' occurrences of the word in running text
	// or in a name that spells its words out: such a word may be a piece
	// of a run-together name (see segment).
	known int32
}

// termInfo is one term (stem): its documents, ascending by slot. A
// removed document's posting stays until a sixth of the list is such
// (dead); its slot has no ID then, and it weighs nothing.
type termInfo struct {
	stem string
	df   int32
	dead int32
	post []posting
	// claim is how much of post's array some version has filled, shared by
	// the versions sharing the array: a version appends in place only when
	// it is the one that filled it that far, so an update adds a posting
	// without copying the list, and two made from one index never collide.
	claim *atomic.Int32
}

// tok is one word occurrence of a document (while it is read).
type tok struct {
	word  int32
	field uint8
	seg   bool // a long name word that may be a run-together name
}

// Index is an immutable BM25F index over capabilities. Build one, or make
// the next from it with Update; Search is safe for concurrent use.
type Index struct {
	p params

	slots vec[slot]
	// lens are each document's field lengths, by slot.
	lens vec[[numFields]float32]
	byID smap[int32]
	n    int // live documents
	// sumLen are the field lengths summed over live documents (sums of
	// halves and ones, so exact in any order).
	sumLen [numFields]float64

	// Word table: every lower-cased word seen, and the stop words, map to
	// a word whose term (stem) is memoised, so a known query word costs
	// one map lookup. stems serves words never seen, stemmed on the fly.
	words smap[int32]
	winfo vec[wordInfo]
	stems smap[int32]
	terms vec[termInfo]
	// sorted are all stems ever seen, ascending (the base shared, the
	// delta this version's), for prefix lookups; a stem no live document
	// has any more (df 0) counts as absent.
	sorted, sortedDelta []string

	// Exact names: normalised name → the documents so named.
	exact smap[[]exactRef]
	// segDocs: a long name word that may be a run-together name → the
	// documents using it, which a change of what is known may split
	// differently.
	segDocs smap[[]int32]

	pool *scratchPool

	// norms caches the length normalisation of short fields for this
	// version's average lengths (see weight).
	normsOnce sync.Once
	norms     *normTable
	// termWeights caches, per term searched in this version, the weight
	// of each of its postings ([]float32 by term), computed on first use.
	termWeights sync.Map
}

// Len returns the number of documents in the index.
func (ix *Index) Len() int { return ix.n }

// id returns the ID of the document in slot d.
func (ix *Index) id(d int32) string { return ix.slots.at(int(d)).id }

// Build indexes docs. When IDs repeat, the first in input order is kept.
// Build does not modify docs.
func Build(docs []Doc) *Index { return buildWith(docs, defaultParams()) }

func buildWith(docs []Doc, p params) *Index {
	ix := &Index{p: p, byID: newSmap[int32](len(docs)), words: newSmap[int32](1024), stems: newSmap[int32](1024),
		exact: newSmap[[]exactRef](len(docs)), segDocs: newSmap[[]int32](64), pool: &scratchPool{}}
	ix.slots.all, ix.lens.all, ix.winfo.all, ix.terms.all = true, true, true, true
	for _, w := range stopList {
		ix.words.set(w, int32(ix.winfo.push(wordInfo{text: w, term: -1})))
	}
	ix.apply(docs, nil)
	return ix
}

// appendNorm appends to dst the form of a name or query used for exact
// matching: lower-case, without white space, hyphens or underscores, so
// "Web Search", "web-search" and "web_search" are one name.
func appendNorm(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '-' || c == '_' || c == ' ' || ('\t' <= c && c <= '\r'):
			case 'A' <= c && c <= 'Z':
				dst = append(dst, c+'a'-'A')
			default:
				dst = append(dst, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !unicode.IsSpace(r) {
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
	}
	return dst
}
