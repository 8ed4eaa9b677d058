package eval

import (
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

var update = flag.Bool("update", false, "rewrite golden files")

func loadDev(t *testing.T) *Dataset {
	t.Helper()
	dir := filepath.Join("testdata", "metatool")
	ds, err := LoadMetaTool(filepath.Join(dir, "tools.json"), filepath.Join(dir, "queries-dev.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestMetaToolRecall is the search-quality gate on the MetaTool development
// queries: tool_search must reach recall@5 ≥ 0.65 and beat plain BM25 by a
// clear margin. Not timed.
func TestMetaToolRecall(t *testing.T) {
	ds := loadDev(t)
	if len(ds.Tools) != 199 || len(ds.Queries) != 4000 {
		t.Fatalf("data set has %d tools and %d queries, want 199 and 4000", len(ds.Tools), len(ds.Queries))
	}
	reps := Compare(ds)
	var b strings.Builder
	if err := WriteTable(&b, reps); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	ours, bm25, sub := reps[0], reps[1], reps[2]
	if ours.R5 < 0.65 {
		t.Errorf("tool_search recall@5 = %.3f, want ≥ 0.65", ours.R5)
	}
	if ours.R5 < bm25.R5+0.08 || ours.R1 < bm25.R1+0.04 {
		t.Errorf("tool_search (R@1 %.3f, R@5 %.3f) does not clearly beat BM25 (R@1 %.3f, R@5 %.3f)", ours.R1, ours.R5, bm25.R1, bm25.R5)
	}
	// The baselines must be the published ones, not strawmen: plain BM25
	// gives about 0.38 / 0.55 on MetaTool, and substring scoring is worse.
	if bm25.R1 < 0.34 || bm25.R1 > 0.42 || bm25.R5 < 0.50 || bm25.R5 > 0.59 {
		t.Errorf("BM25 baseline R@1 %.3f, R@5 %.3f: outside the published ≈0.38 / ≈0.55", bm25.R1, bm25.R5)
	}
	if sub.R5 >= bm25.R5 {
		t.Errorf("substring R@5 %.3f ≥ BM25 %.3f", sub.R5, bm25.R5)
	}
}

func TestReadMetaTool(t *testing.T) {
	ds, err := LoadMetaTool(filepath.Join("testdata", "small", "tools.json"), filepath.Join("testdata", "small", "queries.csv"))
	if err != nil {
		t.Fatal(err)
	}
	wantTools := []Tool{
		{"PDF&URLTool", "pdf-url-tool", "Chat with a PDF or a web page."},
		{"ResearchHelper", "research-helper", "Find and summarise research papers."},
		{"SEOTool", "seo-tool", "Audit a website, suggest keywords, and check rankings."},
		{"Search", "search", "Search the web."},
		{"search", "search-2", "Design courses, workshops, and mentoring."},
		{"total_query_meta_search_engine", "total-query-meta-search-engine", "Go beyond one search engine."},
	}
	if !slices.Equal(ds.Tools, wantTools) {
		t.Errorf("tools:\n got %v\nwant %v", ds.Tools, wantTools)
	}
	wantQueries := []Query{
		{"Find papers on cats, dogs, and birds", "ResearchHelper", "research-helper"},
		{"A question\nacross two lines", "SEOTool", "seo-tool"},
		{"plain query", "PDF&URLTool", "pdf-url-tool"},
		{`He said "hi"`, "Search", "search"},
	}
	if !slices.Equal(ds.Queries, wantQueries) {
		t.Errorf("queries:\n got %q\nwant %q", ds.Queries, wantQueries)
	}
	for _, tl := range ds.Tools {
		if c, _ := ds.CapabilityOf(tl.Name); c != tl.Capability {
			t.Errorf("CapabilityOf(%q) = %q", tl.Name, c)
		}
		if n, _ := ds.ToolOf(tl.Capability); n != tl.Name {
			t.Errorf("ToolOf(%q) = %q, want %q", tl.Capability, n, tl.Name)
		}
	}
	if _, ok := ds.ToolOf("nope"); ok {
		t.Error("ToolOf(unknown) reported ok")
	}
	docs := ds.Docs()
	if want := []search.Doc{{ID: "pdf-url-tool", Name: "pdf-url-tool", Description: "Chat with a PDF or a web page."}}; len(docs) != len(ds.Tools) || !slicesEqualDocs(docs[:1], want) {
		t.Errorf("Docs()[0] = %+v", docs[0])
	}
}

func TestReadMetaToolErrors(t *testing.T) {
	tools := `{"A": "a tool", "B": "b tool"}`
	tests := []struct {
		name, tools, queries string
		want                 error
	}{
		{"tools not JSON", `not json`, "Query,Tool\n", ErrFormat},
		{"tools not an object", `["A"]`, "Query,Tool\n", ErrFormat},
		{"description not a string", `{"A": 1}`, "Query,Tool\n", ErrFormat},
		{"empty queries", tools, "", ErrFormat},
		{"no Tool column", tools, "Query,Label\nq,A\n", ErrFormat},
		{"short record", tools, "Query,Tool\nonly\n", ErrFormat},
		{"bad quoting", tools, "Query,Tool\n\"open,A\n", ErrFormat},
		{"unknown tool", tools, "Query,Tool\nq,A\nq,C\n", ErrUnknownTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadMetaTool(strings.NewReader(tt.tools), strings.NewReader(tt.queries))
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := LoadMetaTool(filepath.Join("testdata", "missing.json"), "x.csv"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
	// Columns may come in any order, with extra columns.
	ds, err := ReadMetaTool(strings.NewReader(tools), strings.NewReader("id,tool,query\n1,B,hello\n"))
	if err != nil || len(ds.Queries) != 1 || ds.Queries[0] != (Query{"hello", "B", "b"}) {
		t.Fatalf("reordered columns: %v %+v", err, ds)
	}
}

var validName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestCapabilityName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ResearchHelper", "research-helper"},
		{"SEOTool", "seo-tool"},
		{"ChatOCR", "chat-ocr"},
		{"aiAgents", "ai-agents"},
		{"AI2sql", "ai2sql"},
		{"AutoInfra1", "auto-infra1"},
		{"PDF&URLTool", "pdf-url-tool"},
		{"total_query_meta_search_engine", "total-query-meta-search-engine"},
		{"hubbubworld_hubbub_1", "hubbubworld-hubbub-1"},
		{"--a__b--", "a-b"},
		{"Café Crème", "caf-cr-me"},
		{"", "tool"},
		{"東京", "tool"},
		{strings.Repeat("ab-", 40), strings.Repeat("ab-", 21) + "a"}, // cut at 64
		{strings.Repeat("x", 63) + "-y", strings.Repeat("x", 63)},    // no trailing hyphen
	}
	for _, tt := range tests {
		got := CapabilityName(tt.in)
		if got != tt.want {
			t.Errorf("CapabilityName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !validName.MatchString(got) || len(got) > 64 {
			t.Errorf("CapabilityName(%q) = %q is not a valid name", tt.in, got)
		}
	}
}

func TestUniqueName(t *testing.T) {
	taken := map[string]bool{}
	long := strings.Repeat("x", 64)
	for _, tt := range []struct{ in, want string }{
		{"a", "a"}, {"a", "a-2"}, {"a", "a-3"}, {"a-2", "a-2-2"},
		{long, long}, {long, strings.Repeat("x", 62) + "-2"},
	} {
		if got := uniqueName(tt.in, taken); got != tt.want {
			t.Errorf("uniqueName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMetaToolNames(t *testing.T) {
	ds := loadDev(t)
	seen := map[string]bool{}
	for _, tl := range ds.Tools {
		if !validName.MatchString(tl.Capability) || len(tl.Capability) > 64 {
			t.Errorf("%q → invalid %q", tl.Name, tl.Capability)
		}
		if seen[tl.Capability] {
			t.Errorf("%q → duplicate %q", tl.Name, tl.Capability)
		}
		seen[tl.Capability] = true
		if back, _ := ds.ToolOf(tl.Capability); back != tl.Name {
			t.Errorf("%q → %q → %q", tl.Name, tl.Capability, back)
		}
	}
}

// fixedRanker answers from a table.
type fixedRanker map[string][]string

func (f fixedRanker) Rank(q string, k int) []string { return f[q] }

func TestEvaluate(t *testing.T) {
	ds := &Dataset{Queries: []Query{
		{Text: "q1", Capability: "a"}, // rank 1
		{Text: "q2", Capability: "b"}, // rank 3
		{Text: "q3", Capability: "c"}, // rank 7: in MRR only
		{Text: "q4", Capability: "d"}, // missing
	}}
	r := fixedRanker{
		"q1": {"a", "x"},
		"q2": {"x", "y", "b"},
		"q3": {"1", "2", "3", "4", "5", "6", "c", "8", "9", "10", "11"},
		"q4": {"x"},
	}
	got := Evaluate(ds, r)
	want := Report{Ranker: "ranker1", Queries: 4, R1: 0.25, R5: 0.5, MRR: (1 + 1.0/3 + 1.0/7) / 4}
	if len(got) != 1 || math.Abs(got[0].MRR-want.MRR) > 1e-12 {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	got[0].MRR = want.MRR
	if got[0] != want {
		t.Fatalf("got %+v, want %+v", got[0], want)
	}
	if got := Evaluate(&Dataset{}, r); got[0].R5 != 0 || got[0].Queries != 0 {
		t.Errorf("empty data set: %+v", got)
	}
}

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	reps := []Report{{"tool_search", 4000, 0.4465, 0.6555, 0.5361}, {"bm25", 4000, 0.378, 0.538, 0.448}}
	if err := WriteTable(&b, reps); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "table.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestBaselines(t *testing.T) {
	docs := []search.Doc{
		{ID: "weather", Name: "weather", Description: "Forecasts and current weather."},
		{ID: "video-tools", Name: "video-tools", Description: "Cut and join videos."},
		{ID: "notes", Name: "notes", Description: "Write notes about anything, weather included."},
	}
	bm := NewBM25(docs)
	if got := bm.Rank("weather forecasts", 5); !slices.Equal(got, []string{"weather", "notes"}) {
		t.Errorf("BM25 = %v", got)
	}
	// No stemming: "forecast" does not match "forecasts".
	if got := bm.Rank("forecast", 5); len(got) != 0 {
		t.Errorf("BM25 stemmed: %v", got)
	}
	sub := NewSubstring(docs)
	// Substrings match inside words; two-letter terms are ignored.
	if got := sub.Rank("vid", 5); !slices.Equal(got, []string{"video-tools"}) {
		t.Errorf("substring = %v", got)
	}
	if got := sub.Rank("of to", 5); len(got) != 0 {
		t.Errorf("substring short terms: %v", got)
	}
	// The name weighs more than the description.
	if got := sub.Rank("weather", 5); !slices.Equal(got, []string{"weather", "notes"}) {
		t.Errorf("substring = %v", got)
	}
	if got := sub.Rank("weather", 1); len(got) != 1 {
		t.Errorf("substring k=1: %v", got)
	}
	if n := bm.Name() + "," + sub.Name(); n != "bm25,substring" {
		t.Errorf("names %q", n)
	}
}

func TestSynthetic(t *testing.T) {
	a, b := Synthetic(300, 7), Synthetic(300, 7)
	if !slicesEqualDocs(a, b) {
		t.Fatal("same seed, different corpus")
	}
	if slicesEqualDocs(a, Synthetic(300, 8)) {
		t.Fatal("different seeds, same corpus")
	}
	ids := map[string]bool{}
	var tools, guides int
	for _, d := range a {
		if !validName.MatchString(d.ID) || d.ID != d.Name || ids[d.ID] {
			t.Fatalf("bad or duplicate ID %q", d.ID)
		}
		ids[d.ID] = true
		if n := len(strings.Fields(d.Description)); n < 10 || n > 40 {
			t.Errorf("%s: description of %d words", d.ID, n)
		}
		if len(d.ToolNames) > 20 || len(d.ToolNames) != len(d.ToolDescriptions) {
			t.Errorf("%s: %d tools, %d descriptions", d.ID, len(d.ToolNames), len(d.ToolDescriptions))
		}
		if len(d.ToolNames) == 0 {
			guides++
		}
		seen := map[string]bool{}
		for _, tn := range d.ToolNames {
			if seen[tn] {
				t.Errorf("%s: tool %q twice", d.ID, tn)
			}
			seen[tn] = true
		}
		tools += len(d.ToolNames)
	}
	if len(a) != 300 || guides == 0 || tools < 300*5 {
		t.Errorf("%d docs, %d guides, %d tools: not a realistic mix", len(a), guides, tools)
	}
	q1, q2 := SyntheticQueries(a, 50, 3), SyntheticQueries(a, 50, 3)
	if len(q1) != 50 || !slices.Equal(q1, q2) {
		t.Fatalf("queries: %d, deterministic %v", len(q1), slices.Equal(q1, q2))
	}
	if SyntheticQueries(nil, 5, 1) != nil {
		t.Error("queries for no documents")
	}
	// Most synthetic queries find something.
	ix := search.Build(a)
	found := 0
	for _, q := range q1 {
		if len(ix.Search(q, 5, nil)) > 0 {
			found++
		}
	}
	if found < 45 {
		t.Errorf("only %d of 50 synthetic queries find anything", found)
	}
}

func slicesEqualDocs(a, b []search.Doc) bool {
	return slices.EqualFunc(a, b, func(x, y search.Doc) bool {
		return x.ID == y.ID && x.Name == y.Name && x.Description == y.Description &&
			slices.Equal(x.Keywords, y.Keywords) && slices.Equal(x.ToolNames, y.ToolNames) &&
			slices.Equal(x.ToolDescriptions, y.ToolDescriptions) && slices.Equal(x.Headings, y.Headings)
	})
}

func TestMeasureLatency(t *testing.T) {
	docs := Synthetic(50, 1)
	ix := search.Build(docs)
	lat := MeasureLatency(ix, SyntheticQueries(docs, 20, 1), 5)
	// Shape only: wall-clock values are never asserted.
	if lat.Queries != 20 || lat.P50 > lat.P99 || lat.P99 > lat.Max {
		t.Errorf("latency %+v", lat)
	}
	if (MeasureLatency(ix, nil, 5) != Latency{}) {
		t.Error("latency of no queries")
	}
}

func TestPercentile(t *testing.T) {
	ds := make([]time.Duration, 100)
	for i := range ds {
		ds[i] = time.Duration(i + 1)
	}
	if p50, p99 := percentile(ds, 50), percentile(ds, 99); p50 != 50 || p99 != 99 {
		t.Errorf("p50 %v p99 %v", p50, p99)
	}
	if p := percentile(ds[:1], 99); p != 1 {
		t.Errorf("one sample: %v", p)
	}
}

// FuzzReadMetaTool feeds arbitrary files to the loader: errors are fine,
// panics and queries naming unmapped tools are not.
func FuzzReadMetaTool(f *testing.F) {
	f.Add(`{"A":"x"}`, "Query,Tool\nq,A\n")
	f.Add(`{"A B":"x","a-b":"y"}`, "Tool,Query\nA B,\"q,\n\"\"r\"\"\"\n")
	f.Fuzz(func(t *testing.T, tools, queries string) {
		ds, err := ReadMetaTool(strings.NewReader(tools), strings.NewReader(queries))
		if err != nil {
			return
		}
		for _, q := range ds.Queries {
			if back, ok := ds.ToolOf(q.Capability); !ok || back != q.Tool {
				t.Fatalf("query %+v does not map back", q)
			}
		}
		for _, tl := range ds.Tools {
			if !validName.MatchString(tl.Capability) || len(tl.Capability) > 64 {
				t.Fatalf("invalid capability name %q for %q", tl.Capability, tl.Name)
			}
		}
	})
}
