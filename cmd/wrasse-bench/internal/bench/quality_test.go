package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

func TestSkillForParses(t *testing.T) {
	for _, desc := range []string{
		`Plain description.`,
		`Quotes "like this" and 'this', a colon: here, # not a comment`,
		"Unicode — café, 日本語, emoji 🙂 and a backslash \\ too",
		"- starts like a list\nand spans\tlines   with  spaces",
		`{looks: [like, yaml]}`,
	} {
		tool := eval.Tool{Name: "SomeTool", Capability: "some-tool", Description: desc}
		md, err := skillFor(tool)
		if err != nil {
			t.Fatal(err)
		}
		m, err := skillmd.Parse([]byte(md), skillmd.Options{Folder: tool.Capability})
		if err != nil {
			t.Fatalf("%q: %v\n%s", desc, err, md)
		}
		want := strings.Join(strings.Fields(desc), " ")
		if m.Name != tool.Capability || m.Description != want || len(m.Tools) != 0 {
			t.Errorf("%q: parsed name %q description %q tools %d", desc, m.Name, m.Description, len(m.Tools))
		}
	}
}

// fixedRanker returns canned rankings.
type fixedRanker map[string][]string

func (f fixedRanker) Rank(q string, k int) []string {
	r := f[q]
	if len(r) > k {
		r = r[:k]
	}
	return r
}

func TestScoreRankers(t *testing.T) {
	ds, err := eval.ReadMetaTool(strings.NewReader(`{"A":"a","B":"b","C":"c"}`),
		strings.NewReader("Query,Tool\nq1,A\nq2,B\nq3,C\nq4,A\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := fixedRanker{
		"q1": {"a", "b"},           // first
		"q2": {"a", "c", "b"},      // third
		"q3": {"a", "b"},           // missing
		"q4": {"c", "b", "x", "a"}, // fourth
	}
	for _, c := range []struct {
		k           int
		r1, rk, mrr float64
	}{
		{1, 0.25, 0.25, (1 + 1.0/3 + 1.0/4) / 4},
		{3, 0.25, 0.5, (1 + 1.0/3 + 1.0/4) / 4},
		{5, 0.25, 0.75, (1 + 1.0/3 + 1.0/4) / 4},
	} {
		s := scoreRankers(ds, c.k, r)[0]
		if s.Ranker != "ranker1" || s.Queries != 4 || s.K != c.k || s.R1 != c.r1 || s.RK != c.rk || !near(s.MRR, c.mrr) {
			t.Errorf("k=%d: %+v, want R1 %v RK %v MRR %v", c.k, s, c.r1, c.rk, c.mrr)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

func TestCompareSearchTiny(t *testing.T) {
	scores, err := SearchCommand(t.TempDir(), "testdata/tiny/tools.json", "testdata/tiny/queries-dev.csv", 3)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, s := range scores {
		names = append(names, s.Ranker)
		if s.Queries != 6 || s.K != 3 {
			t.Errorf("%+v", s)
		}
	}
	if strings.Join(names, ",") != "tool_search,bm25,substring" {
		t.Errorf("rankers %v", names)
	}
	// Every query names its tool's subject in plain words: tool_search,
	// going through the registry, must rank each first.
	if ts := scores[0]; ts.R1 != 1 || ts.RK != 1 || ts.MRR != 1 {
		t.Errorf("tool_search on the tiny set: %+v", ts)
	}
	var b strings.Builder
	if err := WriteScores(&b, scores); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "recall@3") || !strings.Contains(b.String(), "tool_search") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestSearchCommandErrors(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		tools, queries string
		k              int
		want           error
	}{
		{"testdata/tiny/tools.json", "testdata/tiny/empty.csv", 5, ErrNoQueries},
		{"testdata/tiny/tools.json", "testdata/tiny/unknown.csv", 5, eval.ErrUnknownTool},
		{"testdata/tiny/tools.json", "testdata/tiny/queries-dev.csv", 0, ErrUsage},
		{"testdata/tiny/missing.json", "testdata/tiny/queries-dev.csv", 5, os.ErrNotExist},
	} {
		if _, err := SearchCommand(tmp, c.tools, c.queries, c.k); !errors.Is(err, c.want) {
			t.Errorf("%s %s k=%d: %v, want %v", c.tools, c.queries, c.k, err, c.want)
		}
	}
}

func TestFindMetaTool(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "main")
	shared := filepath.Join(root, "shared", "data", "metatool")
	copyData := filepath.Join(repo, "cerebellum", "search", "eval", "testdata", "metatool")
	write := func(dir string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{ToolsFile, QueriesFile} {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := FindMetaTool(repo, ""); !errors.Is(err, ErrNoData) {
		t.Errorf("nothing there: %v", err)
	}
	write(copyData)
	if got, err := FindMetaTool(repo, ""); err != nil || got != copyData {
		t.Errorf("fallback: %q, %v", got, err)
	}
	write(shared)
	if got, err := FindMetaTool(repo, ""); err != nil || got != shared {
		t.Errorf("shared first: %q, %v", got, err)
	}
	if _, err := FindMetaTool(repo, filepath.Join(root, "elsewhere")); !errors.Is(err, ErrNoData) {
		t.Errorf("explicit folder without data: %v", err)
	}
}
