package search_test

import (
	"fmt"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
)

// Benchmarks over synthetic corpora shaped like real capabilities. They live
// in package search_test because eval imports search.

func benchSearch(b *testing.B, n int) {
	docs := eval.Synthetic(n, 1)
	ix := search.Build(docs)
	queries := eval.SyntheticQueries(docs, 1000, 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Search(queries[i%len(queries)], 5, nil)
	}
}

func BenchmarkSearch1000(b *testing.B)  { benchSearch(b, 1000) }
func BenchmarkSearch10000(b *testing.B) { benchSearch(b, 10000) }

// BenchmarkSearchFiltered1000 measures the cost of a keep filter that
// rejects half the capabilities.
func BenchmarkSearchFiltered1000(b *testing.B) {
	docs := eval.Synthetic(1000, 1)
	ix := search.Build(docs)
	queries := eval.SyntheticQueries(docs, 1000, 2)
	keep := func(id string) bool { return len(id)%2 == 0 }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Search(queries[i%len(queries)], 5, keep)
	}
}

func benchBuild(b *testing.B, n int) {
	docs := eval.Synthetic(n, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		search.Build(docs)
	}
}

func BenchmarkBuild1000(b *testing.B)  { benchBuild(b, 1000) }
func BenchmarkBuild10000(b *testing.B) { benchBuild(b, 10000) }

// BenchmarkSearchParallel runs searches from every CPU on one index, as the
// registry does.
func BenchmarkSearchParallel(b *testing.B) {
	docs := eval.Synthetic(1000, 1)
	ix := search.Build(docs)
	queries := eval.SyntheticQueries(docs, 1000, 2)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			ix.Search(queries[i%len(queries)], 5, nil)
			i++
		}
	})
}

func ExampleIndex_Search() {
	ix := search.Build([]search.Doc{
		{ID: "weather", Name: "weather", Description: "Current conditions and forecasts for any city.",
			ToolNames: []string{"get_forecast"}, ToolDescriptions: []string{"Daily forecast for a place."}},
		{ID: "pdf-tools", Name: "pdf-tools", Description: "Merge, split and compress PDF files.",
			ToolNames: []string{"merge_pdfs", "split_pdf"}},
	})
	for _, h := range ix.Search("compress a PDF", 5, nil) {
		fmt.Println(h.ID)
	}
	h := ix.Search("get-forecast", 5, nil)[0]
	fmt.Println(h.ID, h.Exact, h.MatchedTool)
	// Output:
	// pdf-tools
	// weather true get_forecast
}
