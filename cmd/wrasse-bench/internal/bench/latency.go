package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
)

const sectionLatency = "search latency"

// latencyTargets are the p50 targets by workspace size.
var latencyTargets = map[int]time.Duration{1000: 200 * time.Microsecond, 10000: 2 * time.Millisecond}

// timeEach runs fn once per query untimed (warm-up), then once more each
// under the clock, and returns the durations in query order.
func timeEach(ctx context.Context, queries []string, fn func(string)) ([]time.Duration, error) {
	for _, q := range queries {
		fn(q)
	}
	ds := make([]time.Duration, len(queries))
	for i, q := range queries {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		t0 := time.Now()
		fn(q)
		ds[i] = time.Since(t0)
	}
	return ds, nil
}

// latency times tool_search (Registry.Search, as the tool calls it) on sp
// over synthetic queries, beside substring scoring of the first
// baselineQueries of them.
func latency(ctx context.Context, sp *space, queries, baselineQueries int, seed int64) []Row {
	label := fmt.Sprintf("%s capabilities", FormatInt(sp.n))
	snap := sp.reg.Snapshot()
	t0 := time.Now()
	snap.Search() // built once per snapshot, on the first search
	build := time.Since(t0)
	docs := searchDocs(snap)
	qs := eval.SyntheticQueries(docs, queries, seed)
	reg := sp.reg
	ts, err := timeEach(ctx, qs, func(q string) { _, _ = reg.Search(nil, q, cerebellum.SearchLimit) })
	if err != nil {
		return []Row{errorRow(sectionLatency, "p50, "+label, err)}
	}
	sub := eval.NewSubstring(docs)
	bs, err := timeEach(ctx, qs[:min(baselineQueries, len(qs))], func(q string) { sub.Rank(q, cerebellum.SearchLimit) })
	if err != nil {
		return []Row{errorRow(sectionLatency, "p50, "+label, err)}
	}
	p50, p99 := Percentile(ts, 50), Percentile(ts, 99)
	rows := []Row{
		{Section: sectionLatency, Measure: "p50, " + label, Value: FormatDuration(p50), Number: us(p50), Unit: "µs",
			Baseline: "substring " + FormatDuration(Percentile(bs, 50))},
		{Section: sectionLatency, Measure: "p99, " + label, Value: FormatDuration(p99), Number: us(p99), Unit: "µs",
			Baseline: "substring " + FormatDuration(Percentile(bs, 99)),
			Note: fmt.Sprintf("search at %s: %s synthetic queries through Registry.Search (limit %d) after a warm-up pass, substring baseline over the first %s; index build on first search: %s",
				label, FormatInt(len(qs)), cerebellum.SearchLimit, FormatInt(len(bs)), FormatDuration(build))},
	}
	if t, ok := latencyTargets[sp.n]; ok {
		rows[0].Target, rows[0].Pass = "≤ "+FormatDuration(t), verdict(p50 <= t)
	}
	return rows
}

// us converts d to microseconds.
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
