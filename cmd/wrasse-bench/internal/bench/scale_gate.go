package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// gateLongTarget bounds a gate check of a 10 KB multi-line argument
// against 1,000 capabilities' rules (issue 14).
const gateLongTarget = 100 * time.Microsecond

// gateRules are n capabilities' danger and confirm patterns written the way
// capabilities write them, anchored on their own tools (`^name_write `),
// with one capability in a hundred adding a global rule, and the tool of
// the middle capability, whose rules do run on the call.
func gateRules(n int) ([]cerebellum.GatePattern, string) {
	var out []cerebellum.GatePattern
	add := func(capName string, block bool, p string) {
		out = append(out, cerebellum.GatePattern{Capability: capName, Block: block, Pattern: skillmd.Pattern{
			Pattern: p, Re: regexp.MustCompile("(?i)" + p), DotAll: regexp.MustCompile("(?is)" + p)}})
	}
	name := func(i int) string { return fmt.Sprintf("cap%d", i) }
	for i := range n {
		c := name(i)
		add(c, true, `^`+c+`_write .*[{,]"path":"(/etc|/usr|/boot)(/|")`)
		add(c, false, `^(`+c+`_write|`+c+`_delete) .*"overwrite":true`)
		if i%100 == 0 {
			add(c, false, `\bdrop\s+table\s+`+c+`\b`)
		}
	}
	return out, name(n/2) + "_write"
}

// gateArgs are a write of a 10 KB multi-line file that trips no rule, and
// the same write of one line.
func gateArgs() (long, short json.RawMessage) {
	var b strings.Builder
	for b.Len() < 10<<10 {
		b.WriteString("func handle(w http.ResponseWriter, r *http.Request) {\n\tfmt.Fprintln(w, \"ok\")\n}\n")
	}
	long, _ = json.Marshal(map[string]string{"path": "/home/u/src/main.go", "content": b.String()})
	short, _ = json.Marshal(map[string]string{"path": "/home/u/notes.txt", "content": "hello"})
	return long, short
}

// scaleGate times gate checks of a 10 KB multi-line argument over growing
// numbers of capabilities' rules, prepared once as a snapshot prepares them
// (gate.Compile), beside the one-line argument at 1,000.
func (r *runner) scaleGate(ctx context.Context) []Row {
	const measure = "gate check, 10 KB multi-line argument"
	long, short := gateArgs()
	iters, reps := 2000, 5
	if r.cfg.Short {
		iters, reps = 200, 3
	}
	c := curve{Measure: measure + " over n capabilities' rules", Unit: "µs"}
	var at1000, short1000 callTime
	var compile1000 time.Duration
	for _, n := range r.scaleSizes() {
		if ctx.Err() != nil {
			break
		}
		pats, tool := gateRules(n)
		t0 := time.Now()
		rules := gate.Compile(pats)
		compiled := time.Since(t0)
		check := func(args json.RawMessage) func() error {
			return func() error {
				v := rules.Evaluate(gate.Call{Tool: tool, Args: args})
				if v.Decision != gate.Allow {
					return fmt.Errorf("the benchmark call of %s was %s (%v), want allow", tool, v.Decision, v.Reasons)
				}
				return nil
			}
		}
		ct, err := perCall(ctx, iters/max(1, n/1000), reps, check(long))
		if err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
		c.Points = append(c.Points, curvePoint{N: n, Value: us(ct.Wall)})
		if n == 1000 {
			at1000, compile1000 = ct, compiled
			if short1000, err = perCall(ctx, iters, reps, check(short)); err != nil {
				return []Row{errorRow(sectionScale, measure, err)}
			}
		}
	}
	c.Baseline = "the same check of a one-line argument at n = 1,000"
	c.Note = "gate: each capability has a danger and a confirm pattern anchored on its own tools and one in a hundred a global rule (2.01 patterns per capability); the call is a write of a 10 KB Go file to a tool of the middle capability, so its own rules and every global rule run; rules are prepared once per size (gate.Compile, as a snapshot does), then the mean of many checks, median of the repetitions"
	rows := curveRows(c)
	if at1000.Wall > 0 {
		rows = append(rows, Row{Section: sectionScale, Measure: measure + ", 1,000 capabilities' rules",
			Value: at1000.String(), Number: us(at1000.Wall), Unit: "µs",
			Baseline: "one-line argument " + short1000.String(),
			Target:   "≤ " + FormatDuration(gateLongTarget), Pass: verdict(at1000.Wall <= gateLongTarget),
			Note: fmt.Sprintf("preparing the 1,000 capabilities' rules once took %s", FormatDuration(compile1000))})
	}
	return rows
}
