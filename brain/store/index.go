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
// and the events apart. Layout, one nested bucket per conversation in
// bucketSearch (conversation key → bucket), so a conversation's postings
// sit together, an event's update touches few pages, and deleting the
// conversation drops one bucket:
//
//	't' word 0x00 chunk (4-byte big-endian seq>>postingShift) → uvarint seqs
//
// A word's postings are split into chunks of 1<<postingShift events, so
// adding one costs a bounded read-modify-write however common the word is.
// What to remove when an event is rewritten or truncated is found by
// splitting the stored record it replaces into words again (a record too
// damaged to decode leaves its postings, which then point at an event that
// does not show the word). Words are runs of letters and digits,
// lower-cased as Terms does, at most maxWordBytes long (longer ones are
// indexed by that prefix).
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

func wordKey(word string, seq uint64) []byte {
	k := make([]byte, 0, 1+len(word)+1+4)
	k = append(k, prefixWord)
	k = append(k, word...)
	k = append(k, 0)
	return binary.BigEndian.AppendUint32(k, uint32(seq>>postingShift))
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
	cb, err := eb.Tx().Bucket([]byte(bucketSearch)).CreateBucketIfNotExists(conversationKey(id))
	if err != nil {
		return fmt.Errorf("index event %d: %w", e.Seq, err)
	}
	for _, w := range old {
		if !slices.Contains(now, w) {
			if err := removePosting(cb, w, e.Seq); err != nil {
				return err
			}
		}
	}
	var buf [binary.MaxVarintLen64]byte
	post := buf[:binary.PutUvarint(buf[:], e.Seq)]
	for _, w := range now {
		if slices.Contains(old, w) {
			continue // already posted
		}
		k := wordKey(w, e.Seq)
		cur := cb.Get(k)
		v := make([]byte, 0, len(cur)+len(post))
		v = append(append(v, cur...), post...)
		if err := cb.Put(k, v); err != nil {
			return fmt.Errorf("index event %d: %w", e.Seq, err)
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

// removePosting removes seq from word's postings.
func removePosting(cb *bolt.Bucket, word string, seq uint64) error {
	k := wordKey(word, seq)
	var kept []byte
	for rest := cb.Get(k); len(rest) > 0; {
		s, n := binary.Uvarint(rest)
		if n <= 0 {
			break // damaged: what was read so far stays
		}
		if s != seq {
			kept = append(kept, rest[:n]...)
		}
		rest = rest[n:]
	}
	var err error
	if len(kept) == 0 {
		err = cb.Delete(k)
	} else {
		err = cb.Put(k, kept)
	}
	if err != nil {
		return fmt.Errorf("unindex event %d: %w", seq, err)
	}
	return nil
}

// unindexEvents removes the postings of events seqs of conversation id,
// about to be deleted from eb (its events) in the same transaction.
func unindexEvents(eb *bolt.Bucket, id ID, seqs []uint64) error {
	cb := eb.Tx().Bucket([]byte(bucketSearch)).Bucket(conversationKey(id))
	if cb == nil {
		return nil
	}
	for _, s := range seqs {
		raw := eb.Get(encodeU64(s))
		if raw == nil {
			continue
		}
		for _, w := range recordWords(raw) {
			if err := removePosting(cb, w, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// dropIndex removes a conversation's whole index.
func dropIndex(tx *bolt.Tx, id ID) error {
	sb := tx.Bucket([]byte(bucketSearch))
	if sb.Bucket(conversationKey(id)) == nil {
		return nil
	}
	if err := sb.DeleteBucket(conversationKey(id)); err != nil {
		return fmt.Errorf("drop the search index of %s: %w", id, err)
	}
	return nil
}

// rebuildIndex indexes every stored event: the migration to schema 2, for
// a database written before the index existed. A damaged event is left
// out, as Search left it out before.
func rebuildIndex(tx *bolt.Tx) error {
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
		var evs []posted
		err := cb.ForEach(func(sk, raw []byte) error {
			seq, ok := decodeU64(sk)
			if !ok || raw == nil {
				return nil
			}
			if ws := recordWords(raw); len(ws) > 0 {
				evs = append(evs, posted{seq, ws})
			}
			return nil
		})
		if err != nil {
			return err
		}
		return indexWords(tx, ID(n), evs)
	})
}

// posted is an event's seq and words.
type posted struct {
	seq   uint64
	words []string
}

// indexWords posts events of conversation id not indexed before.
func indexWords(tx *bolt.Tx, id ID, evs []posted) error {
	if len(evs) == 0 {
		return nil
	}
	cb, err := tx.Bucket([]byte(bucketSearch)).CreateBucketIfNotExists(conversationKey(id))
	if err != nil {
		return fmt.Errorf("index conversation %s: %w", id, err)
	}
	var buf [binary.MaxVarintLen64]byte
	for _, e := range evs {
		post := buf[:binary.PutUvarint(buf[:], e.seq)]
		for _, w := range e.words {
			k := wordKey(w, e.seq)
			cur := cb.Get(k)
			v := make([]byte, 0, len(cur)+len(post))
			if err := cb.Put(k, append(append(v, cur...), post...)); err != nil {
				return fmt.Errorf("index conversation %s: %w", id, err)
			}
		}
	}
	return nil
}

// postings calls fn for every (seq) posting, in conversation cb's index,
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
