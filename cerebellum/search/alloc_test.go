package search_test

import (
	"runtime"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
)

// A query allocates nothing that grows with the index: the same queries
// allocate as many bytes over 500 and 20,000 documents, even right after
// a garbage collection (which empties a sync.Pool).
func TestSearchAllocationsFlat(t *testing.T) {
	queries := eval.SyntheticQueries(eval.Synthetic(500, 5), 40, 6)
	perQuery := func(n int) uint64 {
		ix := search.Build(eval.Synthetic(n, 5))
		for _, q := range queries {
			ix.Search(q, 5, nil) // the scratch grows to the largest query
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
		return total / uint64(len(queries))
	}
	small, large := perQuery(500), perQuery(20000)
	if large > small+256 {
		t.Errorf("a query allocates %d bytes over 20,000 documents, %d over 500", large, small)
	}
}
