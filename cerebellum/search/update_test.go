package search_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/search"
	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
)

// current is the document set an index should hold, by ID.
type current map[string]search.Doc

func (c current) docs() []search.Doc {
	var out []search.Doc
	for _, d := range c {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b search.Doc) int {
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
	return out
}

// runTogether are capabilities whose names run words together, and texts
// that make those words known or not, so updates change how names split.
var runTogether = []search.Doc{
	{ID: "airqualityforecast", Name: "airqualityforecast", Description: "Pollution by zip code."},
	{ID: "hdbcarpark", Name: "hdbcarpark", Description: "Parking lots."},
	{ID: "air-words", Name: "air-words", Description: "Fresh air and good quality."},
	{ID: "car-words", Name: "car-words", Description: "A car park near the forecast office."},
	{ID: "weathertool", Name: "weathertool", ToolNames: []string{"getweatherforecast"}, Description: "Rain or shine."},
}

// An index kept up to date by Update ranks exactly as one built from
// scratch over the same documents, through additions, edits (new words,
// names that split differently), removals and re-additions.
func TestUpdateRanksAsBuild(t *testing.T) {
	base := eval.Synthetic(400, 11)
	pool := eval.Synthetic(460, 12)[400:]
	cur := current{}
	for _, d := range base {
		cur[d.ID] = d
	}
	ix := search.Build(base)
	rng := rand.New(rand.NewPCG(1, 2))
	probe := append(slices.Clone(base[:20]), runTogether...)
	for step := range 40 {
		var changed []search.Doc
		var removed []string
		ids := slices.Sorted(func(yield func(string) bool) {
			for id := range cur {
				if !yield(id) {
					return
				}
			}
		})
		switch step % 5 {
		case 0: // add new ones, run-together names among them
			changed = append(changed, pool[step%len(pool)], runTogether[step%len(runTogether)])
		case 1: // edit one: a new word and a changed name word
			d := cur[ids[rng.IntN(len(ids))]]
			d.Description += fmt.Sprintf(" quuxification%d air quality", step)
			d.Keywords = append(slices.Clone(d.Keywords), "park")
			changed = append(changed, d)
		case 2: // remove some
			for range 3 {
				removed = append(removed, ids[rng.IntN(len(ids))])
			}
			removed = append(removed, "air-words", "no-such-capability")
		case 3: // replace one with a duplicate ID in the batch: the first wins
			d := cur[ids[rng.IntN(len(ids))]]
			d1, d2 := d, d
			d1.Description, d2.Description = "first version wins", "second version loses"
			changed = append(changed, d1, d2)
		case 4: // remove and change in one update
			removed = append(removed, ids[rng.IntN(len(ids))])
			d := cur[ids[rng.IntN(len(ids))]]
			d.ToolNames = append(slices.Clone(d.ToolNames), "carparkfinder")
			d.ToolDescriptions = append(slices.Clone(d.ToolDescriptions), "Find a car park.")
			changed = append(changed, d)
		}
		old := ix
		before := goldenRun(old, probe)
		ix = ix.Update(changed, removed)
		for _, id := range removed {
			delete(cur, id)
		}
		seen := map[string]bool{}
		for _, d := range changed {
			if !seen[d.ID] {
				seen[d.ID] = true
				cur[d.ID] = d
			}
		}
		want := search.Build(cur.docs())
		if ix.Len() != want.Len() {
			t.Fatalf("step %d: %d documents, a build has %d", step, ix.Len(), want.Len())
		}
		got, exp := goldenRun(ix, probe), goldenRun(want, probe)
		for k := range exp {
			if !reflect.DeepEqual(normHits(got[k]), normHits(exp[k])) {
				t.Fatalf("step %d (%v, removed %v) %s:\n update %v\n build  %v", step, ids4(changed), removed, k, got[k], exp[k])
			}
		}
		// The index updated from is unchanged.
		if after := goldenRun(old, probe); !reflect.DeepEqual(after, before) {
			t.Fatalf("step %d: Update changed the index it started from", step)
		}
	}
}

func ids4(docs []search.Doc) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.ID)
	}
	return out
}

// Searching an index while Update makes the next ones from it is safe
// (run with -race) and does not change what it finds.
func TestUpdateWhileSearching(t *testing.T) {
	docs := eval.Synthetic(300, 21)
	ix := search.Build(docs)
	queries := eval.SyntheticQueries(docs, 50, 22)
	want := goldenRun(ix, docs[:10])
	done := make(chan struct{})
	go func() {
		defer close(done)
		next := ix
		for i := range 30 {
			d := docs[i]
			d.Description += " zorblax"
			next = next.Update([]search.Doc{d}, []string{docs[i+100].ID})
			next.Search(queries[i], 5, nil)
		}
	}()
	for _, q := range queries {
		ix.Search(q, 5, nil)
	}
	<-done
	if got := goldenRun(ix, docs[:10]); !reflect.DeepEqual(got, want) {
		t.Fatal("the index searched while others were made from it changed")
	}
}

// Next finds what changed itself and ranks as Build of the new documents;
// with nothing changed it is the same index.
func TestNextRanksAsBuild(t *testing.T) {
	docs := eval.Synthetic(300, 31)
	ix := search.Build(docs)
	if ix.Next(slices.Clone(docs)) != ix {
		t.Fatal("Next with the same documents made a new index")
	}
	next := slices.Clone(docs[5:]) // five removed
	next[0].Description += " zorblax"
	next[1].ToolNames = append(slices.Clone(next[1].ToolNames), "airqualityforecast")
	next = append(next, runTogether...)
	got, want := goldenRun(ix.Next(next), next[:20]), goldenRun(search.Build(next), next[:20])
	if !reflect.DeepEqual(got, want) {
		t.Fatal("Next ranks otherwise than Build of the same documents")
	}
}
