package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// runConfig shows and edits config.json: `wrasse config`, `wrasse config
// show`, `wrasse config set KEY VALUE`, `wrasse config unset KEY`.
func runConfig(ctx context.Context, args []string, io stdio, getenv func(string) string) error {
	var g globalFlags
	fs := newFlagSet("config", io)
	g.register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ws, err := workspace.Resolve(g.workspace, getenv)
	if err != nil {
		return err
	}
	cfg, err := ws.LoadConfig()
	if err != nil {
		return err
	}
	if len(pos) == 0 || pos[0] == "show" {
		eff := cfg.WithDefaults()
		if g.json {
			return writeJSON(io.out, eff)
		}
		fmt.Fprintf(io.out, "%s (defaults filled in):\n", ws.Config())
		return writeJSON(io.out, eff)
	}
	switch pos[0] {
	case "set":
		if len(pos) != 3 {
			return fmt.Errorf("%w: config set needs KEY VALUE (keys: %s)", errUsage, strings.Join(configKeys, ", "))
		}
		if err := setConfig(&cfg, pos[1], pos[2]); err != nil {
			return err
		}
	case "unset":
		if len(pos) != 2 {
			return fmt.Errorf("%w: config unset needs KEY", errUsage)
		}
		if err := setConfig(&cfg, pos[1], ""); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: unknown config subcommand %q (show, set, unset)", errUsage, pos[0])
	}
	if err := ws.Ensure(); err != nil {
		return err
	}
	if err := ws.SaveConfig(cfg); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "Saved %s.\n", ws.Config())
	return nil
}

var configKeys = []string{"provider", "model", "baseURL", "contextWindow", "maxSteps", "pinnedCapabilities", "autoResync", "folders", "indexBudget", "toolBudget"}

// setConfig sets one key; an empty value resets it to its default.
func setConfig(c *workspace.Config, key, value string) error {
	num := func() (int, error) {
		if value == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s must be a whole number, not %q", key, value)
		}
		return n, nil
	}
	list := func() []string {
		var out []string
		for _, s := range strings.Split(value, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	var err error
	switch key {
	case "provider":
		if value != "" && value != "openai" && value != "anthropic" {
			return fmt.Errorf("provider must be openai (any OpenAI-compatible server) or anthropic, not %q", value)
		}
		c.Provider = value
	case "model":
		c.Model = value
	case "baseURL", "base-url":
		c.BaseURL = value
	case "contextWindow":
		c.ContextWindow, err = num()
	case "maxSteps":
		c.MaxSteps, err = num()
	case "indexBudget":
		c.IndexBudget, err = num()
	case "toolBudget":
		c.ToolBudget, err = num()
	case "pinnedCapabilities":
		c.PinnedCapabilities = list()
	case "folders":
		c.Folders = list()
	case "autoResync":
		c.AutoResync, err = strconv.ParseBool(orFalse(value))
	case "apiKey", "api_key", "key":
		return fmt.Errorf("keys are not kept in config.json: use `wrasse secrets set openai_api_key` (or anthropic_api_key)")
	default:
		return fmt.Errorf("%w: unknown config key %q (keys: %s)", errUsage, key, strings.Join(configKeys, ", "))
	}
	return err
}

func orFalse(s string) string {
	if s == "" {
		return "false"
	}
	return s
}
