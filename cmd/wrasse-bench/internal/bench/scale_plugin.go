package bench

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum/gen"
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
	ws, err := writeWorkspace(filepath.Join(r.tmp, "plugin-child-call"), []gen.Capability{c})
	if err != nil {
		return []Row{errorRow(sectionScale, measure, err)}
	}
	iters, reps := r.plan.callIters, r.plan.callReps
	inProc, err := timeTrivialCall(ctx, ws, c.Name, newHost(), iters, reps)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, fmt.Errorf("in process: %w", err))}
	}
	child := plugins.NewHost(plugins.Options{Logger: slog.New(slog.DiscardHandler), Child: []string{bin, pluginHostCommand}})
	own, err := timeTrivialCall(ctx, ws, c.Name, child, iters, reps)
	if err != nil {
		return []Row{errorRow(sectionScale, measure, fmt.Errorf("own process: %w", err))}
	}
	over := own.Wall - inProc.Wall
	return []Row{{Section: sectionScale, Measure: measure + ", overhead over in process",
		Value: FormatDuration(over), Number: us(over), Unit: "µs",
		Baseline: "in process " + inProc.String() + ", own process " + own.String(),
		Target:   "≤ " + FormatDuration(childCallTarget), Pass: verdict(over <= childCallTarget),
		Note: fmt.Sprintf("a generated one-handler workspace plugin called through the registry, served by `%s %s` (Options.Child, as the app does) and, as the baseline, by the same host in process; wall time is the mean over %s calls, median of %d repetitions; CPU is this process's only, the plugin process's is not in it",
			filepath.Base(bin), pluginHostCommand, FormatInt(iters), reps)}}
}

// timeTrivialCall opens a registry on ws with host as the plugin loader
// and times calls of the first tool of capability name.
func timeTrivialCall(ctx context.Context, ws, name string, host *plugins.Host, iters, reps int) (callTime, error) {
	reg, err := openRegistryWith(nil, ws, host)
	if err != nil {
		return callTime{}, err
	}
	defer reg.Close()
	cp, err := reg.Get(name)
	if err != nil {
		return callTime{}, err
	}
	if !cp.Usable() || len(cp.Tools()) == 0 {
		return callTime{}, fmt.Errorf("generated plugin %s is %s: %s", name, cp.State, cp.Error)
	}
	tool := cp.Tools()[0].Name
	sess := reg.NewSession("bench", nil)
	return perCall(ctx, iters, reps, func() error {
		res, err := reg.Call(ctx, sess, tool, callArgs)
		if err != nil {
			return err
		}
		if res.Content != "ok notes" {
			return fmt.Errorf("%s returned %q, want %q", tool, res.Content, "ok notes")
		}
		return nil
	})
}
