package main

import (
	"context"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

func configKeys() []string { return workspace.Keys() }

// configShow prints the effective configuration, then what is wrong in
// config.json (misspelt keys with their line and the closest key, invalid
// values) and why no model can be asked, if so.
func configShow(_ context.Context, app *assistant.App, c *call) error {
	eff, problems := app.Model(), app.ConfigProblems()
	if c.g.json {
		var list []string
		for _, p := range problems {
			list = append(list, p.String())
		}
		return writeJSON(c.io.out, map[string]any{"file": app.Workspace().Config(), "config": eff, "problems": orEmpty(list)})
	}
	fmt.Fprintf(c.io.out, "%s (defaults filled in):\n", app.Workspace().Config())
	if err := writeJSON(c.io.out, eff); err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintf(c.io.err, "warning: %s\n", p)
	}
	if err := app.ModelProblem(); err != nil {
		fmt.Fprintf(c.io.err, "note: no model can be asked yet: %v\n", err)
		printHint(c.io.err, err)
	}
	return nil
}

func configSet(_ context.Context, app *assistant.App, c *call) error {
	return saveConfig(app, c, c.args[0], c.args[1])
}

func configUnset(_ context.Context, app *assistant.App, c *call) error {
	return saveConfig(app, c, c.args[0], "")
}

// saveConfig sets one key (validated by workspace.Config.Set); the next
// turn, here or in the window, uses it.
func saveConfig(app *assistant.App, c *call, key, value string) error {
	cfg, err := app.SetConfig(key, value)
	if err != nil {
		return err
	}
	if c.g.json {
		v, _ := cfg.Get(key)
		return writeJSON(c.io.out, map[string]string{"key": key, "value": v, "file": app.Workspace().Config()})
	}
	if value == "" {
		fmt.Fprintf(c.io.out, "Reset %s to its default in %s.\n", key, app.Workspace().Config())
	} else {
		v, _ := cfg.Get(key)
		fmt.Fprintf(c.io.out, "Saved %s = %s in %s.\n", key, v, app.Workspace().Config())
	}
	return nil
}
