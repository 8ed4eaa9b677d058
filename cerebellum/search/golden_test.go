package search_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.json from the current ranking")

// goldenRun ranks synthetic queries (and names, stop words, misspellings)
// over synthetic capabilities, with and without a filter.
func goldenRun(ix *search.Index, docs []search.Doc) map[string][]search.Hit {
	queries := append(eval.SyntheticQueries(docs, 120, 8), docs[3].ID)
	queries = append(queries, docs[4].ToolNames...)
	queries = append(queries, "the and of", "", "weathr forecastng rentals", "convert-currency", docs[5].Name+" "+docs[6].Name)
	keep := func(id string) bool { return len(id)%3 != 0 }
	out := map[string][]search.Hit{}
	for i, q := range queries {
		out[fmt.Sprintf("%03d k5 %s", i, q)] = ix.Search(q, 5, nil)
		out[fmt.Sprintf("%03d k10f %s", i, q)] = ix.Search(q, 10, keep)
		out[fmt.Sprintf("%03d exact %s", i, q)] = ix.Exact(q, 5, nil)
	}
	return out
}

// The ranking is pinned: scores and order of a fixed corpus and query set
// must not move unless the ranking is meant to change (then regenerate
// with -update-golden and say why in the commit).
func TestGoldenRanking(t *testing.T) {
	docs := eval.Synthetic(1500, 7)
	got := goldenRun(search.Build(docs), docs)
	if *updateGolden {
		b, err := json.MarshalIndent(got, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("testdata/golden.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]search.Hit
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d rankings, golden has %d", len(got), len(want))
	}
	for k, w := range want {
		if g := got[k]; !reflect.DeepEqual(normHits(g), normHits(w)) {
			t.Errorf("%s:\n got %v\nwant %v", k, g, w)
		}
	}
}

// normHits treats no hits and an empty list alike.
func normHits(h []search.Hit) []search.Hit {
	if len(h) == 0 {
		return nil
	}
	return h
}
