package eval

import (
	"fmt"
	"io"
	"slices"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// Ranker ranks capability names for a query, best first, at most k.
type Ranker interface {
	Rank(query string, k int) []string
}

// Namer is implemented by rankers that have a name for reports.
type Namer interface {
	Name() string
}

// Report is one ranker's quality on a data set. With one right tool per
// query, recall@k is the share of queries whose tool is in the top k.
type Report struct {
	Ranker  string
	Queries int
	R1, R5  float64
	MRR     float64 // mean reciprocal rank of the right tool within the top 10
}

// mrrDepth is how deep MRR looks; a tool ranked lower counts as 0.
const mrrDepth = 10

// Evaluate runs every query of ds through each ranker, in order.
func Evaluate(ds *Dataset, rankers ...Ranker) []Report {
	out := make([]Report, 0, len(rankers))
	for i, r := range rankers {
		rep := Report{Ranker: fmt.Sprintf("ranker%d", i+1), Queries: len(ds.Queries)}
		if n, ok := r.(Namer); ok {
			rep.Ranker = n.Name()
		}
		var r1, r5, rr float64
		for _, q := range ds.Queries {
			got := r.Rank(q.Text, mrrDepth)
			if len(got) > mrrDepth {
				got = got[:mrrDepth]
			}
			if pos := slices.Index(got, q.Capability); pos >= 0 {
				rr += 1 / float64(pos+1)
				if pos == 0 {
					r1++
				}
				if pos < 5 {
					r5++
				}
			}
		}
		if n := float64(len(ds.Queries)); n > 0 {
			rep.R1, rep.R5, rep.MRR = r1/n, r5/n, rr/n
		}
		out = append(out, rep)
	}
	return out
}

// IndexRanker ranks with tool_search's own index.
type IndexRanker struct{ Index *search.Index }

// Name implements Namer.
func (IndexRanker) Name() string { return "tool_search" }

// Rank implements Ranker.
func (r IndexRanker) Rank(query string, k int) []string {
	hits := r.Index.Search(query, k, nil)
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

// Compare evaluates tool_search, plain BM25 and substring scoring on ds in
// one run, in that order.
func Compare(ds *Dataset) []Report {
	docs := ds.Docs()
	return Evaluate(ds, IndexRanker{search.Build(docs)}, NewBM25(docs), NewSubstring(docs))
}

// WriteTable writes reports as an aligned plain-text table.
func WriteTable(w io.Writer, reports []Report) error {
	if _, err := fmt.Fprintf(w, "%-12s %7s %6s %6s %6s\n", "ranker", "queries", "R@1", "R@5", "MRR"); err != nil {
		return err
	}
	for _, r := range reports {
		if _, err := fmt.Fprintf(w, "%-12s %7d %6.3f %6.3f %6.3f\n", r.Ranker, r.Queries, r.R1, r.R5, r.MRR); err != nil {
			return err
		}
	}
	return nil
}
