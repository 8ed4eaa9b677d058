package bench

import (
	"context"
	"fmt"
	"strings"
)

const sectionScale = "scale"

// maxStepRatio is the most a cost may grow for a tenfold step in size: a
// linear cost grows 10×; anything past 12× is worse than linear.
const maxStepRatio = 12.0

// curve is one cost measured over growing sizes.
type curve struct {
	// Measure names the cost, e.g. "warm `caps list`".
	Measure string
	// Unit is what Points are in (e.g. "ms", "µs", "MB").
	Unit string
	// Points are the measured sizes, smallest first.
	Points []curvePoint
	// Baseline says what the same run measured to compare against.
	Baseline string
	// Note explains how it was measured.
	Note string
}

// curvePoint is a cost at one size.
type curvePoint struct {
	N     int
	Value float64
}

// scaleSizes are the sizes a curve runs at: 100 to 100,000 in full runs,
// the two smallest in short (CI) runs. A curve too slow at the largest may
// stop earlier and say so in its note.
func (r *runner) scaleSizes() []int {
	if r.cfg.Short {
		return []int{100, 1000}
	}
	return []int{100, 1000, 10000, 100000}
}

// curveRows prints c as one row per size with the ratio to the previous
// size, each step judged against maxStepRatio.
func curveRows(c curve) []Row {
	var rows []Row
	for i, p := range c.Points {
		row := Row{Section: sectionScale, Measure: fmt.Sprintf("%s, n = %s", c.Measure, FormatInt(p.N)),
			Value: formatFloat(p.Value) + " " + c.Unit, Number: p.Value, Unit: c.Unit}
		if i == 0 {
			row.Baseline, row.Note = c.Baseline, c.Note
		} else {
			prev := c.Points[i-1]
			step := float64(p.N) / float64(prev.N)
			ratio := 0.0
			if prev.Value > 0 {
				ratio = p.Value / prev.Value
			}
			// Scale the allowance to the step, so a step other than 10×
			// is judged by the same exponent.
			allowed := maxStepRatio * step / 10
			row.Target = fmt.Sprintf("×%s per ×%s step ≤ %s", formatFloat(ratio), formatFloat(step), formatFloat(allowed))
			row.Pass = verdict(ratio <= allowed)
		}
		rows = append(rows, row)
	}
	return rows
}

func formatFloat(v float64) string {
	s := fmt.Sprintf("%.3g", v)
	if strings.Contains(s, "e") {
		s = fmt.Sprintf("%.0f", v)
	}
	return s
}

// scaleCurves are the curves of the scale section, in the order printed.
// Each lives in its own scale_*.go file.
func (r *runner) scaleCurves() []func(context.Context) []Row {
	return []func(context.Context) []Row{
		r.scaleRequest,  // scale_request.go: preparing a request from a long history
		r.scaleHistory,  // scale_history.go: history search
		r.scaleRegistry, // scale_registry.go: start-up, caps list, Resync, broken plugins
		r.scaleSearch,   // scale_search.go: tool_search allocations and updates
		r.scaleGate,     // scale_gate.go: gate checks of long arguments
		r.scalePlugin,   // scale_plugin.go: a call to a plugin in its own process
	}
}

func (r *runner) scaleSection(ctx context.Context) []Row {
	var rows []Row
	for _, f := range r.scaleCurves() {
		if ctx.Err() != nil {
			break
		}
		rows = append(rows, f(ctx)...)
	}
	return rows
}
