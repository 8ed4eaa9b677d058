package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing/fstest"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

const sectionPlugins = "plugin cost"

// callOverheadTarget bounds what the registry and the plugin host add to a
// trivial tool call.
const callOverheadTarget = 50 * time.Microsecond

// callArgs are the arguments of the trivial tool call.
var callArgs = json.RawMessage(`{"target":"notes","limit":3}`)

// trivialHandler is the handler of the generated plugins (gen), compiled
// into this binary: the native side of the per-call comparison.
func trivialHandler(_ context.Context, req *sdk.Request) (*sdk.Result, error) {
	return sdk.Text("ok " + req.String("target", "")), nil
}

// trivialCapability returns the first generated capability with a plugin:
// its handlers return a constant, so a call measures the machinery alone.
func trivialCapability(seed int64) (captest.Capability, error) {
	for _, c := range captest.Generate(50, 50, seed) {
		if c.Plugin != "" {
			return c, nil
		}
	}
	return captest.Capability{}, fmt.Errorf("the generator made no plugin capability for seed %d", seed)
}

// loadTimes loads c through a fresh host runs times and returns each load
// (read, check, interpret, Init, tool check); each instance is closed.
func loadTimes(ctx context.Context, c *cerebellum.Capability, workspace string, trusted bool, runs int) ([]time.Duration, error) {
	var ds []time.Duration
	for range runs {
		h := newHost()
		req := cerebellum.LoadRequest{Capability: c, Workspace: workspace, Trusted: trusted, Granted: c.Granted}
		t0 := time.Now()
		rt, err := h.Load(ctx, req)
		d := time.Since(t0)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
		if err := rt.Close(); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// firstInterpretation loads every built-in plugin and a trivial generated
// one, each through a fresh host (so also building the host's symbol
// catalogue, as the first plugin of a process does).
func firstInterpretation(ctx context.Context, tmp string, runs int, seed int64) []Row {
	trivial, err := trivialCapability(seed)
	if err != nil {
		return []Row{errorRow(sectionPlugins, "first interpretation", err)}
	}
	ws, err := writeWorkspace(filepath.Join(tmp, "plugin-trivial"), []captest.Capability{trivial})
	if err != nil {
		return []Row{errorRow(sectionPlugins, "first interpretation", err)}
	}
	reg, err := openRegistry(ws, newHost())
	if err != nil {
		return []Row{errorRow(sectionPlugins, "first interpretation", err)}
	}
	defer reg.Close()
	tc, err := reg.Get(trivial.Name)
	if err != nil {
		return []Row{errorRow(sectionPlugins, "first interpretation", err)}
	}
	base, err := loadTimes(ctx, tc, ws, false, runs)
	if err != nil {
		return []Row{errorRow(sectionPlugins, "first interpretation, trivial plugin", err)}
	}
	baseline := fmt.Sprintf("trivial plugin %s", FormatDuration(Median(base)))
	var rows []Row
	for _, c := range reg.List() {
		if c.Source != cerebellum.SourceBuiltin || !c.HasPluginSource() {
			continue
		}
		measure := "first interpretation, " + c.Name
		if !c.Usable() {
			rows = append(rows, errorRow(sectionPlugins, measure, fmt.Errorf("built-in %s is %s: %s", c.Name, c.State, c.Error)))
			continue
		}
		ds, err := loadTimes(ctx, c, ws, true, runs)
		if err != nil {
			rows = append(rows, errorRow(sectionPlugins, measure, err))
			continue
		}
		med := Median(ds)
		rows = append(rows, Row{Section: sectionPlugins, Measure: measure,
			Value:  fmt.Sprintf("%s (min %s)", FormatDuration(med), FormatDuration(Min(ds))),
			Number: ms(med), Unit: "ms", Baseline: baseline})
	}
	if len(rows) > 0 {
		rows[0].Note = fmt.Sprintf("first interpretation: Host.Load on a fresh host (read and check the source, build the interpreter and its symbol table, run Init, compare tools), median and minimum of %d; the baseline is a generated one-handler plugin loaded the same way without trust", runs)
	}
	return rows
}

// callTime is the cost of one call.
type callTime struct {
	// Wall is the mean wall time per call, median of the repetitions.
	Wall time.Duration
	// CPU is the process CPU time per call (all threads, GC included) over
	// every repetition; 0 where the OS does not say. Unlike Wall it does
	// not grow when other programs take the cores.
	CPU time.Duration
}

// perCall times iters calls of fn, reps times, after one warm-up call.
func perCall(ctx context.Context, iters, reps int, fn func() error) (callTime, error) {
	if err := fn(); err != nil { // warm-up: loads the plugin, compiles schemas
		return callTime{}, err
	}
	var ds []time.Duration
	c0, cpuOK := cpuTime()
	for range reps {
		if err := ctx.Err(); err != nil {
			return callTime{}, err
		}
		t0 := time.Now()
		for range iters {
			if err := fn(); err != nil {
				return callTime{}, err
			}
		}
		ds = append(ds, time.Since(t0)/time.Duration(iters))
	}
	ct := callTime{Wall: Median(ds)}
	if c1, ok := cpuTime(); ok && cpuOK {
		ct.CPU = (c1 - c0) / time.Duration(iters*reps)
	}
	return ct, nil
}

// String prints the wall time and, when known, the CPU time.
func (c callTime) String() string {
	if c.CPU == 0 {
		return FormatDuration(c.Wall)
	}
	return fmt.Sprintf("%s (CPU %s)", FormatDuration(c.Wall), FormatDuration(c.CPU))
}

// callCost compares one trivial tool call through the registry and the
// plugin host (argument validation, interpreted handler under its guard)
// with the same handler compiled in, called directly and through the
// registry as a native runtime.
func callCost(ctx context.Context, tmp string, iters, reps int, seed int64) []Row {
	const measure = "trivial tool call via registry + host"
	c, err := trivialCapability(seed)
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}
	ws, err := writeWorkspace(filepath.Join(tmp, "plugin-call"), []captest.Capability{c})
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}
	reg, err := openRegistryWith(nil, ws, newHost())
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}
	defer reg.Close()
	cp, err := reg.Get(c.Name)
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}
	if !cp.Usable() || len(cp.Tools()) == 0 {
		return []Row{errorRow(sectionPlugins, measure, fmt.Errorf("generated plugin %s is %s: %s", c.Name, cp.State, cp.Error))}
	}
	tool := cp.Tools()[0].Name
	sess := reg.NewSession("bench", nil)
	call := func(r *cerebellum.Registry) func() error {
		return func() error {
			res, err := r.Call(ctx, sess, tool, callArgs)
			if err != nil {
				return err
			}
			if res.Content != "ok notes" {
				return fmt.Errorf("%s returned %q, want %q", tool, res.Content, "ok notes")
			}
			return nil
		}
	}
	interp, err := perCall(ctx, iters, reps, call(reg))
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}

	// The same capability served natively: a built-in with a Go runtime.
	nreg, nativeRT, err := nativeRegistry(c)
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}
	defer nreg.Close()
	viaReg, err := perCall(ctx, iters, reps, call(nreg))
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}
	direct, err := perCall(ctx, iters, reps, func() error {
		_, err := nativeRT.Call(ctx, tool, callArgs)
		return err
	})
	if err != nil {
		return []Row{errorRow(sectionPlugins, measure, err)}
	}
	over := interp.Wall - direct.Wall
	return []Row{
		{Section: sectionPlugins, Measure: measure, Value: interp.String(), Number: us(interp.Wall), Unit: "µs",
			Baseline: "native Go " + direct.String(), Target: "overhead ≤ " + FormatDuration(callOverheadTarget), Pass: verdict(over <= callOverheadTarget),
			Note: fmt.Sprintf("per call: wall time is the mean over %s calls, median of %d repetitions; CPU is the process's user+system time per call (GC and the handler goroutine included); overhead = registry + host − native = %s wall; the registry with the same handler as a native runtime (validation and dispatch, no interpreter) takes %s",
				FormatInt(iters), reps, FormatDuration(over), viaReg)},
		{Section: sectionPlugins, Measure: "same call via registry, native runtime", Value: viaReg.String(), Number: us(viaReg.Wall), Unit: "µs",
			Baseline: "native Go " + direct.String()},
	}
}

// nativeRuntime serves the trivial tools with trivialHandler compiled in.
var nativeRuntime = cerebellum.RuntimeFunc(func(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	req, err := sdk.NewRequest(tool, args)
	if err != nil {
		return cerebellum.Result{Content: err.Error(), IsError: true}, nil
	}
	res, err := trivialHandler(ctx, req)
	if err != nil {
		return cerebellum.Result{Content: err.Error(), IsError: true}, nil
	}
	return cerebellum.Result{Content: res.Text}, nil
})

// nativeRegistry opens a registry in which c is a built-in served by
// nativeRuntime: the registry's share of a call without the interpreter.
func nativeRegistry(c captest.Capability) (*cerebellum.Registry, cerebellum.Runtime, error) {
	reg, err := cerebellum.Open(cerebellum.Options{
		Builtin: fstest.MapFS{c.Name + "/SKILL.md": &fstest.MapFile{Data: []byte(c.SkillMD)}},
		Native:  map[string]cerebellum.Runtime{c.Name: nativeRuntime},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("open a registry with %s as a native built-in: %w", c.Name, err)
	}
	return reg, nativeRuntime, nil
}
