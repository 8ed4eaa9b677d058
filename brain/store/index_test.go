package store

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

func TestWords(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World! hello", []string{"hello", "world"}},
		{"tax-return 2023 TAX", []string{"tax", "return", "2023"}},
		{"Ünïcode café", []string{"ünïcode", "café"}},
		{long, []string{long[:maxWordBytes]}},
		{"éééééééééééééééééééééééééééééé", []string{"éééééééééééééééééééééééé"}}, // cut at a rune
		{" ?! ", nil},
	}
	for _, tt := range tests {
		if got := words(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Search matches whole words and word starts, not the middle of a word.
func TestSearchWordPrefix(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "Restrain the Training schedule; e-mail Bob"})
	tests := []struct {
		query string
		found bool
	}{
		{"training", true}, {"TRAIN", true}, {"tra", true}, {"schedule", true},
		{"rain", false}, {"mail", true}, {"email", false}, {"restrain", true}, {"strain", false},
		{"bob schedulex", true}, // one of two terms is enough, ranked lower
	}
	for _, tt := range tests {
		hits, err := db.Search(tt.query, 0)
		if err != nil {
			t.Fatal(err)
		}
		if (len(hits) == 1) != tt.found {
			t.Errorf("Search(%q) = %+v, want found %v", tt.query, hits, tt.found)
		}
	}
}

// dumpIndex is the index as word key → sorted postings, and the keys of
// search_words.
func dumpIndex(t *testing.T, db *DB) map[string][]uint64 {
	t.Helper()
	out := map[string][]uint64{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketSearch)).ForEachBucket(func(conv []byte) error {
			cb := tx.Bucket([]byte(bucketSearch)).Bucket(conv)
			return cb.ForEach(func(k, v []byte) error {
				key := fmt.Sprintf("%x/%q", conv, k)
				var seqs []uint64
				for len(v) > 0 {
					s, n := binary.Uvarint(v)
					if n <= 0 {
						t.Errorf("damaged postings at %s", key)
						break
					}
					seqs = append(seqs, s)
					v = v[n:]
				}
				slices.Sort(seqs)
				if len(seqs) == 0 {
					t.Errorf("empty postings kept at %s", key)
				}
				out[key] = seqs
				return nil
			})
		})
	})
	if err == nil {
		err = db.bolt.View(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte(bucketSearchWords)).ForEach(func(k, _ []byte) error {
				out[fmt.Sprintf("words/%q", k)] = nil
				return nil
			})
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rebuiltIndex is what rebuildIndex makes of the stored events.
func rebuiltIndex(t *testing.T, db *DB) map[string][]uint64 {
	t.Helper()
	err := db.bolt.Update(rebuildIndex)
	if err != nil {
		t.Fatal(err)
	}
	return dumpIndex(t, db)
}

// However events are appended, streamed, rewritten, truncated and deleted,
// the index kept as they are written is the one built from scratch: no
// posting of a removed or rewritten event stays behind.
func TestIndexKeptInStep(t *testing.T) {
	db, _, _ := openTest(t)
	r := rand.New(rand.NewPCG(14, 3))
	vocab := []string{"alpha", "beta", "gamma", "delta", "alphabet", "Beta-Max", "ünï", "2023"}
	text := func() string {
		s := ""
		for range 1 + r.IntN(6) {
			s += vocab[r.IntN(len(vocab))] + " "
		}
		return s
	}
	types := []EventType{EventUserMessage, EventAssistantText, EventToolResult, EventError}
	var convs []ID
	for step := 0; step < 600; step++ {
		switch op := r.IntN(20); {
		case op == 0 || len(convs) == 0:
			convs = append(convs, mustConv(t, db, "").ID)
		case op == 1 && len(convs) > 1:
			i := r.IntN(len(convs))
			if err := db.DeleteConversation(convs[i]); err != nil {
				t.Fatal(err)
			}
			convs = slices.Delete(convs, i, i+1)
		case op == 2:
			id := convs[r.IntN(len(convs))]
			if _, err := db.TruncateFrom(id, uint64(1+r.IntN(10))); err != nil {
				t.Fatal(err)
			}
		case op == 3:
			id := convs[r.IntN(len(convs))]
			evs := mustEvents(t, db, id)
			if len(evs) > 0 {
				e := evs[r.IntN(len(evs))]
				e.Text, e.Status = text(), StatusComplete
				if err := db.UpdateEvent(id, e); err != nil {
					t.Fatal(err)
				}
			}
		case op == 4:
			id := convs[r.IntN(len(convs))]
			e := mustAppend(t, db, id, Event{Type: EventAssistantText, Text: text(), Status: StatusStreaming})
			if err := db.AppendText(id, e.Seq, text()); err != nil {
				t.Fatal(err)
			}
			if err := db.FinishEvent(id, e.Seq, StatusComplete); err != nil {
				t.Fatal(err)
			}
		default:
			id := convs[r.IntN(len(convs))]
			mustAppend(t, db, id, Event{Type: types[r.IntN(len(types))], Text: text()})
		}
	}
	kept := dumpIndex(t, db)
	if len(kept) == 0 {
		t.Fatal("nothing indexed")
	}
	if rebuilt := rebuiltIndex(t, db); !maps.EqualFunc(kept, rebuilt, slices.Equal) {
		for k, v := range kept {
			if !slices.Equal(rebuilt[k], v) {
				t.Errorf("%s: kept %v, rebuilt %v", k, v, rebuilt[k])
			}
		}
		for k, v := range rebuilt {
			if _, ok := kept[k]; !ok {
				t.Errorf("%s: missing, rebuilt %v", k, v)
			}
		}
	}
}

func TestIndexDeleteAndTruncate(t *testing.T) {
	db, _, _ := openTest(t)
	c := mustConv(t, db, "")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "zebra crossing"})
	mustAppend(t, db, c.ID, Event{Type: EventAssistantText, Text: "okapi herd"})
	found := func(q string) int {
		hits, err := db.Search(q, 0)
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	if found("okapi") != 1 || found("zebra") != 1 {
		t.Fatal("not indexed")
	}
	if _, err := db.TruncateFrom(c.ID, 2); err != nil {
		t.Fatal(err)
	}
	if found("okapi") != 0 || found("zebra") != 1 {
		t.Error("truncated event still found, or the kept one lost")
	}
	if err := db.DeleteConversation(c.ID); err != nil {
		t.Fatal(err)
	}
	if found("zebra") != 0 || len(dumpIndex(t, db)) != 0 {
		t.Errorf("deleted conversation left postings: %v", dumpIndex(t, db))
	}
}

// A database written before the index (schema 1) gets one when opened.
func TestIndexBuiltForOldDatabase(t *testing.T) {
	db, path, clock := openTest(t)
	c := mustConv(t, db, "")
	mustAppend(t, db, c.ID, Event{Type: EventUserMessage, Text: "remember the walrus"})
	// Make it look as an older Wrasse left it: no index, schema 1.
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte(bucketSearch)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(keySchemaVersion), encodeU64(1))
	})
	if err != nil {
		t.Fatal(err)
	}
	db = reopen(t, db, path, clock)
	hits, err := db.Search("walrus", 0)
	if err != nil || len(hits) != 1 || hits[0].Seq != 1 || hits[0].Snippet != "remember the walrus" {
		t.Fatalf("after upgrade: %+v, %v", hits, err)
	}
}

func BenchmarkIndexedAppend(b *testing.B) {
	db, _, _ := openTest(b)
	c := mustConv(b, db, "")
	text := "The quick brown fox jumps over the lazy dog while the tram to Lisbon leaves at noon, 2023."
	for b.Loop() {
		if _, err := db.AppendEvent(c.ID, Event{Type: EventAssistantText, Text: text}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestWordMask(t *testing.T) {
	tests := []struct {
		text  string
		terms []string
		want  uint32
	}{
		{"Restrain the Training", []string{"rain", "train", "the"}, 0b110},
		{"tax-return 2023", []string{"return", "023", "2023"}, 0b101},
		{"Ünïcode café", []string{"ünï", "afé"}, 0b01},
		{"", []string{"x"}, 0},
		{"aaa", []string{"aa"}, 0b1},
	}
	for _, tt := range tests {
		if got := wordMask(tt.text, tt.terms); got != tt.want {
			t.Errorf("wordMask(%q, %q) = %b, want %b", tt.text, tt.terms, got, tt.want)
		}
	}
}

// Words of any text are distinct, lower-case runs of letters and digits of
// at most maxWordBytes, each found again by searching for itself.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"Hello, World!", "tax-return 2023", "Ünïcode café", "éééééééééééééééééééééééééé", "\xff\xfeab", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ws := words(s)
		seen := map[string]bool{}
		for _, w := range ws {
			if w == "" || len(w) > maxWordBytes || seen[w] || !utf8.ValidString(w) {
				t.Fatalf("words(%q) has %q", s, w)
			}
			seen[w] = true
			for _, r := range w {
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					t.Fatalf("words(%q) has %q with %q", s, w, r)
				}
			}
			if len(w) < maxWordBytes && wordMask(s, []string{w}) == 0 {
				t.Fatalf("word %q of %q not matched by wordMask", w, s)
			}
		}
	})
}

// BenchmarkSearch10k searches 10,000 events in 100 conversations.
func BenchmarkSearch10k(b *testing.B) {
	db, _, _ := openTest(b)
	for range 100 {
		c := mustConv(b, db, "m")
		fill(b, db, c.ID, 100)
	}
	qs := []string{"question", "fox lazy", "answ", "nothing"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := db.Search(qs[i%len(qs)], 0); err != nil {
			b.Fatal(err)
		}
	}
}

// referenceSearch is Search by brute force over every event, with the same
// word-start semantics.
func referenceSearch(t *testing.T, db *DB, query string, limit int) []Hit {
	terms := Terms(query)
	convs, err := db.ListConversations()
	if err != nil {
		t.Fatal(err)
	}
	var hits []Hit
	for _, c := range convs {
		titleMask := wordMask(c.Title, terms)
		best := Hit{Conversation: c.ID, Title: c.Title, Updated: c.Updated, Matched: bits.OnesCount32(titleMask)}
		text := c.Title
		for _, e := range mustEvents(t, db, c.ID) {
			if !searchable(e.Type) || e.Text == "" {
				continue
			}
			m := wordMask(e.Text, terms)
			if n := bits.OnesCount32(m | titleMask); m != 0 && n >= best.Matched {
				best.Matched, best.Seq, best.Type, text = n, e.Seq, e.Type, e.Text
			}
		}
		if best.Matched > 0 {
			best.Snippet = snippet(text, lower(text), terms)
			hits = append(hits, best)
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if a.Matched != b.Matched {
			return b.Matched - a.Matched
		}
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return int(b.Conversation) - int(a.Conversation)
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// Search through the index finds what a scan of every event finds.
func TestSearchMatchesScan(t *testing.T) {
	db, _, _ := openTest(t)
	r := rand.New(rand.NewPCG(14, 4))
	vocab := []string{"alpha", "alphabet", "beta", "Gamma", "gam", "delta", "ünïcode", "2023", "x"}
	text := func() string {
		s := ""
		for range 1 + r.IntN(5) {
			s += vocab[r.IntN(len(vocab))] + []string{" ", ", ", "-"}[r.IntN(3)]
		}
		return s
	}
	types := []EventType{EventUserMessage, EventAssistantText, EventToolResult, EventError, EventToolCall}
	for range 40 {
		c := mustConv(t, db, "")
		if r.IntN(3) == 0 {
			if err := db.SetTitle(c.ID, text()); err != nil {
				t.Fatal(err)
			}
		}
		for range r.IntN(12) {
			mustAppend(t, db, c.ID, Event{Type: types[r.IntN(len(types))], Text: text(), ToolCallID: "1"})
		}
	}
	for range 200 {
		q := ""
		for range 1 + r.IntN(3) {
			w := vocab[r.IntN(len(vocab))]
			q += w[:1+r.IntN(len(w))] + " "
		}
		limit := []int{1, 5, 10, 100}[r.IntN(4)]
		got, err := db.Search(q, limit)
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceSearch(t, db, q, limit); !reflect.DeepEqual(got, want) {
			t.Fatalf("Search(%q, %d):\n got %+v\nwant %+v", q, limit, got, want)
		}
	}
}
