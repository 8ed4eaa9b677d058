package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/wrasse-app/wrasse/brain/store"
)

// History search targets (issue 14).
const (
	historyTargetN   = 100000
	historyTargetP50 = 20 * time.Millisecond
	// historyPerConv is how many events each generated conversation has.
	historyPerConv = 50
	// historyQueries is how many queries each size is timed with, and
	// historyBaselineQueries how many of them the full scan runs.
	historyQueries         = 60
	historyBaselineQueries = 6
	// historyTries is how many times each query runs; its best counts.
	historyTries = 3
)

// historyVocab is a deterministic vocabulary: common English words, then
// made-up words of two or three syllables, most frequent first.
func historyVocab() []string {
	out := strings.Fields("the and to of a in is you that it for on with this file can be are as your have not at we will from or please what all so if an there one about which when more my notes meeting launch design team email draft report budget invoice travel")
	syl := strings.Fields("ka lo mi ne ru sa ti vo be da fe gi ho ju ke li mo nu pa qui re so tu va we xi yo za bra cle dri")
	seen := map[string]bool{}
	for _, w := range out {
		seen[w] = true
	}
	for i := 0; len(out) < 4000; i++ {
		w := syl[i%len(syl)] + syl[(i/len(syl))%len(syl)]
		if i >= len(syl)*len(syl) {
			w += syl[(i/(len(syl)*len(syl)))%len(syl)]
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// searchText is n words of vocab, drawn Zipf-distributed, so common words
// are in most events and rare ones in few, as in real conversations.
func searchText(z *rand.Zipf, vocab []string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(" ,.\n"[i%4])
			if i%4 != 0 {
				b.WriteByte(' ')
			}
		}
		w := vocab[z.Uint64()]
		if i%11 == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// fillHistory writes n events into conversations of historyPerConv events
// (a question, a tool call, its result, an answer, over and over) through
// AppendEvent, which updates the index as it writes, and returns the mean
// time of one append (fsync off).
func fillHistory(db *store.DB, n int, seed uint64) (time.Duration, error) {
	r := rand.New(rand.NewPCG(seed, 14))
	vocab := historyVocab()
	z := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	var id store.ID
	t0 := time.Now()
	for i := range n {
		if i%historyPerConv == 0 {
			c, err := db.CreateConversation("m")
			if err != nil {
				return 0, err
			}
			id = c.ID
		}
		var e store.Event
		switch i % 4 {
		case 0:
			e = store.Event{Type: store.EventUserMessage, Text: searchText(z, vocab, 8+r.IntN(30))}
		case 1:
			e = store.Event{Type: store.EventToolCall, ToolCallID: fmt.Sprint("call_", i), ToolName: "fs_read", Arguments: []byte(`{"path":"notes/today.md"}`)}
		case 2:
			e = store.Event{Type: store.EventToolResult, ToolCallID: fmt.Sprint("call_", i), ToolName: "fs_read", Text: searchText(z, vocab, 40+r.IntN(200))}
		case 3:
			e = store.Event{Type: store.EventAssistantText, Model: "m", Text: searchText(z, vocab, 20+r.IntN(80))}
		}
		if _, err := db.AppendEvent(id, e); err != nil {
			return 0, err
		}
	}
	return time.Since(t0) / time.Duration(max(1, n)), nil
}

// historyQuerySet is the queries each size is timed with: a third one rare
// word, a third two words of middling frequency, a third the first
// letters of a common word (a word-prefix search).
func historyQuerySet(seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 41))
	vocab := historyVocab()
	var qs []string
	for i := range historyQueries {
		switch i % 3 {
		case 0:
			qs = append(qs, vocab[1000+r.IntN(3000)])
		case 1:
			qs = append(qs, vocab[60+r.IntN(400)]+" "+vocab[60+r.IntN(400)])
		case 2:
			w := vocab[40+r.IntN(60)]
			qs = append(qs, w[:min(len(w), 3)])
		}
	}
	return qs
}

// scanSearch is the baseline, history search as it was before the index:
// every event of every conversation read and lower-cased for each query.
// It reads the events through the store's API, so it also decodes what the
// old search rejected by its raw bytes first; the note says so.
func scanSearch(db *store.DB, query string) (int, error) {
	terms := store.Terms(query)
	convs, err := db.ListConversations()
	if err != nil {
		return 0, err
	}
	hits := 0
	for _, c := range convs {
		evs, err := db.Events(c.ID)
		if err != nil {
			return 0, err
		}
		found := false
		title := strings.Map(unicode.ToLower, c.Title)
		for _, t := range terms {
			found = found || strings.Contains(title, t)
		}
		for _, e := range evs {
			if e.Type != store.EventUserMessage && e.Type != store.EventAssistantText && e.Type != store.EventToolResult {
				continue
			}
			low := strings.Map(unicode.ToLower, e.Text)
			for _, t := range terms {
				found = found || strings.Contains(low, t)
			}
		}
		if found {
			hits++
		}
	}
	return hits, nil
}

// scaleHistory times history search (store.DB.Search, what history_search
// and the window's sidebar call) over growing numbers of stored events,
// beside the full scan it replaced.
func (r *runner) scaleHistory(ctx context.Context) []Row {
	const measure = "history search p50"
	dir, err := os.MkdirTemp(r.cfg.TempDir, "wrasse-bench-history-")
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	defer os.RemoveAll(dir)
	qs := historyQuerySet(uint64(r.cfg.Seed))
	c := curve{Measure: measure + ", n stored events", Unit: "ms"}
	var target *Row
	var bases, appends []string
	for _, n := range r.scaleSizes() {
		if ctx.Err() != nil {
			break
		}
		r.progress("scale: history search, %s events", FormatInt(n))
		p50, base, per, err := measureHistory(filepath.Join(dir, fmt.Sprintf("h%d.db", n)), n, uint64(r.cfg.Seed), qs)
		if err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
		c.Points = append(c.Points, curvePoint{N: n, Value: ms(p50)})
		bases = append(bases, fmt.Sprintf("%s: %s", FormatInt(n), FormatDuration(base)))
		appends = append(appends, fmt.Sprintf("%s: %s", FormatInt(n), FormatDuration(per)))
		if n == historyTargetN {
			target = &Row{Section: sectionScale, Measure: measure + ", 100,000 stored events", Value: FormatDuration(p50), Number: ms(p50), Unit: "ms",
				Baseline: "full scan " + FormatDuration(base), Target: "≤ " + FormatDuration(historyTargetP50), Pass: verdict(p50 <= historyTargetP50),
				Note: "the index is kept up to date as events are written (same transaction as the event)"}
		}
	}
	c.Baseline = "full scan of every event, see note"
	c.Note = fmt.Sprintf("store.DB.Search (limit 10) over conversations of %d events (question, tool call, tool result, answer; Zipf-distributed words from a %s-word vocabulary), written through AppendEvent, which keeps the index; %d queries (a rare word, two middling words, or the first 3 letters of a common word), each query's best of %d after one warm-up pass; p50 over the queries. Baseline p50, every event of every conversation read (store.Events) and lower-cased per query, over %d of the queries: %s. Mean AppendEvent with the index, fsync off: %s",
		historyPerConv, FormatInt(len(historyVocab())), len(qs), historyTries, historyBaselineQueries, strings.Join(bases, "; "), strings.Join(appends, "; "))
	rows := curveRows(c)
	if target != nil {
		rows = append(rows, *target)
	}
	return rows
}

// measureHistory fills a new database at path with n events and returns
// the p50 of the indexed search over qs, the p50 of the full scan over the
// first historyBaselineQueries, and the mean time of one append.
func measureHistory(path string, n int, seed uint64, qs []string) (p50, base, perAppend time.Duration, err error) {
	db, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		return 0, 0, 0, err
	}
	defer db.Close()
	if perAppend, err = fillHistory(db, n, seed); err != nil {
		return 0, 0, 0, err
	}
	found := 0
	for _, q := range qs { // warm-up: the file's pages in the cache
		hits, err := db.Search(q, 0)
		if err != nil {
			return 0, 0, 0, err
		}
		found += len(hits)
	}
	if found == 0 {
		return 0, 0, 0, fmt.Errorf("no query found anything in %d events", n)
	}
	var ts []time.Duration
	for _, q := range qs {
		var best []time.Duration
		for range historyTries {
			t0 := time.Now()
			if _, err := db.Search(q, 0); err != nil {
				return 0, 0, 0, err
			}
			best = append(best, time.Since(t0))
		}
		ts = append(ts, Min(best))
	}
	var bs []time.Duration
	for _, q := range qs[:historyBaselineQueries] {
		t0 := time.Now()
		if _, err := scanSearch(db, q); err != nil {
			return 0, 0, 0, err
		}
		bs = append(bs, time.Since(t0))
	}
	slices.Sort(ts)
	return Median(ts), Median(bs), perAppend, nil
}
