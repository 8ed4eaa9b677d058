package search

import (
	"slices"
	"strings"
	"sync/atomic"
)

// Update returns the index of ix's documents with changed added, each
// replacing the document of its ID if there is one, and the documents of
// the IDs in removed taken out (an ID both removed and changed is
// replaced). Of changed documents sharing an ID the first is used. ix is
// not modified and may still be searched.
//
// The work is that of the documents changed, plus those whose run-together
// names the change may split differently (when it adds the first or
// removes the last use of a word). The result ranks exactly as Build of
// the same documents does: every statistic the ranking uses is kept
// exactly, and weights are computed from them at search time.
func (ix *Index) Update(changed []Doc, removed []string) *Index {
	nx := &Index{p: ix.p, slots: ix.slots.fork(), lens: ix.lens.fork(), byID: ix.byID.fork(), n: ix.n, sumLen: ix.sumLen,
		words: ix.words.fork(), winfo: ix.winfo.fork(), stems: ix.stems.fork(), terms: ix.terms.fork(),
		sorted: ix.sorted, sortedDelta: slices.Clone(ix.sortedDelta), exact: ix.exact.fork(), segDocs: ix.segDocs.fork(), pool: ix.pool}
	docs := make([]Doc, len(changed))
	copy(docs, changed)
	nx.apply(docs, removed)
	for _, m := range []interface{ settle() }{&nx.byID, &nx.words, &nx.stems, &nx.exact, &nx.segDocs} {
		m.settle()
	}
	if len(nx.sortedDelta) > max(1024, len(nx.sorted)/16) {
		nx.sorted = mergeSorted(nx.sorted, nx.sortedDelta)
		nx.sortedDelta = nil
	}
	return nx
}

// apply removes the documents of removed and those docs replace, then adds
// docs (the first of each ID) and re-counts the documents whose names a
// change of what is known may split differently. It keeps docs.
func (ix *Index) apply(docs []Doc, removed []string) {
	flipped := map[int32]bool{} // words whose known count passed zero
	for _, id := range removed {
		ix.remove(id, flipped)
	}
	seen := make(map[string]bool, len(docs))
	var added []int32
	order := make([]int, 0, len(docs))
	for i := range docs {
		if !seen[docs[i].ID] {
			seen[docs[i].ID] = true
			order = append(order, i)
		}
	}
	// In ID order, as a build has always numbered documents.
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(docs[a].ID, docs[b].ID) })
	for _, i := range order {
		ix.remove(docs[i].ID, flipped)
	}
	toks := make([][]tok, 0, len(order))
	for _, i := range order {
		d, t := ix.tokenize(&docs[i], flipped)
		added, toks = append(added, d), append(toks, t)
	}
	if ix.slots.all {
		slices.Sort(ix.sorted)
	}
	redo := ix.resplit(flipped, added)
	for _, d := range redo {
		ix.unpost(d)
	}
	var c counter
	for _, d := range redo {
		ix.post(d, ix.read(&ix.slots.at(int(d)).doc).toks, &c)
	}
	for i, d := range added {
		ix.post(d, toks[i], &c)
		toks[i] = nil
	}
}

// read tokenises a document into the word table, adding words it lacks.
func (ix *Index) read(doc *Doc) *tokBuilder {
	tb := &tokBuilder{ix: ix}
	tb.addName(doc.Name, fieldName)
	if doc.ID != doc.Name {
		tb.addName(doc.ID, fieldName)
	}
	for _, s := range doc.Keywords {
		tb.addText(s, fieldKeywords)
	}
	for _, s := range doc.ToolNames {
		tb.addName(s, fieldTools)
	}
	tb.addText(doc.Description, fieldDesc)
	for _, s := range doc.ToolDescriptions {
		tb.addText(s, fieldToolDesc)
	}
	for _, s := range doc.Headings {
		tb.addText(s, fieldHeadings)
	}
	return tb
}

// segWords are the long name words of tb a change of what is known may
// split differently: those the document does not make known itself.
func (tb *tokBuilder) segWords() []int32 {
	var segs []int32
	for _, t := range tb.toks {
		if t.seg && !slices.Contains(segs, t.word) && !slices.Contains(tb.known, t.word) {
			segs = append(segs, t.word)
		}
	}
	return segs
}

// exactNorms are the normalised exact names of doc.
func exactNorms(doc *Doc) []string {
	var out []string
	for _, s := range append([]string{doc.ID, doc.Name}, doc.ToolNames...) {
		if n := string(appendNorm(nil, s)); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// counter finds a term's entry among a document's while post counts it.
type counter struct {
	last []int32 // term → 1 + the document last counted, 0 for none
	at   []int32 // term → its entry in that document's
}

// remove takes the document of id out, if there is one.
func (ix *Index) remove(id string, flipped map[int32]bool) {
	d, ok := ix.byID.get(id)
	if !ok {
		return
	}
	ix.bury(d)
	s := ix.slots.mut(int(d))
	tb := ix.read(&s.doc)
	for _, w := range tb.known {
		wi := ix.winfo.mut(int(w))
		if wi.known--; wi.known == 0 {
			flipped[w] = true
		}
	}
	for _, norm := range exactNorms(&s.doc) {
		refs, _ := ix.exact.get(norm)
		refs = slices.DeleteFunc(slices.Clone(refs), func(r exactRef) bool { return r.doc == d })
		if len(refs) == 0 {
			ix.exact.del(norm)
		} else {
			ix.exact.set(norm, refs)
		}
	}
	for _, w := range tb.segWords() {
		text := ix.winfo.at(int(w)).text
		ds, _ := ix.segDocs.get(text)
		ds = slices.DeleteFunc(slices.Clone(ds), func(x int32) bool { return x == d })
		if len(ds) == 0 {
			ix.segDocs.del(text)
		} else {
			ix.segDocs.set(text, ds)
		}
	}
	*s = slot{}
	ix.byID.del(id)
	ix.n--
}

// tokenize gives doc a slot and reads its words; its postings are made by
// post, with the tokens returned, once what is known is settled.
func (ix *Index) tokenize(doc *Doc, flipped map[int32]bool) (int32, []tok) {
	own := *doc // the index keeps its own lists (the strings are immutable)
	own.Keywords, own.ToolNames = slices.Clone(doc.Keywords), slices.Clone(doc.ToolNames)
	own.ToolDescriptions, own.Headings = slices.Clone(doc.ToolDescriptions), slices.Clone(doc.Headings)
	d := int32(ix.slots.push(slot{id: doc.ID, doc: own}))
	ix.lens.push([numFields]float32{})
	ix.byID.set(doc.ID, d)
	ix.n++
	tb := ix.read(doc)
	for _, w := range tb.known {
		wi := ix.winfo.mut(int(w))
		if wi.known++; wi.known == 1 {
			flipped[w] = true
		}
	}
	for _, w := range tb.segWords() {
		text := ix.winfo.at(int(w)).text
		ds, _ := ix.segDocs.get(text)
		if !ix.slots.all {
			ds = slices.Clip(ds)
		}
		ix.segDocs.set(text, append(ds, d))
	}
	ix.addExact(doc, d)
	return d, tb.toks
}

// tokBuilder reads one document's words into the word table.
type tokBuilder struct {
	ix     *Index
	toks   []tok
	known  []int32 // one entry per occurrence that makes a word known
	buf    []byte
	pieces []int32
}

// word returns the word index of w, adding it (and its stem) if new, or -1
// for a single letter.
func (tb *tokBuilder) word(w []byte) int32 {
	ix := tb.ix
	if id, ok := ix.words.getBytes(w); ok {
		return id
	}
	if isStop(w) {
		return -1
	}
	s := string(w)
	st := stem(s)
	t, ok := ix.stems.get(st)
	if !ok {
		t = int32(ix.terms.push(termInfo{stem: st}))
		ix.stems.set(st, t)
		if ix.slots.all {
			ix.sorted = append(ix.sorted, st) // sorted once at the end
		} else {
			i, _ := slices.BinarySearch(ix.sortedDelta, st)
			ix.sortedDelta = slices.Insert(ix.sortedDelta, i, st)
		}
	}
	id := int32(ix.winfo.push(wordInfo{text: s, term: t}))
	ix.words.set(s, id)
	return id
}

// addText reads running text into field f; its words become known.
func (tb *tokBuilder) addText(s string, f uint8) {
	tb.buf = splitWords(s, tb.buf, func(w []byte, _ bool) {
		if id := tb.word(w); id >= 0 && tb.ix.winfo.at(int(id)).term >= 0 {
			tb.known = append(tb.known, id)
			tb.toks = append(tb.toks, tok{word: id, field: f})
		}
	})
}

// addName reads a name into field f. The words of a name that spells them
// out ("weather-tool", "WeatherTool") become known; a long word of a name
// that does not may be a run-together name, split in post.
func (tb *tokBuilder) addName(s string, f uint8) {
	pieces := tb.pieces[:0]
	tb.buf = splitWords(s, tb.buf, func(w []byte, joined bool) {
		id := tb.word(w)
		if !joined {
			pieces = append(pieces, id)
		}
		if id >= 0 && tb.ix.winfo.at(int(id)).term >= 0 {
			tb.toks = append(tb.toks, tok{word: id, field: f, seg: !joined && len(w) >= minSegWord})
		}
	})
	if len(pieces) > 1 {
		for _, id := range pieces {
			if id >= 0 && tb.ix.winfo.at(int(id)).term >= 0 {
				tb.known = append(tb.known, id)
			}
		}
	}
	tb.pieces = pieces
}

// addExact records the names a whole query may give doc d by: its ID and
// Name, and its tools' names, one reference per normalised name, recording
// whether the capability itself is so named and the first tool that is.
func (ix *Index) addExact(doc *Doc, d int32) {
	var buf []byte
	add := func(s string, named bool, tool string) {
		buf = appendNorm(buf[:0], s)
		if len(buf) == 0 {
			return
		}
		key := string(buf)
		refs, _ := ix.exact.get(key)
		if i := slices.IndexFunc(refs, func(r exactRef) bool { return r.doc == d }); i >= 0 {
			refs = slices.Clone(refs)
			refs[i].named = refs[i].named || named
			if refs[i].tool == "" {
				refs[i].tool = tool
			}
		} else {
			if !ix.slots.all {
				refs = slices.Clip(refs)
			}
			refs = append(refs, exactRef{doc: d, named: named, tool: tool})
		}
		ix.exact.set(key, refs)
	}
	add(doc.ID, true, "")
	add(doc.Name, true, "")
	for _, s := range doc.ToolNames {
		add(s, false, s)
	}
}

// known reports whether word s may be a piece of a run-together name.
func (ix *Index) known(s string) bool {
	id, ok := ix.words.get(s)
	return ok && ix.winfo.at(int(id)).known > 0
}

// resplit returns the documents, other than added ones, using a long name
// word whose split a word of flipped (known before and not now, or the
// reverse) may change: the word itself, or one containing it.
func (ix *Index) resplit(flipped map[int32]bool, added []int32) []int32 {
	if len(flipped) == 0 {
		return nil
	}
	var texts []string
	for w := range flipped {
		texts = append(texts, ix.winfo.at(int(w)).text)
	}
	var redo []int32
	ix.segDocs.each(func(seg string, ds []int32) {
		for _, t := range texts {
			if t == seg || (len(t) >= minSegment && len(t) <= maxSegment && strings.Contains(seg, t)) {
				redo = append(redo, ds...)
				return
			}
		}
	})
	slices.Sort(redo)
	redo = slices.Compact(redo)
	return slices.DeleteFunc(redo, func(d int32) bool { _, isNew := slices.BinarySearch(added, d); return isNew })
}

// post counts document d's terms (splitting its run-together names with
// what is known now) and adds its postings and lengths.
func (ix *Index) post(d int32, toks []tok, c *counter) {
	lens := ix.lens.mut(int(d))
	var entries []posting // tf per term, in order of first occurrence
	var terms []int32
	if n := ix.terms.len(); len(c.last) < n {
		c.last = append(c.last, make([]int32, n-len(c.last))...)
		c.at = append(c.at, make([]int32, n-len(c.at))...)
	}
	count := func(t int32, f uint8, halves uint16, w float32) {
		if c.last[t] != d+1 {
			c.last[t], c.at[t] = d+1, int32(len(terms))
			terms = append(terms, t)
			entries = append(entries, posting{doc: d})
		}
		if e := &entries[c.at[t]]; e.tf[f] <= 65533 { // capped (see posting)
			e.tf[f] += halves
		}
		lens[f] += w
	}
	var pieces map[int32][]int32
	for _, tk := range toks {
		wi := ix.winfo.at(int(tk.word))
		count(wi.term, tk.field, 2, 1)
		if !tk.seg || wi.known > 0 {
			continue
		}
		ps, ok := pieces[tk.word]
		if !ok {
			for _, pc := range segment(wi.text, ix.known) {
				id, _ := ix.words.get(pc)
				ps = append(ps, id)
			}
			if pieces == nil {
				pieces = map[int32][]int32{}
			}
			pieces[tk.word] = ps
		}
		for _, pw := range ps {
			count(ix.winfo.at(int(pw)).term, tk.field, 1, float32(ix.p.segWeight))
		}
	}
	for i, t := range terms {
		ti := ix.terms.mut(int(t))
		j, _ := slices.BinarySearchFunc(ti.post, d, func(p posting, d int32) int { return int(p.doc - d) })
		switch n := len(ti.post); {
		case j == n && ix.slots.all:
			ti.post = append(ti.post, entries[i]) // a fresh index owns its lists
		case j == n && n < cap(ti.post) && ti.claim != nil && ti.claim.CompareAndSwap(int32(n), int32(n+1)):
			ti.post = append(ti.post, entries[i]) // past every version's end
		case j == n:
			grown := make([]posting, n, n+n/4+4)
			copy(grown, ti.post)
			ti.post = append(grown, entries[i])
			ti.claim = new(atomic.Int32)
			ti.claim.Store(int32(len(ti.post)))
		default:
			ti.post = slices.Insert(slices.Clip(ti.post), j, entries[i])
			ti.claim = nil
		}
		ti.df++
	}
	ix.slots.mut(int(d)).terms = terms
	for f := range numFields {
		ix.sumLen[f] += float64(lens[f])
	}
}

// bury takes removed document d's lengths out and leaves its postings to
// weigh nothing (its slot loses its ID), compacting a list once a sixth of
// it is such.
func (ix *Index) bury(d int32) {
	s := ix.slots.mut(int(d))
	for _, t := range s.terms {
		ti := ix.terms.mut(int(t))
		ti.df--
		if ti.dead++; int(ti.dead) > len(ti.post)/6 {
			live := make([]posting, 0, ti.df+ti.df/4+4)
			for _, p := range ti.post {
				if p.doc != d && ix.slots.at(int(p.doc)).id != "" {
					live = append(live, p)
				}
			}
			ti.post, ti.dead = live, 0
			ti.claim = new(atomic.Int32)
			ti.claim.Store(int32(len(live)))
		}
	}
	s.terms = nil
	lens := ix.lens.mut(int(d))
	for f := range numFields {
		ix.sumLen[f] -= float64(lens[f])
	}
	*lens = [numFields]float32{}
}

// unpost takes document d's postings and lengths out.
func (ix *Index) unpost(d int32) {
	s := ix.slots.mut(int(d))
	for _, t := range s.terms {
		ti := ix.terms.mut(int(t))
		if j, ok := slices.BinarySearchFunc(ti.post, d, func(p posting, d int32) int { return int(p.doc - d) }); ok {
			ti.post = slices.Delete(slices.Clone(ti.post), j, j+1)
			ti.df--
			ti.claim = nil
		}
	}
	s.terms = nil
	lens := ix.lens.mut(int(d))
	for f := range numFields {
		ix.sumLen[f] -= float64(lens[f])
	}
	*lens = [numFields]float32{}
}

// mergeSorted merges two ascending lists.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// Next returns the index of exactly docs, made from ix by Update with the
// documents that differ from those ix holds (compared field by field) and
// those it holds that docs lack: what a registry needs when it knows the
// new documents but not which changed. When IDs repeat, the first in input
// order is kept, as in Build.
func (ix *Index) Next(docs []Doc) *Index {
	seen := make(map[string]bool, len(docs))
	var changed []Doc
	for i := range docs {
		d := &docs[i]
		if seen[d.ID] {
			continue
		}
		seen[d.ID] = true
		if s, ok := ix.byID.get(d.ID); !ok || !sameDoc(&ix.slots.at(int(s)).doc, d) {
			changed = append(changed, *d)
		}
	}
	var removed []string
	for i := range ix.slots.len() {
		if id := ix.slots.at(i).id; id != "" && !seen[id] {
			removed = append(removed, id)
		}
	}
	if len(changed) == 0 && len(removed) == 0 {
		return ix
	}
	return ix.Update(changed, removed)
}

func sameDoc(a, b *Doc) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Description == b.Description &&
		slices.Equal(a.Keywords, b.Keywords) && slices.Equal(a.ToolNames, b.ToolNames) &&
		slices.Equal(a.ToolDescriptions, b.ToolDescriptions) && slices.Equal(a.Headings, b.Headings)
}
