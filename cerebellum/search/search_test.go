package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// fixture is a small workspace of capabilities shaped like real ones.
func fixture() []Doc {
	return []Doc{
		{ID: "weather", Name: "weather", Description: "Current conditions and forecasts for any city.",
			Keywords:  []string{"rain", "temperature"},
			ToolNames: []string{"get_forecast", "getCurrentConditions"}, ToolDescriptions: []string{"Daily forecast for a place.", "Conditions right now."}},
		{ID: "airqualityforecast", Name: "airqualityforecast", Description: "Pollution levels by zip code."},
		{ID: "pdf-tools", Name: "pdf-tools", Description: "Merge, split and compress PDF files.",
			ToolNames: []string{"merge_pdfs", "split_pdf", "compress_pdf"}},
		{ID: "files", Name: "files", Description: "Read, write and search files on disk.",
			ToolNames: []string{"read_file", "write_file", "search"}, Headings: []string{"Searching many files"}},
		{ID: "web-search", Name: "web-search", Description: "Search the web and fetch pages.",
			ToolNames: []string{"search", "fetch_page"}},
		{ID: "house-renting", Name: "house-renting", Description: "Apartments and houses to rent."},
		{ID: "notes", Name: "notes", Description: "Take notes. Notes about quality time, weather notes, notes of every kind, notes notes."},
		{ID: "dataviz", Name: "dataviz", Description: "Guide to charts.", Headings: []string{"Choosing a chart", "Colour and accessibility"}},
	}
}

func ids(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	ix := Build(fixture())
	tests := []struct {
		query string
		first string
	}{
		{"what's the weather tomorrow", "weather"},
		{"forecasting", "weather"},                       // stemming
		{"current conditions", "weather"},                // camelCase tool name
		{"air quality in my town", "airqualityforecast"}, // run-together name, segmented
		{"compress pdfs", "pdf-tools"},
		{"searching files", "files"},
		{"rental flat", "house-renting"}, // "rental" reaches "rent" by prefix
		{"chart colour", "dataviz"},      // guide headings
		{"temperature", "weather"},       // keywords
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits := ix.Search(tt.query, 5, nil)
			if len(hits) == 0 || hits[0].ID != tt.first {
				t.Fatalf("Search(%q) = %v, want %q first", tt.query, hits, tt.first)
			}
			if hits[0].Exact {
				t.Errorf("Search(%q): lexical hit marked exact", tt.query)
			}
		})
	}
}

func TestSearchNameOutweighsRepetition(t *testing.T) {
	// "notes" says "weather" once in a long description; the weather
	// capability is named so. Field weights must prefer the name.
	hits := Build(fixture()).Search("weather", 5, nil)
	if got := ids(hits); len(got) < 2 || got[0] != "weather" {
		t.Fatalf("got %v, want weather first", got)
	}
}

func TestSearchScoresDescend(t *testing.T) {
	ix := Build(fixture())
	for _, q := range []string{"search files and pages", "notes weather quality", "pdf"} {
		hits := ix.Search(q, 10, nil)
		if len(hits) == 0 {
			t.Fatalf("Search(%q): no hits", q)
		}
		for i := 1; i < len(hits); i++ {
			a, b := hits[i-1], hits[i]
			if a.Score < b.Score || (a.Score == b.Score && a.ID > b.ID) {
				t.Errorf("Search(%q): %v before %v", q, a, b)
			}
			if b.Score <= 0 {
				t.Errorf("Search(%q): non-positive score %v", q, b)
			}
		}
	}
}

func TestSearchExact(t *testing.T) {
	ix := Build(fixture())
	tests := []struct {
		query string
		want  []Hit // Score ignored
	}{
		{"weather", []Hit{{ID: "weather", Exact: true}}},
		{"  Web Search ", []Hit{{ID: "web-search", Exact: true}}},
		{"web_search", []Hit{{ID: "web-search", Exact: true}}},
		{"PDF-Tools", []Hit{{ID: "pdf-tools", Exact: true}}},
		{"get_forecast", []Hit{{ID: "weather", Exact: true, MatchedTool: "get_forecast"}}},
		{"get forecast", []Hit{{ID: "weather", Exact: true, MatchedTool: "get_forecast"}}},
		{"getcurrentconditions", []Hit{{ID: "weather", Exact: true, MatchedTool: "getCurrentConditions"}}},
		{"compress_pdf", []Hit{{ID: "pdf-tools", Exact: true, MatchedTool: "compress_pdf"}}},
		// Two capabilities have a tool named "search": both come first, by ID.
		{"search", []Hit{{ID: "files", Exact: true, MatchedTool: "search"}, {ID: "web-search", Exact: true, MatchedTool: "search"}}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits := ix.Search(tt.query, 5, nil)
			if len(hits) < len(tt.want) {
				t.Fatalf("got %v, want prefix %v", hits, tt.want)
			}
			for i, w := range tt.want {
				g := hits[i]
				g.Score = 0
				if g != w {
					t.Errorf("hit %d = %+v, want %+v", i, g, w)
				}
			}
			for _, h := range hits[len(tt.want):] {
				if h.Exact || h.MatchedTool != "" {
					t.Errorf("extra exact hit %+v", h)
				}
			}
		})
	}
}

func TestSearchExactBeatsScore(t *testing.T) {
	// "tiny" is named exactly but its text never says "tiny"; "big" says it
	// over and over. The exact name still comes first.
	ix := Build([]Doc{
		{ID: "big", Name: "big", Description: "tiny tiny tiny tiny tiny things", Keywords: []string{"tiny"}},
		{ID: "tiny", Name: "tiny", Description: "Small helpers."},
	})
	hits := ix.Search("TINY", 5, nil)
	if got := ids(hits); !slices.Equal(got, []string{"tiny", "big"}) || !hits[0].Exact {
		t.Fatalf("got %+v, want exact tiny then big", hits)
	}
}

func TestSearchCapabilityNameBeforeToolName(t *testing.T) {
	ix := Build([]Doc{
		{ID: "a-tools", Name: "a-tools", ToolNames: []string{"zeta"}},
		{ID: "zeta", Name: "zeta", Description: "The zeta capability."},
	})
	hits := ix.Search("zeta", 5, nil)
	if len(hits) != 2 || hits[0].ID != "zeta" || hits[0].MatchedTool != "" || hits[1].MatchedTool != "zeta" {
		t.Fatalf("got %+v, want zeta (named) before a-tools (tool)", hits)
	}
}

func TestSearchKeep(t *testing.T) {
	ix := Build(fixture())
	noWeb := func(id string) bool { return id != "web-search" && id != "weather" }
	// Exact matches are filtered too.
	for _, h := range ix.Search("weather", 5, noWeb) {
		if h.ID == "weather" {
			t.Fatalf("filtered capability returned: %+v", h)
		}
	}
	// Filtering happens before the top k is cut: k results still come back.
	all := ix.Search("search files pages notes pdf", 10, nil)
	kept := ix.Search("search files pages notes pdf", 3, noWeb)
	var want []string
	for _, h := range all {
		if noWeb(h.ID) && len(want) < 3 {
			want = append(want, h.ID)
		}
	}
	if got := ids(kept); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if hits := ix.Search("weather", 5, func(string) bool { return false }); len(hits) != 0 {
		t.Fatalf("keep rejecting all: got %v", hits)
	}
}

func TestSearchK(t *testing.T) {
	ix := Build(fixture())
	for _, k := range []int{-1, 0, 1, 2, 100} {
		hits := ix.Search("search files notes weather pdf", k, nil)
		if k <= 0 && hits != nil {
			t.Errorf("k=%d: got %v, want nil", k, hits)
		}
		if k > 0 && len(hits) > k {
			t.Errorf("k=%d: got %d hits", k, len(hits))
		}
	}
	if got := len(ix.Search("search files notes weather pdf", 2, nil)); got != 2 {
		t.Errorf("k=2: got %d hits, want 2", got)
	}
	// k=1 with two exact matches keeps the first.
	if hits := ix.Search("search", 1, nil); len(hits) != 1 || hits[0].ID != "files" {
		t.Errorf("k=1 exact: got %v", hits)
	}
}

func TestSearchNoMatch(t *testing.T) {
	ix := Build(fixture())
	for _, q := range []string{"", "   ", "the of and", "xyzzy plugh", "!!!"} {
		if hits := ix.Search(q, 5, nil); len(hits) != 0 {
			t.Errorf("Search(%q) = %v, want none", q, hits)
		}
	}
	empty := Build(nil)
	if empty.Len() != 0 || empty.Search("weather", 5, nil) != nil {
		t.Error("empty index should have no documents and no hits")
	}
}

func TestBuildDuplicateIDs(t *testing.T) {
	ix := Build([]Doc{
		{ID: "b", Name: "b", Description: "second"},
		{ID: "a", Name: "a", Description: "first copy"},
		{ID: "a", Name: "a", Description: "later copy"},
	})
	if ix.Len() != 2 {
		t.Fatalf("Len = %d, want 2", ix.Len())
	}
	if hits := ix.Search("later", 5, nil); len(hits) != 0 {
		t.Errorf("the later duplicate was indexed: %v", hits)
	}
	if hits := ix.Search("first", 5, nil); len(hits) != 1 || hits[0].ID != "a" {
		t.Errorf("the first duplicate was lost: %v", hits)
	}
}

func TestBuildDoesNotModifyInput(t *testing.T) {
	docs := fixture()
	slices.Reverse(docs)
	before := fmt.Sprint(docs)
	Build(docs)
	if fmt.Sprint(docs) != before {
		t.Error("Build modified its input")
	}
}

func TestSearchDeterministic(t *testing.T) {
	docs := fixture()
	// Identical text under different IDs: ties break by ID ascending.
	for _, id := range []string{"twin-c", "twin-a", "twin-b"} {
		docs = append(docs, Doc{ID: id, Name: id, Description: "Identical twin capability for ties."})
	}
	want := Build(docs).Search("identical twin", 5, nil)
	if got := ids(want); !slices.Equal(got, []string{"twin-a", "twin-b", "twin-c"}) {
		t.Fatalf("tie order %v", got)
	}
	queries := []string{"identical twin", "search files", "weather forecast", "notes quality", "pdf"}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		shuffled := slices.Clone(docs)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		a, b := Build(docs), Build(shuffled)
		for _, q := range queries {
			if ga, gb := a.Search(q, 5, nil), b.Search(q, 5, nil); !slices.Equal(ga, gb) {
				t.Fatalf("round %d, %q: %v vs %v after shuffling input", round, q, ga, gb)
			}
		}
	}
}

func TestSearchConcurrent(t *testing.T) {
	ix := Build(fixture())
	queries := []string{"weather", "search files", "compress pdf", "air quality", "notes", "get_forecast", "rental"}
	want := make([][]Hit, len(queries))
	for i, q := range queries {
		want[i] = ix.Search(q, 5, nil)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				n := (g + i) % len(queries)
				if got := ix.Search(queries[n], 5, nil); !slices.Equal(got, want[n]) {
					select {
					case errs <- fmt.Sprintf("%q: %v, want %v", queries[n], got, want[n]):
					default:
					}
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestSearchLongQuery(t *testing.T) {
	ix := Build(fixture())
	q := ""
	for i := range 500 {
		q += fmt.Sprintf("word%d ", i)
	}
	q += "weather"
	// Beyond maxQueryTerms words are ignored; the search stays bounded.
	if hits := ix.Search(q, 5, nil); len(hits) > 5 {
		t.Fatalf("got %d hits", len(hits))
	}
}
