package cerebellum

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/captest"
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
			for _, g := range captest.Generate(n, 0, int64(n)) {
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

// TestIndexBudgetHoldsForDenseText: descriptions full of symbols, units and
// random letters take far more tokens per byte than prose; the estimate
// still keeps the block within its budget in real tokens.
func TestIndexBudgetHoldsForDenseText(t *testing.T) {
	counter, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	letters := "qzxjkvbwpfgmyhcdlrtn"
	var scanned []*Capability
	for i := 0; i < 1000; i++ {
		var desc string
		if i%2 == 0 {
			desc = fmt.Sprintf("Convert km/mi, kg/lb, °C/°F, L/gal, m²/ft², €/$/¥ #%d; ±0.1%% @ 1e-9…", i)
		} else {
			var b strings.Builder
			for w := 0; w < 12; w++ {
				for k := 0; k < 2+(i+w)%3; k++ {
					b.WriteByte(letters[(i*7+w*13+k*5)%len(letters)])
				}
				b.WriteByte(' ')
			}
			desc = b.String()
		}
		name := fmt.Sprintf("dense-%04d", i)
		scanned = append(scanned, &Capability{Name: name, Folder: name, Source: SourceWorkspace, Kind: KindGuide,
			State: StateOK, Manifest: &skillmd.Manifest{Name: name, Description: desc}})
	}
	snap := assemble(assembleInput{scanned: scanned})
	for _, budget := range []int{MinIndexBudget, 300, DefaultIndexBudget} {
		idx := RenderIndex(snap, nil, nil, budget, EstimateTokens)
		if n := counter.Count(idx); n > budget {
			t.Errorf("budget %d: %d real tokens", budget, n)
		}
		if !strings.Contains(idx, "more capabilities") {
			t.Errorf("budget %d: no collapse line", budget)
		}
	}
}
