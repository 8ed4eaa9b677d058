package store

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// Search limits.
const (
	DefaultSearchLimit = 10
	MaxSearchLimit     = 100
	// maxTerms bounds the query (terms are tracked in a bit set).
	maxTerms = 32
	// snippet window around the first match, in characters.
	snippetBefore = 40
	snippetAfter  = 100
)

// Hit is one conversation matching a search, at its best-matching event.
type Hit struct {
	Conversation ID     `json:"conversation"`
	Title        string `json:"title"`
	// Seq is the matching event; 0 when only the title matched.
	Seq  uint64    `json:"seq,omitempty"`
	Type EventType `json:"type,omitempty"`
	// Snippet is text around the first matched term, whitespace collapsed.
	Snippet string `json:"snippet"`
	// Matched is how many distinct query terms the title and this event
	// contain together.
	Matched int       `json:"matched"`
	Updated time.Time `json:"updated"`
}

// searchable reports whether an event's text is worth searching: what the
// user and the model said and what tools returned.
func searchable(t EventType) bool {
	return t == EventUserMessage || t == EventAssistantText || t == EventToolResult
}

// Terms splits a query into lower-case words (letters and digits), without
// duplicates, in order of first appearance.
func Terms(query string) []string {
	f := strings.FieldsFunc(lower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	var out []string
	for _, t := range f {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// lower maps each rune to lower case one-for-one, so rune offsets in the
// result are rune offsets in s.
func lower(s string) string { return strings.Map(unicode.ToLower, s) }

// Search finds conversations whose title or messages contain the query's
// terms, case-insensitively, each term as a whole word or the start of one
// ("train" finds "Train" and "trains", not "restrain"; words are runs of
// letters and digits, so "tax-return" is "tax" and "return"). It reads the
// search index (index.go), not the events, so its cost grows with the
// postings of the terms, not with the history. Each conversation appears
// once, at the event matching the most terms (ties: the latest event). Hits
// are ranked by terms matched, then by Updated, then by ID, newest first.
// limit <= 0 means DefaultSearchLimit; it is capped at MaxSearchLimit.
func (d *DB) Search(query string, limit int) ([]Hit, error) {
	terms := Terms(query)
	if len(terms) == 0 {
		return nil, fmt.Errorf("search %q: %w", query, ErrEmptyQuery)
	}
	if len(terms) > maxTerms {
		terms = terms[:maxTerms]
	}
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)

	var hits []Hit
	err := d.bolt.View(func(tx *bolt.Tx) error {
		// Which conversations have words for which terms, from search_words.
		has := map[ID]uint32{}
		words := tx.Bucket([]byte(bucketSearchWords))
		for i, t := range terms {
			conversationsWith(words, t, func(id ID) { has[id] |= 1 << i })
		}
		ib := tx.Bucket([]byte(bucketSearch))
		masks := map[uint64]uint32{}
		var low []byte
		err := tx.Bucket([]byte(bucketConversations)).ForEach(func(k, v []byte) error {
			n, ok := decodeU64(k)
			if !ok {
				return nil
			}
			m := has[ID(n)]
			if m == 0 {
				// A title can only match if the record's bytes hold a term
				// (letters and digits, which JSON never escapes): most
				// conversations are passed over without being decoded.
				if low = appendLower(low[:0], v); !containsAny(low, terms) {
					return nil
				}
			}
			c, err := decodeConversation(ID(n), v)
			if err != nil {
				return nil // ListConversations reports it
			}
			titleMask := wordMask(c.Title, terms)
			best := Hit{Conversation: c.ID, Title: c.Title, Updated: c.Updated, Matched: bits.OnesCount32(m | titleMask)}
			if best.Matched == 0 {
				return nil
			}
			if bits.OnesCount32(m) > 1 {
				// Terms in different events: find the event matching most.
				best.Matched = bits.OnesCount32(titleMask)
				bestEvent(ib.Bucket(k), terms, titleMask, masks, &best)
			} else if m != 0 {
				best.Seq = 1 // an event matches; which, is looked up if shown
			}
			hits = append(hits, best)
			return nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(hits, func(a, b Hit) int {
			if c := cmp.Compare(b.Matched, a.Matched); c != 0 {
				return c
			}
			if c := b.Updated.Compare(a.Updated); c != 0 {
				return c
			}
			return cmp.Compare(b.Conversation, a.Conversation)
		})
		if len(hits) > limit {
			hits = hits[:limit]
		}
		// Only the hits shown read their event, for its type and snippet.
		for i := range hits {
			h := &hits[i]
			if h.Seq > 0 && bits.OnesCount32(has[h.Conversation]) <= 1 {
				// One term in the events: the latest event with it (the
				// same Matched as counted above).
				h.Matched, h.Seq = 0, 0
				bestEvent(ib.Bucket(conversationKey(h.Conversation)), terms, wordMask(h.Title, terms), masks, h)
			}
			text := h.Title
			if h.Seq > 0 {
				if e, ok := searchedEvent(tx, h.Conversation, h.Seq); ok {
					h.Type, text = e.Type, e.Text
				} else {
					h.Seq = 0
				}
			}
			h.Snippet = snippet(text, lower(text), terms)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
	}
	return hits, nil
}

// bestEvent sets best's Seq and Matched to the event of a conversation's
// index cb matching the most terms together with the title (titleMask),
// the latest on ties; an event beats the title on a tie.
func bestEvent(cb *bolt.Bucket, terms []string, titleMask uint32, masks map[uint64]uint32, best *Hit) {
	if cb == nil {
		return
	}
	clear(masks)
	for i, t := range terms {
		postings(cb, t, func(seq uint64) { masks[seq] |= 1 << i })
	}
	for seq, m := range masks {
		if n := bits.OnesCount32(m | titleMask); n > best.Matched || n == best.Matched && seq > best.Seq {
			best.Matched, best.Seq = n, seq
		}
	}
}

// appendLower appends b lower-cased, rune by rune, to dst.
func appendLower(dst, b []byte) []byte {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			b = b[1:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		b = b[n:]
	}
	return dst
}

func containsAny(low []byte, terms []string) bool {
	for _, t := range terms {
		if bytes.Contains(low, []byte(cutWord(t))) {
			return true
		}
	}
	return false
}

// searchedEvent reads the type and text of a hit's event.
func searchedEvent(tx *bolt.Tx, id ID, seq uint64) (Event, bool) {
	eb := eventBucket(tx, id)
	if eb == nil {
		return Event{}, false
	}
	raw := eb.Get(encodeU64(seq))
	if raw == nil {
		return Event{}, false
	}
	var rec struct {
		Type EventType `json:"type"`
		Text string    `json:"text"`
	}
	if json.Unmarshal(raw, &rec) != nil {
		return Event{}, false
	}
	return Event{Type: rec.Type, Text: rec.Text}, true
}

// wordMask has bit i set when a word of text starts with terms[i] (cut
// as indexed words are), without splitting text into words.
func wordMask(text string, terms []string) uint32 {
	var m uint32
	low := ""
	for i, t := range terms {
		if low == "" {
			low = lower(text)
		}
		t = cutWord(t)
		for at := 0; at <= len(low); {
			j := strings.Index(low[at:], t)
			if j < 0 {
				break
			}
			j += at
			if r, _ := utf8.DecodeLastRuneInString(low[:j]); j == 0 || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				m |= 1 << i
				break
			}
			_, n := utf8.DecodeRuneInString(low[j:])
			at = j + max(n, 1)
		}
	}
	return m
}

// snippet cuts text around the earliest occurrence of any term.
func snippet(text, low string, terms []string) string {
	at := -1
	for _, t := range terms {
		if i := strings.Index(low, t); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	r := []rune(text)
	pos := 0
	if at >= 0 {
		pos = utf8.RuneCountInString(low[:at])
	}
	start := max(0, pos-snippetBefore)
	end := min(len(r), max(pos, snippetBefore)+snippetAfter)
	// Cut at spaces rather than mid-word when there is one to cut at.
	if start > 0 {
		for i := start; i < pos; i++ {
			if unicode.IsSpace(r[i]) {
				start = i + 1
				break
			}
		}
	}
	if end < len(r) {
		for i := end; i > pos+1; i-- {
			if unicode.IsSpace(r[i]) {
				end = i
				break
			}
		}
	}
	s := strings.Join(strings.Fields(string(r[start:end])), " ")
	if start > 0 {
		s = "…" + s
	}
	if end < len(r) {
		s += "…"
	}
	return s
}
