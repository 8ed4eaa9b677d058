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
// terms (case-insensitive substrings). Each conversation appears once, at
// the event matching the most terms (ties: the latest event). Hits are
// ranked by terms matched, then by Updated, then by ID, newest first.
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
		return tx.Bucket([]byte(bucketConversations)).ForEach(func(k, v []byte) error {
			n, ok := decodeU64(k)
			if !ok {
				return nil
			}
			c, err := decodeConversation(ID(n), v)
			if err != nil {
				return nil // ListConversations reports it
			}
			if h, ok := searchConversation(tx, c, terms); ok {
				hits = append(hits, h)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", query, err)
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
	return hits, nil
}

// termMask has bit i set when terms[i] occurs in lowered text.
func termMask(text string, terms []string) uint32 {
	var m uint32
	for i, t := range terms {
		if strings.Contains(text, t) {
			m |= 1 << i
		}
	}
	return m
}

func searchConversation(tx *bolt.Tx, c Conversation, terms []string) (Hit, bool) {
	titleLower := lower(c.Title)
	titleMask := termMask(titleLower, terms)
	best := Hit{Conversation: c.ID, Title: c.Title, Updated: c.Updated}
	var bestText, bestLower string
	if titleMask != 0 {
		best.Matched = bits.OnesCount32(titleMask)
		bestText, bestLower = c.Title, titleLower
	}
	eb := eventBucket(tx, c.ID)
	if eb != nil {
		// Decode only what search needs.
		var rec struct {
			Type EventType `json:"type"`
			Text string    `json:"text"`
		}
		_ = eb.ForEach(func(k, v []byte) error {
			// Cheap reject before decoding: terms are letters and digits,
			// which the JSON encoder never escapes, so an event whose raw
			// bytes lack every term cannot match.
			if termMask(string(bytes.ToLower(v)), terms) == 0 {
				return nil
			}
			rec.Type, rec.Text = "", ""
			if json.Unmarshal(v, &rec) != nil || !searchable(rec.Type) || rec.Text == "" {
				return nil
			}
			low := lower(rec.Text)
			m := termMask(low, terms)
			if m == 0 {
				return nil
			}
			// >= so a later event wins ties, and an event beats the title.
			if n := bits.OnesCount32(m | titleMask); n >= best.Matched {
				seq, _ := decodeU64(k)
				best.Matched, best.Seq, best.Type = n, seq, rec.Type
				bestText, bestLower = rec.Text, low
			}
			return nil
		})
	}
	if best.Matched == 0 {
		return Hit{}, false
	}
	best.Snippet = snippet(bestText, bestLower, terms)
	return best, true
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
