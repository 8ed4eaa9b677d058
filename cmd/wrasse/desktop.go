package main

import (
	"context"
	"fmt"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// runDesktop starts Wrasse without a subcommand. The desktop window comes
// with the UI issue; until then this shows the state of the default
// workspace and how to use the CLI, which drives the same engine.
func runDesktop(ctx context.Context, args []string, io stdio, getenv func(string) string) int {
	var g globalFlags
	fs := newFlagSet("wrasse", io)
	g.register(fs)
	if _, err := parseInterleaved(fs, args); err != nil {
		return report(fmt.Errorf("%w: %v", errUsage, err), io)
	}
	err := withApp(ctx, g, getenv, func(a *app) error {
		a.reg.CheckPlugins(ctx, 0)
		ok, failed, disabled := 0, 0, 0
		for _, c := range a.reg.List() {
			switch c.State {
			case cerebellum.StateOK:
				ok++
			case cerebellum.StateFailed:
				failed++
			default:
				disabled++
			}
		}
		if g.json {
			return writeJSON(io.out, map[string]any{"workspace": a.ws.Root, "provider": a.cfg.Provider, "model": a.cfg.Model,
				"baseURL": a.cfg.BaseURL, "capabilities": map[string]int{"ok": ok, "failed": failed, "disabled": disabled}})
		}
		fmt.Fprintf(io.out, "Wrasse — workspace %s\n", a.ws.Root)
		fmt.Fprintf(io.out, "Model: %s via %s %s\n", a.cfg.Model, a.cfg.Provider, a.cfg.BaseURL)
		fmt.Fprintf(io.out, "Capabilities: %d ok, %d disabled, %d failed (wrasse caps list)\n", ok, disabled, failed)
		fmt.Fprintf(io.out, "Drop your own into %s and run `wrasse caps resync`, or `wrasse caps install PATH`.\n\n", a.ws.Capabilities())
		fmt.Fprint(io.out, usage)
		return nil
	})
	return report(err, io)
}
