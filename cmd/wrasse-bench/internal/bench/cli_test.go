package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestMainExitCodes(t *testing.T) {
	tiny := []string{"--tools", "testdata/tiny/tools.json", "--queries", "testdata/tiny/queries-dev.csv"}
	for _, c := range []struct {
		name    string
		args    []string
		env     map[string]string
		code    int
		outHas  string
		errHas  string
		jsonOut bool
	}{
		{name: "unknown flag", args: []string{"--bogus"}, code: 2, errHas: "usage"},
		{name: "stray argument", args: []string{"all", "extra"}, code: 2, errHas: "unexpected"},
		{name: "two formats", args: []string{"--json", "--markdown"}, code: 2, errHas: "choose"},
		{name: "unknown section", args: []string{"--only", "nope", "--quiet"}, code: 2, errHas: "unknown section"},
		{name: "help", args: []string{"-h"}, code: 0, errHas: "wrasse-bench search"},
		{name: "search without files", args: []string{"search"}, code: 2, errHas: "--tools FILE"},
		{name: "search bad k", args: append([]string{"search", "--k", "0"}, tiny...), code: 2, errHas: "--k"},
		{name: "search missing file", args: []string{"search", "--tools", "testdata/none.json", "--queries", "testdata/none.csv"}, code: 1, errHas: "open tools file"},
		{name: "search", args: append([]string{"search", "--k", "3"}, tiny...), code: 0, outHas: "recall@3"},
		{name: "search json", args: append([]string{"search", "--json"}, tiny...), code: 0, outHas: `"ranker": "bm25"`, jsonOut: true},
		{name: "quality only, markdown", args: []string{"--only", "quality", "--metatool", "testdata/tiny", "--quiet", "--markdown"}, code: 0, outHas: "| search quality | recall@5"},
		{name: "missing data is a failed measurement", args: []string{"--only", "quality", "--metatool", "testdata", "--quiet"}, code: 1, errHas: "1 measurement(s) failed"},
		{name: "strict fails on a missed target", args: []string{"--only", "quality", "--metatool", "testdata/hard", "--quiet", "--strict"}, code: 1, errHas: "target missed"},
		{name: "child", args: []string{ChildIdle}, env: map[string]string{ChildEnv: "1"}, code: 0, outHas: "vmhwmKB", jsonOut: true},
		{name: "hidden subcommand without env", args: []string{ChildIdle}, code: 0, outHas: "vmhwmKB", jsonOut: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Main(t.Context(), c.args, &out, &errOut, env(c.env))
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out.String(), errOut.String())
			}
			if !strings.Contains(out.String(), c.outHas) {
				t.Errorf("stdout lacks %q:\n%s", c.outHas, out.String())
			}
			if !strings.Contains(errOut.String(), c.errHas) {
				t.Errorf("stderr lacks %q:\n%s", c.errHas, errOut.String())
			}
			if c.jsonOut && !json.Valid(out.Bytes()) {
				t.Errorf("stdout is not JSON: %s", out.String())
			}
		})
	}
}

// TestRunTiny runs every in-process section end to end on tiny sizes (the
// start-up section needs `go build` and is left to `make bench`).
func TestRunTiny(t *testing.T) {
	if testing.Short() || raceEnabled {
		// Its parts have faster tests of their own (race-checked); this is
		// the end-to-end smoke test, about 3 s, 17 s under the race detector.
		t.Skip("generates workspaces, interprets every built-in plugin and starts child processes")
	}
	r := &runner{
		cfg:    Config{MetaTool: "testdata/tiny", Child: SelfChild(os.Args[0]), Seed: 1},
		plan:   plan{promptSizes: []int{40}, latencySizes: []int{40}, queries: 30, baselineQueries: 10, startupRuns: 1, loadRuns: 1, callIters: 20, callReps: 2},
		tmp:    t.TempDir(),
		spaces: map[int]*space{},
	}
	defer r.closeSpaces()
	want := map[string][]string{
		SecPrompt:  {"index, 40 capabilities", "request tool schemas, 40 capabilities"},
		SecQuality: {"recall@1, MetaTool 5 tools, 6 queries", "recall@5, MetaTool 5 tools, 6 queries"},
		SecLatency: {"p50, 40 capabilities", "p99, 40 capabilities"},
		SecPlugins: {"first interpretation, shell", "trivial tool call via registry + host", "same call via registry, native runtime"},
		SecMemory:  {"peak RSS, registry of 1,000 capabilities", "peak RSS, 5,000-message conversation loaded"},
	}
	for _, s := range []string{SecPrompt, SecQuality, SecLatency, SecPlugins, SecMemory} {
		rows := r.section(t.Context(), s)
		got := map[string]Row{}
		for _, row := range rows {
			got[row.Measure] = row
			if row.Pass == Broken {
				t.Errorf("%s: %s: %s", s, row.Measure, row.Note)
			}
			if row.Section == "" || row.Value == "" {
				t.Errorf("%s: incomplete row %+v", s, row)
			}
		}
		for _, m := range want[s] {
			if _, ok := got[m]; !ok {
				t.Errorf("%s: no row %q among %d", s, m, len(rows))
			}
		}
	}
	if _, err := Run(t.Context(), Config{Only: []string{"nope"}}); !errors.Is(err, ErrUsage) {
		t.Errorf("Run with an unknown section: %v", err)
	}
}
