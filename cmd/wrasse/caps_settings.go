package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// capsSettings lists the settings a capability declares, with their values.
func capsSettings(_ context.Context, app *assistant.App, c *call) error {
	name := c.args[0]
	settings, err := app.Settings(name)
	if err != nil {
		return err
	}
	if c.g.json {
		if settings == nil {
			settings = []cerebellum.SettingValue{}
		}
		return writeJSON(c.io.out, settings)
	}
	if len(settings) == 0 {
		fmt.Fprintf(c.io.out, "%s declares no settings.\n", name)
		return nil
	}
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tTYPE\tVALUE\tDEFAULT\tDESCRIPTION")
	for _, s := range settings {
		value := s.Value
		if !s.Set {
			value += " (default)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Key, s.Type, value, s.Default, cerebellum.OneLine(s.Description, 70))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range settings {
		if s.Problem != "" {
			fmt.Fprintf(c.io.err, "warning: %s: %s\n", s.Key, s.Problem)
		}
	}
	return nil
}

// capsSet sets one setting of a capability (validated against its
// declaration); the capability reloads, so its next call sees it.
func capsSet(_ context.Context, app *assistant.App, c *call) error {
	name, key, value := c.args[0], c.args[1], c.args[2]
	if err := app.SetSetting(name, key, value); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"name": name, "key": key, "value": value})
	}
	fmt.Fprintf(c.io.out, "Set %s's %s to %q.\n", name, key, value)
	return nil
}

// capsUnset puts one setting back to its default.
func capsUnset(_ context.Context, app *assistant.App, c *call) error {
	name, key := c.args[0], c.args[1]
	if err := app.ResetSetting(name, key); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"name": name, "key": key, "reset": "default"})
	}
	fmt.Fprintf(c.io.out, "Reset %s's %s to its default.\n", name, key)
	return nil
}
