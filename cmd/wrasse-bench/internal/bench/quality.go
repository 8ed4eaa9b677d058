package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/search/eval"
)

const sectionQuality = "search quality"

// Files of a data set in the MetaTool format.
const (
	ToolsFile   = "tools.json"
	QueriesFile = "queries-dev.csv"
)

// recallTarget is the recall@5 tool_search must reach on MetaTool.
const recallTarget = 0.65

// mrrDepth is how deep the mean reciprocal rank looks.
const mrrDepth = 10

// FindMetaTool returns the folder holding the MetaTool data: explicit if
// given, else ../shared/data/metatool beside the repository, else the copy
// under cerebellum/search/eval/testdata/metatool.
func FindMetaTool(repo, explicit string) (string, error) {
	cands := []string{explicit}
	if explicit == "" {
		cands = []string{
			filepath.Join(repo, "..", "shared", "data", "metatool"),
			filepath.Join(repo, "cerebellum", "search", "eval", "testdata", "metatool"),
		}
	}
	for _, d := range cands {
		if d == "" {
			continue
		}
		if isFile(filepath.Join(d, ToolsFile)) && isFile(filepath.Join(d, QueriesFile)) {
			return filepath.Clean(d), nil
		}
	}
	return "", fmt.Errorf("%w: no %s and %s in %s; pass --metatool DIR", ErrNoData, ToolsFile, QueriesFile, strings.Join(slices.DeleteFunc(cands, func(s string) bool { return s == "" }), " or "))
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// skillFor is the SKILL.md of a data-set tool made into a guide: its mapped
// name and its description, nothing else, so tool_search sees exactly the
// text the baselines see.
func skillFor(t eval.Tool) (string, error) {
	desc, err := json.Marshal(strings.Join(strings.Fields(t.Description), " "))
	if err != nil {
		return "", err
	}
	// A JSON string is a valid YAML double-quoted scalar.
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\nMade from the data set's tool %q.\n", t.Capability, desc, t.Name), nil
}

// datasetWorkspace writes one capability folder per data-set tool into a
// workspace at root and returns root.
func datasetWorkspace(root string, ds *eval.Dataset) (string, error) {
	dir := cerebellum.CapabilitiesDir(root)
	for _, t := range ds.Tools {
		md, err := skillFor(t)
		if err != nil {
			return "", fmt.Errorf("tool %s: %w", t.Name, err)
		}
		d := filepath.Join(dir, t.Capability)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(md), 0o644); err != nil {
			return "", err
		}
	}
	return root, nil
}

// datasetRegistry opens a registry over the data set's folders alone (no
// built-ins, so every ranker ranks the same documents) and checks that each
// tool became a usable capability of its mapped name.
func datasetRegistry(root string, ds *eval.Dataset) (*cerebellum.Registry, error) {
	ws, err := datasetWorkspace(root, ds)
	if err != nil {
		return nil, err
	}
	reg, err := openRegistryWith(nil, ws, newHost())
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, t := range ds.Tools {
		c, err := reg.Get(t.Capability)
		switch {
		case err != nil:
			bad = append(bad, fmt.Sprintf("%s: %v", t.Name, err))
		case !c.Usable():
			bad = append(bad, fmt.Sprintf("%s: %s", t.Name, c.Error))
		}
	}
	if len(bad) > 0 {
		reg.Close()
		return nil, fmt.Errorf("%d of %d tools did not become usable capabilities: %s", len(bad), len(ds.Tools), strings.Join(bad, "; "))
	}
	return reg, nil
}

// registryRanker ranks through Registry.Search, the tool_search path.
type registryRanker struct{ reg *cerebellum.Registry }

func (registryRanker) Name() string { return "tool_search" }

func (r registryRanker) Rank(query string, k int) []string {
	res, err := r.reg.Search(nil, query, k)
	if err != nil {
		return nil // an empty query finds nothing
	}
	out := make([]string, len(res.Matches))
	for i, m := range res.Matches {
		out[i] = m.Capability.Name
	}
	return out
}

// Score is one ranker's quality on a data set.
type Score struct {
	Ranker  string  `json:"ranker"`
	Queries int     `json:"queries"`
	K       int     `json:"k"`
	R1      float64 `json:"recall1"`
	RK      float64 `json:"recallK"`
	MRR     float64 `json:"mrr10"`
}

// scoreRankers runs every query through each ranker: recall@1, recall@k
// (share of queries whose tool is among the first k) and MRR within the
// first ten.
func scoreRankers(ds *eval.Dataset, k int, rankers ...eval.Ranker) []Score {
	depth := max(k, mrrDepth)
	out := make([]Score, 0, len(rankers))
	for i, r := range rankers {
		s := Score{Ranker: fmt.Sprintf("ranker%d", i+1), Queries: len(ds.Queries), K: k}
		if n, ok := r.(eval.Namer); ok {
			s.Ranker = n.Name()
		}
		var r1, rk, rr float64
		for _, q := range ds.Queries {
			got := r.Rank(q.Text, depth)
			pos := slices.Index(got, q.Capability)
			if pos < 0 {
				continue
			}
			if pos == 0 {
				r1++
			}
			if pos < k {
				rk++
			}
			if pos < mrrDepth {
				rr += 1 / float64(pos+1)
			}
		}
		if n := float64(len(ds.Queries)); n > 0 {
			s.R1, s.RK, s.MRR = r1/n, rk/n, rr/n
		}
		out = append(out, s)
	}
	return out
}

// CompareSearch scores tool_search (through a registry built in tmp over
// the data set's tools), plain BM25 and substring scoring in one run.
func CompareSearch(tmp string, ds *eval.Dataset, k int) ([]Score, error) {
	if k <= 0 {
		return nil, fmt.Errorf("%w: k must be at least 1", ErrUsage)
	}
	reg, err := datasetRegistry(tmp, ds)
	if err != nil {
		return nil, err
	}
	defer reg.Close()
	docs := ds.Docs()
	return scoreRankers(ds, k, registryRanker{reg}, eval.NewBM25(docs), eval.NewSubstring(docs)), nil
}

// WriteScores writes scores as an aligned table.
func WriteScores(w io.Writer, scores []Score) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	k := 5
	if len(scores) > 0 {
		k = scores[0].K
	}
	fmt.Fprintf(tw, "ranker\tqueries\trecall@1\trecall@%d\tMRR@10\t\n", k)
	for _, s := range scores {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t\n", s.Ranker, s.Queries, s.R1, s.RK, s.MRR)
	}
	return tw.Flush()
}

// quality is the search-quality section.
func quality(ctx context.Context, tmp, dir string) []Row {
	if err := ctx.Err(); err != nil {
		return []Row{errorRow(sectionQuality, "MetaTool", err)}
	}
	ds, err := eval.LoadMetaTool(filepath.Join(dir, ToolsFile), filepath.Join(dir, QueriesFile))
	if err != nil {
		return []Row{errorRow(sectionQuality, "MetaTool", err)}
	}
	scores, err := CompareSearch(filepath.Join(tmp, "metatool"), ds, 5)
	if err != nil {
		return []Row{errorRow(sectionQuality, "MetaTool", err)}
	}
	ts, bm, sub := scores[0], scores[1], scores[2]
	data := fmt.Sprintf("%d tools, %s queries", len(ds.Tools), FormatInt(len(ds.Queries)))
	base := func(f func(Score) float64) string {
		return fmt.Sprintf("BM25 %.3f, substring %.3f", f(bm), f(sub))
	}
	return []Row{
		{Section: sectionQuality, Measure: "recall@1, MetaTool " + data, Value: fmt.Sprintf("%.3f", ts.R1), Number: ts.R1,
			Baseline: base(func(s Score) float64 { return s.R1 })},
		{Section: sectionQuality, Measure: "recall@5, MetaTool " + data, Value: fmt.Sprintf("%.3f", ts.RK), Number: ts.RK,
			Baseline: base(func(s Score) float64 { return s.RK }), Target: fmt.Sprintf("≥ %.2f", recallTarget), Pass: verdict(ts.RK >= recallTarget),
			Note: fmt.Sprintf("MetaTool data from %s; tool_search ranks through a registry over %d capability folders made from the tools; MRR@10: tool_search %.3f, BM25 %.3f, substring %.3f",
				dir, len(ds.Tools), ts.MRR, bm.MRR, sub.MRR)},
	}
}

// SearchCommand loads a data set in the MetaTool format and scores the
// three rankers on it, using tmp for the capability folders.
func SearchCommand(tmp, toolsFile, queriesFile string, k int) ([]Score, error) {
	ds, err := eval.LoadMetaTool(toolsFile, queriesFile)
	if err != nil {
		return nil, err
	}
	if len(ds.Queries) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNoQueries, queriesFile)
	}
	return CompareSearch(tmp, ds, k)
}
