package assistant

import (
	"fmt"
	"os"
	"slices"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// Config returns config.json as written (no defaults); Model returns the
// effective configuration.
func (a *App) Config() workspace.Config { return a.model.Load().raw }

// ConfigProblems reports what is wrong in config.json without stopping it
// loading: unknown keys (with the closest known one) and invalid values.
func (a *App) ConfigProblems() []workspace.Problem {
	data, err := os.ReadFile(a.ws.Config())
	if err != nil {
		return nil
	}
	return workspace.CheckConfig(data, a.ws.Config())
}

// UpdateConfig changes config.json: fn edits a copy of the file as written,
// the result is validated and saved atomically, and then everything that
// depends on it is rebuilt for the next turn (the model provider, the
// registry's pinned set and budgets, the plugins' folders). Turns already
// running finish on the state they began with. On any error nothing
// changes.
func (a *App) UpdateConfig(fn func(*workspace.Config) error) (workspace.Config, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	// Read the file afresh: it may have been edited by hand.
	cur, err := a.ws.LoadConfig()
	if err != nil {
		return workspace.Config{}, err
	}
	next := cur
	next.PinnedCapabilities = slices.Clone(cur.PinnedCapabilities)
	next.Folders = slices.Clone(cur.Folders)
	if err := fn(&next); err != nil {
		return cur, err
	}
	if err := next.Validate(); err != nil {
		return cur, err
	}
	if err := a.ws.SaveConfig(next); err != nil {
		return cur, fmt.Errorf("save %s: %w", a.ws.Config(), err)
	}
	a.applyConfig(cur, next)
	return next, nil
}

// SetConfig sets one key of config.json from its text form (see
// workspace.Config.Set); an empty value resets it to its default.
func (a *App) SetConfig(key, value string) (workspace.Config, error) {
	return a.UpdateConfig(func(c *workspace.Config) error { return c.Set(key, value) })
}

// ReloadConfig re-reads config.json after a hand edit and applies it.
func (a *App) ReloadConfig() error {
	_, err := a.UpdateConfig(func(*workspace.Config) error { return nil })
	return err
}

// applyConfig swaps in what depends on the config. Call with a.mu held.
func (a *App) applyConfig(old, next workspace.Config) {
	eff := next.WithDefaults()
	a.swapModel(next)
	if err := a.reg.SetTuning(cerebellum.Tuning{Pinned: eff.PinnedCapabilities, IndexBudget: eff.IndexBudget,
		ToolBudget: eff.EffectiveToolBudget()}); err != nil {
		a.log.Warn("applying pinned capabilities and budgets", "error", err)
	}
	if !slices.Equal(old.Folders, next.Folders) {
		// Plugins learn their folders when they load.
		a.reg.ReloadRuntimes()
	}
	a.subs.publish(Event{Kind: EventConfig})
}
