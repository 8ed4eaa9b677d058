package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// The search index: words of every searchable event, kept in the same
// transaction that writes the event, so a crash can never leave the index
// and the events apart. Layout, one nested bucket per conversation in
// bucketSearch (conversation key → bucket), so a conversation's postings
// sit together and deleting it drops one bucket:
//
//	't' word 0x00 chunk (4-byte big-endian seq>>postingShift) → uvarint seqs
//	'e' seq (8-byte big-endian) → the event's words, 0x00-separated
//
// A word's postings are split into chunks of 1<<postingShift events, so
// adding one costs a bounded read-modify-write however common the word is.
// The 'e' entry lists what to remove when the event is rewritten or
// truncated. Words are runs of letters and digits, lower-cased as Terms
// does, at most maxWordBytes long (longer ones are indexed by that prefix).
const (
	postingShift = 8
	maxWordBytes = 48
	prefixWord   = 't'
	prefixEvent  = 'e'
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

func eventIndexKey(seq uint64) []byte {
	return append([]byte{prefixEvent}, encodeU64(seq)...)
}

// indexEvent brings the index in step with e, just written as event e.Seq
// of conversation id in tx: the words it had before go, its words now come.
func indexEvent(tx *bolt.Tx, id ID, e Event) error {
	cb, err := tx.Bucket([]byte(bucketSearch)).CreateBucketIfNotExists(conversationKey(id))
	if err != nil {
		return fmt.Errorf("index event %d: %w", e.Seq, err)
	}
	if err := unindexEvent(cb, e.Seq); err != nil {
		return err
	}
	if !searchable(e.Type) || e.Text == "" {
		return nil
	}
	ws := words(e.Text)
	if len(ws) == 0 {
		return nil
	}
	var buf [binary.MaxVarintLen64]byte
	post := buf[:binary.PutUvarint(buf[:], e.Seq)]
	for _, w := range ws {
		k := wordKey(w, e.Seq)
		old := cb.Get(k)
		v := make([]byte, 0, len(old)+len(post))
		v = append(append(v, old...), post...)
		if err := cb.Put(k, v); err != nil {
			return fmt.Errorf("index event %d: %w", e.Seq, err)
		}
	}
	if err := cb.Put(eventIndexKey(e.Seq), []byte(joinWords(ws))); err != nil {
		return fmt.Errorf("index event %d: %w", e.Seq, err)
	}
	return nil
}

func joinWords(ws []string) string {
	n := 0
	for _, w := range ws {
		n += len(w) + 1
	}
	b := make([]byte, 0, n)
	for i, w := range ws {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, w...)
	}
	return string(b)
}

// unindexEvent removes event seq's postings from a conversation's index.
func unindexEvent(cb *bolt.Bucket, seq uint64) error {
	ek := eventIndexKey(seq)
	raw := cb.Get(ek)
	if raw == nil {
		return nil
	}
	for _, w := range bytes.Split(append([]byte(nil), raw...), []byte{0}) {
		k := wordKey(string(w), seq)
		old := cb.Get(k)
		var kept []byte
		for rest := old; len(rest) > 0; {
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
	}
	if err := cb.Delete(ek); err != nil {
		return fmt.Errorf("unindex event %d: %w", seq, err)
	}
	return nil
}

// unindexFrom removes the postings of conversation id's events from seq on.
func unindexFrom(tx *bolt.Tx, id ID, seqs []uint64) error {
	cb := tx.Bucket([]byte(bucketSearch)).Bucket(conversationKey(id))
	if cb == nil {
		return nil
	}
	for _, s := range seqs {
		if err := unindexEvent(cb, s); err != nil {
			return err
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
		id := ID(n)
		return cb.ForEach(func(sk, raw []byte) error {
			seq, ok := decodeU64(sk)
			if !ok || raw == nil {
				return nil
			}
			e, err := decodeEvent(raw)
			if err != nil {
				return nil
			}
			e.Seq = seq
			return indexEvent(tx, id, e)
		})
	})
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
