package eval

import (
	"slices"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// Latency summarises per-query search times.
type Latency struct {
	Queries       int
	P50, P99, Max time.Duration
}

// MeasureLatency times ix.Search(q, k, nil) for every query, once each,
// after one untimed warm-up pass. It reads the wall clock, so it belongs in
// benchmarks and the bench command, never in a test's assertions.
func MeasureLatency(ix *search.Index, queries []string, k int) Latency {
	if len(queries) == 0 {
		return Latency{}
	}
	for _, q := range queries {
		ix.Search(q, k, nil)
	}
	ds := make([]time.Duration, len(queries))
	for i, q := range queries {
		t0 := time.Now()
		ix.Search(q, k, nil)
		ds[i] = time.Since(t0)
	}
	slices.Sort(ds)
	return Latency{
		Queries: len(ds),
		P50:     percentile(ds, 50),
		P99:     percentile(ds, 99),
		Max:     ds[len(ds)-1],
	}
}

// percentile returns the nearest-rank percentile of sorted ds.
func percentile(ds []time.Duration, p int) time.Duration {
	i := (p*len(ds) + 99) / 100 // ceil(p/100 · n), 1-based
	return ds[max(i, 1)-1]
}
