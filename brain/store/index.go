package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// The search index: words of every searchable event, kept in the same
// transaction that writes the event, so a crash can never leave the index
// and the events apart. Two buckets:
//
//	search_index  ID → nested bucket, one per conversation, so its postings
//	              sit together and an event's update touches few pages:
//	              't' word 0x00 chunk (4-byte big-endian seq>>postingShift) → uvarint seqs
//	search_words  word 0x00 ID → empty: the conversations that have the word,
//	              written only when a word enters or leaves a conversation
//
// Search reads search_words first, so a conversation without the terms
// costs nothing, then the postings of the conversations it names. A word's
// postings are split into chunks of 1<<postingShift events, so adding one
// costs a bounded read-modify-write however common the word is. What to
// remove when an event is rewritten or truncated is found by splitting the
// stored record it replaces into words again (a record too damaged to
// decode leaves its postings, which then point at an event that does not
// show the word). Words are runs of letters and digits, lower-cased as
// Terms does, at most maxWordBytes long (longer ones are indexed by that
// prefix).
const (
	postingShift = 8
	maxWordBytes = 48
	prefixWord   = 't'
)

// words splits text into distinct lower-case words, as Terms splits a
// query, each cut to maxWordBytes.
func words(text string) []string {
	var out []string
	seen := map[string]bool{}
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := cutWord(lower(text[start:end]))
		start = -1
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
		} else {
			flush(i)
		}
	}
	flush(len(text))
	return out
}

// cutWord shortens w to at most maxWordBytes, at a rune boundary.
func cutWord(w string) string {
	if len(w) <= maxWordBytes {
		return w
	}
	n := maxWordBytes
	for n > 0 && !utf8.RuneStart(w[n]) {
		n--
	}
	return w[:n]
}

// wordPrefix starts every posting key of word in a conversation's bucket.
func wordPrefix(word string) []byte {
	k := make([]byte, 0, 1+len(word)+1+4)
	k = append(k, prefixWord)
	k = append(k, word...)
	return append(k, 0)
}

func wordKey(word string, seq uint64) []byte {
	return binary.BigEndian.AppendUint32(wordPrefix(word), uint32(seq>>postingShift))
}

// convWordKey is word's entry for conversation id in search_words.
func convWordKey(word string, id ID) []byte {
	k := make([]byte, 0, len(word)+1+8)
	k = append(k, word...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint64(k, uint64(id))
}

// hasWord reports whether a conversation's bucket has any posting of word.
func hasWord(cb *bolt.Bucket, word string) bool {
	p := wordPrefix(word)
	k, _ := cb.Cursor().Seek(p)
	return k != nil && bytes.HasPrefix(k, p)
}

// convIndex is a conversation's part of the index within one transaction.
type convIndex struct {
	id    ID
	cb    *bolt.Bucket // search_index/ID
	words *bolt.Bucket // search_words
}

func openConvIndex(tx *bolt.Tx, id ID, create bool) (*convIndex, error) {
	sb := tx.Bucket([]byte(bucketSearch))
	cb := sb.Bucket(conversationKey(id))
	if cb == nil && create {
		var err error
		if cb, err = sb.CreateBucket(conversationKey(id)); err != nil {
			return nil, fmt.Errorf("index conversation %s: %w", id, err)
		}
	}
	if cb == nil {
		return nil, nil
	}
	return &convIndex{id: id, cb: cb, words: tx.Bucket([]byte(bucketSearchWords))}, nil
}

// add posts seq under word.
func (x *convIndex) add(word string, seq uint64) error {
	k := wordKey(word, seq)
	cur := x.cb.Get(k)
	if cur == nil && !hasWord(x.cb, word) {
		if err := x.words.Put(convWordKey(word, x.id), nil); err != nil {
			return fmt.Errorf("index event %d: %w", seq, err)
		}
	}
	var buf [binary.MaxVarintLen64]byte
	post := buf[:binary.PutUvarint(buf[:], seq)]
	v := make([]byte, 0, len(cur)+len(post))
	if err := x.cb.Put(k, append(append(v, cur...), post...)); err != nil {
		return fmt.Errorf("index event %d: %w", seq, err)
	}
	return nil
}

// remove takes seq out of word's postings.
func (x *convIndex) remove(word string, seq uint64) error {
	k := wordKey(word, seq)
	var kept []byte
	for rest := x.cb.Get(k); len(rest) > 0; {
		s, n := binary.Uvarint(rest)
		if n <= 0 {
			break // damaged: what was read so far stays
		}
		if s != seq {
			kept = append(kept, rest[:n]...)
		}
		rest = rest[n:]
	}
	if len(kept) > 0 {
		if err := x.cb.Put(k, kept); err != nil {
			return fmt.Errorf("unindex event %d: %w", seq, err)
		}
		return nil
	}
	if err := x.cb.Delete(k); err != nil {
		return fmt.Errorf("unindex event %d: %w", seq, err)
	}
	if !hasWord(x.cb, word) {
		if err := x.words.Delete(convWordKey(word, x.id)); err != nil {
			return fmt.Errorf("unindex event %d: %w", seq, err)
		}
	}
	return nil
}

// indexEvent brings conversation id's index in step with e, about to be
// written into eb (its events) in the same transaction: the words of the
// record it replaces go, its own words come.
func indexEvent(eb *bolt.Bucket, id ID, e Event) error {
	var old []string
	if raw := eb.Get(encodeU64(e.Seq)); raw != nil {
		old = recordWords(raw)
	}
	var now []string
	if searchable(e.Type) && e.Text != "" {
		now = words(e.Text)
	}
	if len(old) == 0 && len(now) == 0 {
		return nil
	}
	x, err := openConvIndex(eb.Tx(), id, true)
	if err != nil {
		return err
	}
	gone, added := wordChanges(old, now)
	if err := x.removeAll(gone, e.Seq); err != nil {
		return err
	}
	return x.addAll(added, e.Seq)
}

// wordChanges are the words of old not in now and those of now not in old
// (already posted), each set sorted: see addAll and removeAll.
func wordChanges(old, now []string) (gone, added []string) {
	in := func(ws []string) map[string]bool {
		m := make(map[string]bool, len(ws))
		for _, w := range ws {
			m[w] = true
		}
		return m
	}
	inOld, inNow := in(old), in(now)
	for _, w := range old {
		if !inNow[w] {
			gone = append(gone, w)
		}
	}
	for _, w := range now {
		if !inOld[w] {
			added = append(added, w)
		}
	}
	slices.Sort(gone)
	slices.Sort(added)
	return gone, added
}

// addAll posts seq under each of words, which must be sorted. bbolt keeps
// a page's keys in one slice until the commit splits it, and a put shifts
// every key after the new one: ascending puts append, where the order a
// long reply's words come in made committing a 10 MB reply quadratic
// (1 s, most of it moving keys).
func (x *convIndex) addAll(words []string, seq uint64) error {
	for _, w := range words {
		if err := x.add(w, seq); err != nil {
			return err
		}
	}
	return nil
}

// removeAll takes seq out of each of words' postings, which must be
// sorted; in descending order, as a delete shifts every key after it.
func (x *convIndex) removeAll(words []string, seq uint64) error {
	for _, w := range slices.Backward(words) {
		if err := x.remove(w, seq); err != nil {
			return err
		}
	}
	return nil
}

// recordWords are the indexed words of a stored event record.
func recordWords(raw []byte) []string {
	var rec struct {
		Type EventType `json:"type"`
		Text string    `json:"text"`
	}
	if json.Unmarshal(raw, &rec) != nil || !searchable(rec.Type) || rec.Text == "" {
		return nil
	}
	return words(rec.Text)
}

// unindexEvents removes the postings of events seqs of conversation id,
// about to be deleted from eb (its events) in the same transaction.
func unindexEvents(eb *bolt.Bucket, id ID, seqs []uint64) error {
	x, err := openConvIndex(eb.Tx(), id, false)
	if x == nil || err != nil {
		return err
	}
	for _, s := range seqs {
		raw := eb.Get(encodeU64(s))
		if raw == nil {
			continue
		}
		ws := recordWords(raw)
		slices.Sort(ws)
		if err := x.removeAll(ws, s); err != nil {
			return err
		}
	}
	return nil
}

// dropIndex removes a conversation's whole index.
func dropIndex(tx *bolt.Tx, id ID) error {
	x, err := openConvIndex(tx, id, false)
	if x == nil || err != nil {
		return err
	}
	var ws []string
	_ = x.cb.ForEach(func(k, _ []byte) error {
		if i := bytes.IndexByte(k, 0); len(k) > 0 && k[0] == prefixWord && i > 0 {
			if w := string(k[1:i]); len(ws) == 0 || ws[len(ws)-1] != w {
				ws = append(ws, w) // keys are sorted: a word's chunks are together
			}
		}
		return nil
	})
	for _, w := range ws {
		if err := x.words.Delete(convWordKey(w, id)); err != nil {
			return fmt.Errorf("drop the search index of %s: %w", id, err)
		}
	}
	if err := tx.Bucket([]byte(bucketSearch)).DeleteBucket(conversationKey(id)); err != nil {
		return fmt.Errorf("drop the search index of %s: %w", id, err)
	}
	return nil
}

// rebuildIndex builds the index afresh from every stored event: the
// migrations to schemas 2 and 3, for a database written before the index
// (or before its search_words). A damaged event is left out, as Search
// left it out before.
func rebuildIndex(tx *bolt.Tx) error {
	for _, name := range []string{bucketSearch, bucketSearchWords} {
		if err := tx.DeleteBucket([]byte(name)); err != nil {
			return fmt.Errorf("clear %s: %w", name, err)
		}
		if _, err := tx.CreateBucket([]byte(name)); err != nil {
			return fmt.Errorf("create %s: %w", name, err)
		}
	}
	eb := tx.Bucket([]byte(bucketEvents))
	return eb.ForEach(func(k, v []byte) error {
		n, ok := decodeU64(k)
		if !ok || v != nil {
			return nil // a conversation's events are a nested bucket
		}
		cb := eb.Bucket(k)
		if cb == nil {
			return nil
		}
		type posted struct {
			seq   uint64
			words []string
		}
		var evs []posted
		_ = cb.ForEach(func(sk, raw []byte) error {
			if seq, ok := decodeU64(sk); ok && raw != nil {
				if ws := recordWords(raw); len(ws) > 0 {
					evs = append(evs, posted{seq, ws})
				}
			}
			return nil
		})
		if len(evs) == 0 {
			return nil
		}
		x, err := openConvIndex(tx, ID(n), true)
		if err != nil {
			return err
		}
		for _, e := range evs {
			for _, w := range e.words {
				if err := x.add(w, e.seq); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// postings calls fn for every posting (seq), in a conversation's bucket cb,
// of each word starting with term (term cut as words are).
func postings(cb *bolt.Bucket, term string, fn func(seq uint64)) {
	prefix := append([]byte{prefixWord}, cutWord(term)...)
	c := cb.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		for len(v) > 0 {
			s, n := binary.Uvarint(v)
			if n <= 0 {
				break
			}
			fn(s)
			v = v[n:]
		}
	}
}

// conversationsWith calls fn for each conversation having a word that
// starts with term (once per such word).
func conversationsWith(words *bolt.Bucket, term string, fn func(ID)) {
	prefix := []byte(cutWord(term))
	c := words.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) >= 9 && k[len(k)-9] == 0 {
			fn(ID(binary.BigEndian.Uint64(k[len(k)-8:])))
		}
	}
}
