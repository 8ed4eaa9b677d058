package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// largeEnv asks TestIndexBudget for the 10,000-capability workspace too
// (about 15 s more; wrasse-bench checks that size on every run).
const largeEnv = "WRASSE_BENCH_LARGE"

// TestIndexBudget is the one benchmark figure that is also a test: on
// generated workspaces of every size, the capability index the app renders
// (budgeted with its own estimate) stays within 800 real BPE tokens in both
// encodings models use.
func TestIndexBudget(t *testing.T) {
	sizes := []int{40, 200, 1000}
	if os.Getenv(largeEnv) != "" {
		sizes = append(sizes, 10000)
	}
	o200k, err := newCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	cl100k, err := newCounter("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			sp, err := economySpace(tmp, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer sp.close()
			if got := len(loadable(sp.reg.Snapshot())); got < n*9/10 {
				t.Fatalf("only %d of %d generated capabilities are loadable", got, n)
			}
			// An empty session, and one with a full loaded set (loaded lines
			// are admitted first and carry a mark).
			full := reg10(sp.reg)
			for _, sess := range []*cerebellum.Session{sp.reg.NewSession("empty", nil), full} {
				idx := sp.reg.Index(sess)
				for _, tc := range []*counter{o200k, cl100k} {
					if got := tc.Count(idx); got > cerebellum.DefaultIndexBudget || got == 0 {
						t.Errorf("%d capabilities, %d loaded: index is %d %s tokens, budget %d", n, len(sess.Loaded()), got, tc.name, cerebellum.DefaultIndexBudget)
					}
				}
			}
		})
	}
}

func reg10(reg *cerebellum.Registry) *cerebellum.Session {
	names := pickN(rand.New(rand.NewPCG(1, 2)), loadable(reg.Snapshot()), requestLoaded)
	return reg.NewSession("full", names)
}

func TestToolsArray(t *testing.T) {
	defs := []cerebellum.ToolDef{
		{Name: "a_tool", Description: "Does a.", Parameters: json.RawMessage("{\n  \"type\": \"object\"\n}")},
		{Name: "b_tool", Parameters: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)},
	}
	got, err := toolsArray(defs)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"function","function":{"name":"a_tool","description":"Does a.","parameters":{"type":"object"}}},` +
		`{"type":"function","function":{"name":"b_tool","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}]`
	if got != want {
		t.Errorf("toolsArray =\n%s\nwant\n%s", got, want)
	}
	if _, err := toolsArray([]cerebellum.ToolDef{{Name: "bad", Parameters: json.RawMessage("{")}}); err == nil {
		t.Error("broken parameters were accepted")
	}
}

// TestAllToolsTokens checks that counting capabilities apart and summing
// gives the whole array's count.
func TestAllToolsTokens(t *testing.T) {
	sp, err := economySpace(t.TempDir(), 40, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.close()
	tc, err := newCounter("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	groups := allTools(sp.reg.Snapshot())
	sum, tools, err := allToolsTokens(tc, groups)
	if err != nil {
		t.Fatal(err)
	}
	var flat []cerebellum.ToolDef
	for _, g := range groups {
		flat = append(flat, g...)
	}
	whole, err := toolsArray(flat)
	if err != nil {
		t.Fatal(err)
	}
	exact := tc.Count(whole)
	if tools != len(flat) || tools != sp.reg.Snapshot().ToolCount() {
		t.Errorf("%d tools counted, %d in the groups, %d in the snapshot", tools, len(flat), sp.reg.Snapshot().ToolCount())
	}
	if sum != exact {
		t.Errorf("summed %d tokens over %d pieces, whole array %d", sum, len(groups), exact)
	}
}

func TestPickN(t *testing.T) {
	list := []string{"a", "b", "c", "d", "e", "f"}
	x := pickN(rand.New(rand.NewPCG(7, 7)), list, 4)
	y := pickN(rand.New(rand.NewPCG(7, 7)), list, 4)
	if !slices.Equal(x, y) || len(x) != 4 || !slices.IsSorted(x) || len(slices.Compact(slices.Clone(x))) != 4 {
		t.Errorf("pickN: %v, %v", x, y)
	}
	if got := pickN(rand.New(rand.NewPCG(1, 1)), list[:2], 10); len(got) != 2 {
		t.Errorf("pickN of a short list: %v", got)
	}
}
