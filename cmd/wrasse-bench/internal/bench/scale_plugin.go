package bench

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/captest"
	"github.com/wrasse-app/wrasse/plugins"
)

// childCallTarget bounds what running a plugin in its own process adds to
// a call (issue 14).
const childCallTarget = 40 * time.Microsecond

// pluginHostCommand is the wrasse subcommand that serves one plugin in a
// process of its own (cmd/wrasse/pluginhost.go).
const pluginHostCommand = "__plugin-host"

// scalePlugin compares a trivial call to a workspace plugin served in its
// own process by the real wrasse binary (as the app runs plugins that do
// not ship with it) with the same call to the same plugin interpreted in
// process, through the same registry path.
func (r *runner) scalePlugin(ctx context.Context) []Row {
	const measure = "call to a plugin in its own process"
	bin := r.cfg.Wrasse
	if bin == "" {
		var err error
		r.progress("building cmd/wrasse…")
		if bin, err = buildWrasse(ctx, r.cfg.Repo, r.tmp); err != nil {
			return []Row{errorRow(sectionScale, measure, err)}
		}
	}
	c, err := trivialCapability(r.cfg.Seed)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	ws, err := writeWorkspace(filepath.Join(r.tmp, "plugin-child-call"), []captest.Capability{c})
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	iters, reps := r.plan.callIters, r.plan.callReps
	child := plugins.NewHost(plugins.Options{Logger: slog.New(slog.DiscardHandler), Child: []string{bin, pluginHostCommand}})
	inProc, own, over, err := timeTrivialCalls(ctx, ws, c.Name, newHost(), child, iters, reps)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	return []Row{{Section: sectionScale, Measure: measure + ", overhead over in process",
		Value: FormatDuration(over), Number: us(over), Unit: "µs",
		Baseline: "in process " + inProc.String() + ", own process " + own.String(),
		Target:   "≤ " + FormatDuration(childCallTarget), Pass: verdict(over <= childCallTarget),
		Note: fmt.Sprintf("a generated one-handler workspace plugin called through the registry, served by `%s %s` (Options.Child, as the app does) and, as the baseline, by the same host in process; each repetition makes %s calls of each in %d alternating turns, so both see the same load; wall time is the mean per call, median of %d repetitions, and the overhead the median of the repetitions' differences; CPU is this process's only, the plugin process's is not in it",
			filepath.Base(bin), pluginHostCommand, FormatInt(iters), min(pluginTurns, iters), reps)}}
}

// pluginTurns is how many turns each repetition's calls are split into,
// in process and in the plugin process alternately, so that both sides of
// a repetition see the same load (another program busy for a second
// would otherwise fall on one side only).
const pluginTurns = 20

// timeTrivialCalls times calls of the first tool of capability name, in a
// registry on ws whose plugin loader is inProc and in one whose loader is
// child: per repetition iters calls of each, in alternating turns. It
// returns the median per call of each and the median of the repetitions'
// differences.
func timeTrivialCalls(ctx context.Context, ws, name string, inProc, child *plugins.Host, iters, reps int) (in, own callTime, over time.Duration, err error) {
	callIn, closeIn, err := trivialCaller(ctx, ws, name, inProc)
	if err != nil {
		return callTime{}, callTime{}, 0, fmt.Errorf("in process: %w", err)
	}
	defer closeIn()
	callOwn, closeOwn, err := trivialCaller(ctx, ws, name, child)
	if err != nil {
		return callTime{}, callTime{}, 0, fmt.Errorf("own process: %w", err)
	}
	defer closeOwn()
	turns := min(pluginTurns, iters)
	var diffs []time.Duration
	var ins, owns []callTime
	for range reps {
		var a, b callTime
		for t := range turns {
			n := iters/turns + btoi(t < iters%turns)
			ta, err := perCall(ctx, n, 1, callIn)
			if err != nil {
				return callTime{}, callTime{}, 0, fmt.Errorf("in process: %w", err)
			}
			tb, err := perCall(ctx, n, 1, callOwn)
			if err != nil {
				return callTime{}, callTime{}, 0, fmt.Errorf("own process: %w", err)
			}
			a.Wall, a.CPU = a.Wall+ta.Wall*time.Duration(n), a.CPU+ta.CPU*time.Duration(n)
			b.Wall, b.CPU = b.Wall+tb.Wall*time.Duration(n), b.CPU+tb.CPU*time.Duration(n)
		}
		a.Wall, a.CPU = a.Wall/time.Duration(iters), a.CPU/time.Duration(iters)
		b.Wall, b.CPU = b.Wall/time.Duration(iters), b.CPU/time.Duration(iters)
		ins, owns, diffs = append(ins, a), append(owns, b), append(diffs, b.Wall-a.Wall)
	}
	return medianCall(ins), medianCall(owns), Median(diffs), nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// medianCall is the median wall and CPU time of repetitions.
func medianCall(cs []callTime) callTime {
	var wall, cpu []time.Duration
	for _, c := range cs {
		wall, cpu = append(wall, c.Wall), append(cpu, c.CPU)
	}
	return callTime{Wall: Median(wall), CPU: Median(cpu)}
}

// trivialCaller opens a registry on ws with host as the plugin loader and
// returns a call of the first tool of capability name, checked, and the
// registry's close.
func trivialCaller(ctx context.Context, ws, name string, host *plugins.Host) (func() error, func(), error) {
	reg, err := openRegistryWith(nil, ws, host)
	if err != nil {
		return nil, nil, err
	}
	cp, err := reg.Get(name)
	if err != nil {
		reg.Close()
		return nil, nil, err
	}
	if !cp.Usable() || len(cp.Tools()) == 0 {
		reg.Close()
		return nil, nil, fmt.Errorf("generated plugin %s is %s: %s", name, cp.State, cp.Error)
	}
	tool := cp.Tools()[0].Name
	sess := reg.NewSession("bench", nil)
	call := func() error {
		res, err := reg.Call(ctx, sess, tool, callArgs)
		if err != nil {
			return err
		}
		if res.Content != "ok notes" {
			return fmt.Errorf("%s returned %q, want %q", tool, res.Content, "ok notes")
		}
		return nil
	}
	return call, func() { reg.Close() }, nil
}
