package search

import (
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

// posting is one document containing a term, with the term's final,
// query-independent BM25F contribution to that document's score.
type posting struct {
	doc int32
	w   float32
}

// exactRef is a document a whole query can name exactly.
type exactRef struct {
	doc   int32
	named bool   // the capability's own name (ID or Name) matches
	tool  string // the first tool whose name matches, if any
	next  int32  // next reference with the same key, -1 at the end
}

// Index is an immutable BM25F index over capabilities. Build it once; Search
// is safe for concurrent use.
type Index struct {
	ids []string // document IDs, ascending; a document is its position here

	// Word table: every lower-cased word seen at build time, and the stop
	// words, map to a word whose term (stem) is memoised in wterm (-1 for a
	// stop word), so a known query word costs one map lookup. stems serves
	// words the index has never seen, stemmed on the fly.
	words map[string]int32
	wterm []int32
	stems map[string]int32

	// Postings in one flat array; term t owns post[offs[t]:offs[t+1]],
	// in ascending document order.
	offs []int32
	post []posting

	// Exact names: normalised name → first of its references in
	// exactRefs, chained through next.
	exact     map[string]int32
	exactRefs []exactRef

	sorted []string // all stems, ascending, for prefix lookups
	p      params

	pool *scratchPool
}

// Len returns the number of documents in the index.
func (ix *Index) Len() int { return len(ix.ids) }

// Build indexes docs. Documents are ordered by ID; when IDs repeat, the first
// in input order is kept. Build does not modify docs.
func Build(docs []Doc) *Index { return buildWith(docs, defaultParams()) }

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

// addExact records the names a whole query may give doc d by: its ID and
// Name, and its tools' names. A document has one reference per normalised
// name, recording whether the capability itself is so named and the first
// tool that is. buf is scratch space, returned for reuse.
func (ix *Index) addExact(doc *Doc, d int32, buf []byte) []byte {
	add := func(s string, named bool, tool string) {
		buf = appendNorm(buf[:0], s)
		if len(buf) == 0 {
			return
		}
		head, ok := ix.exact[string(buf)] // no allocation
		if ok && ix.exactRefs[head].doc == d {
			// This document's references head their chains.
			r := &ix.exactRefs[head]
			r.named = r.named || named
			if r.tool == "" {
				r.tool = tool
			}
			return
		}
		if !ok {
			head = -1
		}
		ix.exact[string(buf)] = int32(len(ix.exactRefs))
		ix.exactRefs = append(ix.exactRefs, exactRef{doc: d, named: named, tool: tool, next: head})
	}
	add(doc.ID, true, "")
	add(doc.Name, true, "")
	for _, s := range doc.ToolNames {
		add(s, false, s)
	}
	return buf
}
