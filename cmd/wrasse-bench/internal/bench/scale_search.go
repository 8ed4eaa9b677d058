package bench

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
)

// scaleSearch measures tool_search's index over growing numbers of
// capabilities (synthetic ones shaped like real capabilities, eval.Synthetic):
// what a query allocates, which should not grow with them, its p50, and
// what one capability's change costs the index beside a full rebuild.
func (r *runner) scaleSearch(ctx context.Context) []Row {
	const snapshotReps = 7
	queries := 400
	if r.cfg.Short {
		queries = 100
	}
	allocs := curve{Measure: "tool_search, bytes allocated per query", Unit: "B"}
	p50 := curve{Measure: "tool_search, query p50", Unit: "µs"}
	update := curve{Measure: "tool_search index update after one capability changes", Unit: "ms"}
	rebuild := map[int]time.Duration{}
	var nextPoints []curvePoint
	firstUpdate := map[int]time.Duration{}
	compared := map[int]time.Duration{}
	for _, n := range r.scaleSizes() {
		if ctx.Err() != nil {
			break
		}
		docs := eval.Synthetic(n, r.cfg.Seed)
		qs := eval.SyntheticQueries(docs, queries, r.cfg.Seed+1)
		t0 := time.Now()
		ix := search.Build(docs)
		rebuild[n] = time.Since(t0)

		allocs.Points = append(allocs.Points, curvePoint{N: n, Value: bytesPerQuery(ix, qs)})
		p50.Points = append(p50.Points, curvePoint{N: n, Value: us(eval.MeasureLatency(ix, qs, 5).P50)})

		// One capability's description changes: the index of the next
		// snapshot, updated for that capability (Index.Update), and as the
		// snapshot makes it (Index.Next, which also finds what changed).
		// The first update after a build also gives the lists it touches
		// room to grow in place; the one timed is the next, as in a running
		// app (the first is in the note).
		changed := slices.Clone(docs)
		changed[n/2+1].Description += " first edit"
		t0 = time.Now()
		ix = ix.Update([]search.Doc{changed[n/2+1]}, nil)
		firstUpdate[n] = time.Since(t0)

		changed[n/2].Description += " zorblax quuxifier"
		t0 = time.Now()
		next := ix.Update([]search.Doc{changed[n/2]}, nil)
		d := time.Since(t0)
		// The next snapshot's index as Snapshot.Search makes it: the Resync
		// that made the snapshot names the capabilities it replaced, whose
		// documents are looked up and updated. Index.Next, which compared
		// every document to find them (what the snapshot did before), is
		// timed beside it, as it was measured before (after the update).
		byID := make(map[string]*search.Doc, len(changed))
		for i := range changed {
			byID[changed[i].ID] = &changed[i]
		}
		// Repeated down one chain, each update the first made from its
		// index, as a registry's snapshots follow one another (a second
		// update of one index copies the lists the first grew in place),
		// each editing a capability not edited before (so, as the update
		// above, it copies the lists of its terms once); the median, since
		// one update is about a millisecond and a busy machine's pauses
		// are not.
		viaNames := next
		var reps []time.Duration
		for k := range snapshotReps {
			names := []string{changed[(n/2+2+k)%n].ID}
			edited := *byID[names[0]]
			edited.Description += fmt.Sprintf(" edit%d", k)
			byID[names[0]] = &edited
			t0 = time.Now()
			var upd []search.Doc
			var removed []string
			for _, name := range names {
				if d, ok := byID[name]; ok {
					upd = append(upd, *d)
				} else {
					removed = append(removed, name)
				}
			}
			viaNames = viaNames.Update(upd, removed)
			reps = append(reps, time.Since(t0))
		}
		nextPoints = append(nextPoints, curvePoint{N: n, Value: ms(Median(reps))})
		t0 = time.Now()
		viaNext := ix.Next(changed)
		compared[n] = time.Since(t0)
		for _, x := range []*search.Index{next, viaNames, viaNext} {
			if hits := x.Search("zorblax quuxifier", 1, nil); len(hits) == 0 || hits[0].ID != changed[n/2].ID {
				return []Row{errorRow(sectionScale, update.Measure, fmt.Errorf("after the update, %q does not find the changed capability %s first: %v", "zorblax quuxifier", changed[n/2].ID, hits))}
			}
		}
		update.Points = append(update.Points, curvePoint{N: n, Value: ms(d)})
	}
	allocs.Baseline = "flat: nothing that grows with the capabilities"
	allocs.Note = fmt.Sprintf("tool_search (cerebellum/search) over eval.Synthetic capabilities; %d synthetic queries for k = 5, each right after a garbage collection (which empties a sync.Pool), runtime.MemStats.TotalAlloc per query", queries)
	p50.Baseline = "the same queries, same index"
	p50.Note = "eval.MeasureLatency: each query once after a warm-up pass, nearest-rank p50"
	update.Note = "Index.Update with the one changed capability (its description gained two words no other has), beside search.Build of every capability at the same size; the updated index must rank the changed capability first for its new words"
	var first []string
	for _, n := range r.scaleSizes() {
		if d, ok := rebuild[n]; ok {
			first = append(first, fmt.Sprintf("%s: %s", FormatInt(n), FormatDuration(d)))
		}
	}
	update.Baseline = "full build " + strings.Join(first, ", ")
	var firsts []string
	for _, n := range r.scaleSizes() {
		if d, ok := firstUpdate[n]; ok {
			firsts = append(firsts, fmt.Sprintf("%s: %s", FormatInt(n), FormatDuration(d)))
		}
	}
	update.Note += "; the first update after a build, which copies the posting lists it touches once, took " + strings.Join(firsts, ", ")
	rows := curveRows(allocs)
	if len(allocs.Points) > 1 {
		// Judged flat, not merely linear: at most 1 KB more at the largest.
		first, last := allocs.Points[0], allocs.Points[len(allocs.Points)-1]
		rows = append(rows, Row{Section: sectionScale, Measure: fmt.Sprintf("tool_search, bytes per query at %s beside %s capabilities", FormatInt(last.N), FormatInt(first.N)),
			Value: fmt.Sprintf("%s B", formatFloat(last.Value)), Number: last.Value, Unit: "B", Baseline: fmt.Sprintf("%s B", formatFloat(first.Value)),
			Target: "flat (≤ +1 KB)", Pass: verdict(last.Value <= first.Value+1024)})
	}
	rows = append(rows, curveRows(p50)...)
	rows = append(rows, curveRows(update)...)
	var nexts []string
	for _, n := range r.scaleSizes() {
		if d, ok := compared[n]; ok {
			nexts = append(nexts, fmt.Sprintf("%s: %s", FormatInt(n), FormatDuration(d)))
		}
	}
	rows = append(rows, curveRows(curve{Measure: "tool_search index of the next snapshot after one capability changes", Unit: "ms", Points: nextPoints,
		Baseline: "Index.Next, comparing every document (how the snapshot found the change before) " + strings.Join(nexts, ", "),
		Note:     fmt.Sprintf("as Snapshot.Search makes it from the previous snapshot's index: the Resync that made the snapshot names the capabilities it replaced (Snapshot.next), and only their documents are looked up and passed to Index.Update; median of %d successive edits, each of a capability not edited before, down one chain of indexes (each updated once, as snapshots follow one another)", snapshotReps)})...)
	if l := len(update.Points); l > 0 {
		last := update.Points[l-1]
		full := ms(rebuild[last.N])
		rows = append(rows, Row{Section: sectionScale, Measure: fmt.Sprintf("tool_search index update after one change, %s capabilities", FormatInt(last.N)),
			Value: formatFloat(last.Value) + " ms", Number: last.Value, Unit: "ms", Baseline: fmt.Sprintf("full build %s ms", formatFloat(full)),
			Target: "work for that capability only (≤ 1% of a full build)", Pass: verdict(last.Value <= full/100),
			Note: "an update replaces the changed capability's postings (appending in place where it can, the removed ones left weighing nothing until a list is a sixth such) and re-counts only capabilities whose run-together names split differently; it ranks exactly as a build of the same capabilities (cerebellum/search tests)"})
	}
	return rows
}

// bytesPerQuery is the mean allocation of a query of ix, each query run
// right after a collection.
func bytesPerQuery(ix *search.Index, queries []string) float64 {
	for _, q := range queries {
		ix.Search(q, 5, nil) // let working memory grow to the largest query
	}
	var total uint64
	var before, after runtime.MemStats
	for _, q := range queries {
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix.Search(q, 5, nil)
		runtime.ReadMemStats(&after)
		total += after.TotalAlloc - before.TotalAlloc
	}
	return float64(total) / float64(len(queries))
}
