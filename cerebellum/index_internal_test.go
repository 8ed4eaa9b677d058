package cerebellum

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/gen"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/cerebellum/tokens"
)

// TestIndexBudgetInMemory checks the budget with real BPE tokens at sizes
// where scanning folders would only slow the test down: the index depends
// on names, descriptions, tool counts and states, built here directly from
// generated manifests.
func TestIndexBudgetInMemory(t *testing.T) {
	counter, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{10, 1000, 10000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var scanned []*Capability
			for _, g := range gen.Generate(n, 0, int64(n)) {
				desc := g.SkillMD[strings.Index(g.SkillMD, "description: ")+len("description: "):]
				desc = strings.Trim(desc[:strings.Index(desc, "\n")], `"`)
				m := &skillmd.Manifest{Name: g.Name, Description: desc, Tools: make([]skillmd.Tool, g.Tools)}
				for i := range m.Tools {
					m.Tools[i].Name = fmt.Sprintf("%s_%d", strings.ReplaceAll(g.Name, "-", "_"), i)
				}
				kind := KindGuide
				if g.Tools > 0 {
					kind = KindPlugin
				}
				scanned = append(scanned, &Capability{Name: g.Name, Folder: g.Name, Source: SourceWorkspace, Kind: kind,
					State: StateOK, Manifest: m, Files: []string{"SKILL.md", "plugin/main.go"}})
			}
			snap := assemble(assembleInput{scanned: scanned, hasLoader: map[Kind]bool{KindPlugin: true}})
			var loaded []string
			for i := 0; i < 10 && i < len(scanned); i++ {
				loaded = append(loaded, scanned[i].Name)
			}
			idx := RenderIndex(snap, loaded, nil, DefaultIndexBudget, EstimateTokens)
			real := counter.Count(idx)
			if real > DefaultIndexBudget {
				t.Fatalf("%d capabilities: %d o200k tokens > %d", n, real, DefaultIndexBudget)
			}
			if EstimateTokens(idx) < real {
				t.Fatalf("estimate %d under-counts %d", EstimateTokens(idx), real)
			}
			if n >= 1000 && !strings.Contains(idx, "more capabilities") {
				t.Fatal("no collapse line")
			}
			if RenderIndex(snap, loaded, nil, DefaultIndexBudget, EstimateTokens) != idx {
				t.Fatal("not byte-identical")
			}
			t.Logf("%d capabilities: %d real tokens, estimate %d", n, real, EstimateTokens(idx))
		})
	}
}
