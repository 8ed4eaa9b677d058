package search

import (
	"math"
	"slices"
	"strings"
)

// Building runs in three passes. Pass A tokenises every field of every
// document once into a compact token stream, filling the word table and
// learning the vocabulary. Pass B turns each document's tokens into per-field
// term counts, splitting run-together names with the now complete
// vocabulary. Pass C computes IDF and field length averages and writes
// term-major postings with final weights.

// wordInfo is what the builder knows of a word.
type wordInfo struct {
	term  int32 // its stem's term; -1 for a stop word
	known bool  // seen in running text or a spelled-out name: a segmentation piece
}

// tok is one word occurrence in the token stream.
type tok struct {
	word  int32
	field uint8
	seg   bool // a long name word that may be a run-together name
}

// entry is one term's weighted occurrences per field in one document.
type entry struct {
	term int32
	tf   [numFields]float32
}

type builder struct {
	p      params
	words  map[string]int32 // word → index in info
	info   []wordInfo
	text   []string         // word index → word
	stems  map[string]int32 // stem → term
	toks   []tok
	buf    []byte
	pieces []int32 // scratch for addName
}

func newBuilder(p params) *builder {
	bd := &builder{p: p, words: make(map[string]int32), stems: make(map[string]int32)}
	for _, w := range stopList {
		bd.words[w] = int32(len(bd.info))
		bd.info = append(bd.info, wordInfo{term: -1})
		bd.text = append(bd.text, w)
	}
	return bd
}

// word returns the word index of w, adding it (and its stem) if new, or -1
// for a single letter.
func (bd *builder) word(w []byte) int32 {
	if id, ok := bd.words[string(w)]; ok { // no allocation
		return id
	}
	if isStop(w) {
		return -1
	}
	s := string(w)
	st := stem(s)
	t, ok := bd.stems[st]
	if !ok {
		t = int32(len(bd.stems))
		bd.stems[st] = t
	}
	id := int32(len(bd.info))
	bd.words[s] = id
	bd.info = append(bd.info, wordInfo{term: t})
	bd.text = append(bd.text, s)
	return id
}

// addText tokenises running text into field f; its words become vocabulary.
func (bd *builder) addText(s string, f uint8) {
	bd.buf = splitWords(s, bd.buf, func(w []byte, _ bool) {
		if id := bd.word(w); id >= 0 && bd.info[id].term >= 0 {
			bd.info[id].known = true
			bd.toks = append(bd.toks, tok{word: id, field: f})
		}
	})
}

// addName tokenises a name into field f. The words of a name that spells
// them out ("weather-tool", "WeatherTool") become vocabulary; a long word of
// a name that does not may be a run-together name, to split in pass B.
func (bd *builder) addName(s string, f uint8) {
	pieces := bd.pieces[:0]
	bd.buf = splitWords(s, bd.buf, func(w []byte, joined bool) {
		id := bd.word(w)
		if !joined {
			pieces = append(pieces, id)
		}
		if id >= 0 && bd.info[id].term >= 0 {
			bd.toks = append(bd.toks, tok{word: id, field: f, seg: !joined && len(w) >= minSegWord})
		}
	})
	if len(pieces) > 1 {
		for _, id := range pieces {
			if id >= 0 && bd.info[id].term >= 0 {
				bd.info[id].known = true
			}
		}
	}
	bd.pieces = pieces
}

func buildWith(docs []Doc, p params) *Index {
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(docs[a].ID, docs[b].ID) })
	kept := order[:0] // compacted in place: writes never pass the reads
	for _, o := range order {
		if len(kept) > 0 && docs[o].ID == docs[kept[len(kept)-1]].ID {
			continue
		}
		kept = append(kept, o)
	}
	n := len(kept)
	names := n
	for _, o := range kept {
		names += len(docs[o].ToolNames)
	}
	ix := &Index{
		ids:       make([]string, n),
		exact:     make(map[string]int32, names),
		exactRefs: make([]exactRef, 0, names),
		p:         p,
	}

	// Pass A: tokenise.
	bd := newBuilder(p)
	bd.toks = make([]tok, 0, textSize(docs, kept)/6) // about one word per 6 bytes
	tokOff := make([]int, n+1)
	for d, o := range kept {
		doc := &docs[o]
		ix.ids[d] = doc.ID
		bd.addName(doc.Name, fieldName)
		if doc.ID != doc.Name {
			bd.addName(doc.ID, fieldName)
		}
		for _, s := range doc.Keywords {
			bd.addText(s, fieldKeywords)
		}
		for _, s := range doc.ToolNames {
			bd.addName(s, fieldTools)
		}
		bd.addText(doc.Description, fieldDesc)
		for _, s := range doc.ToolDescriptions {
			bd.addText(s, fieldToolDesc)
		}
		for _, s := range doc.Headings {
			bd.addText(s, fieldHeadings)
		}
		tokOff[d+1] = len(bd.toks)
		bd.buf = ix.addExact(doc, int32(d), bd.buf)
	}

	// Pass B: per-document weighted term counts, doc-major.
	nTerms := len(bd.stems)
	var (
		all    = make([]entry, 0, len(bd.toks)/2) // most words repeat in a document
		docOff = make([]int32, n+1)
		lens   = make([][numFields]float32, n)
		sumLen [numFields]float64
		df     = make([]int32, nTerms)
		slot   = make([]int32, nTerms) // term → index in cur, valid when last[term] == d
		last   = make([]int32, nTerms)
		cur    []entry
		pieces = make(map[int32][]int32) // run-together word → words it splits into
	)
	for i := range last {
		last[i] = -1
	}
	known := func(s string) bool {
		id, ok := bd.words[s]
		return ok && bd.info[id].known
	}
	count := func(d int32, t int32, f uint8, w float32) {
		if last[t] != d {
			last[t] = d
			slot[t] = int32(len(cur))
			cur = append(cur, entry{term: t})
		}
		cur[slot[t]].tf[f] += w
		lens[d][f] += w
	}
	for d := range n {
		cur = cur[:0]
		for _, tk := range bd.toks[tokOff[d]:tokOff[d+1]] {
			count(int32(d), bd.info[tk.word].term, tk.field, 1)
			if !tk.seg || bd.info[tk.word].known {
				continue
			}
			ps, ok := pieces[tk.word]
			if !ok {
				for _, pc := range segment(bd.text[tk.word], known) {
					ps = append(ps, bd.words[pc])
				}
				pieces[tk.word] = ps
			}
			for _, pw := range ps {
				count(int32(d), bd.info[pw].term, tk.field, float32(p.segWeight))
			}
		}
		// Entry order within a document does not matter: postings are
		// written document by document, so each term's list is ordered.
		for _, e := range cur {
			df[e.term]++
		}
		all = append(all, cur...)
		docOff[d+1] = int32(len(all))
		for f := range numFields {
			sumLen[f] += float64(lens[d][f])
		}
	}

	// Pass C: IDF, average field lengths, term-major postings.
	var avg [numFields]float64
	for f := range numFields {
		avg[f] = 1
		if n > 0 && sumLen[f] > 0 {
			avg[f] = sumLen[f] / float64(n)
		}
	}
	idf := make([]float64, nTerms)
	for t, c := range df {
		// Okapi/Lucene IDF (always positive), sharpened by idfPow.
		idf[t] = math.Pow(math.Log(1+(float64(n)-float64(c)+0.5)/(float64(c)+0.5)), p.idfPow)
	}
	ix.offs = make([]int32, nTerms+1)
	for t, c := range df {
		ix.offs[t+1] = ix.offs[t] + c
	}
	ix.post = make([]posting, len(all))
	fill := slices.Clone(ix.offs[:nTerms])
	for d := range n {
		var norm [numFields]float64
		for f := range numFields {
			norm[f] = p.weight[f] / (1 - p.b[f] + p.b[f]*float64(lens[d][f])/avg[f])
		}
		for _, e := range all[docOff[d]:docOff[d+1]] {
			var tf float64
			for f := range numFields {
				tf += float64(e.tf[f]) * norm[f]
			}
			ix.post[fill[e.term]] = posting{doc: int32(d), w: float32(idf[e.term] * tf * (p.k1 + 1) / (p.k1 + tf))}
			fill[e.term]++
		}
	}

	ix.words = bd.words
	ix.wterm = make([]int32, len(bd.info))
	for i, wi := range bd.info {
		ix.wterm[i] = wi.term
	}
	ix.stems = bd.stems
	ix.sorted = make([]string, 0, nTerms)
	for s := range bd.stems {
		ix.sorted = append(ix.sorted, s)
	}
	slices.Sort(ix.sorted)
	ix.pool = &scratchPool{}
	return ix
}

// textSize returns the bytes of text in the kept documents.
func textSize(docs []Doc, kept []int) int {
	n := 0
	for _, o := range kept {
		d := &docs[o]
		n += len(d.ID) + len(d.Name) + len(d.Description)
		for _, l := range [][]string{d.Keywords, d.ToolNames, d.ToolDescriptions, d.Headings} {
			for _, s := range l {
				n += len(s) + 1
			}
		}
	}
	return n
}
