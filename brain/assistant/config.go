package assistant

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/atomicfile"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// Config returns config.json as written (no defaults); Model returns the
// effective configuration.
func (a *App) Config() workspace.Config { return a.model.Load().raw }

// ConfigProblems reports what is wrong in config.json without stopping it
// loading: what could not be read (a syntax error, a value of the wrong
// type: defaults apply instead; see ConfigErrors), unknown keys (with the
// closest known one) and invalid values, in the order of the file.
func (a *App) ConfigProblems() []workspace.Problem {
	data, err := os.ReadFile(a.ws.Config())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []workspace.Problem{{File: a.ws.Config(), Line: 1, Column: 1, Message: err.Error() + "; defaults apply"}}
	}
	_, problems := workspace.DecodeConfig(data, a.ws.Config())
	problems = append(problems, workspace.CheckConfig(data, a.ws.Config())...)
	slices.SortStableFunc(problems, func(p, q workspace.Problem) int { return cmp.Compare(p.Line, q.Line) })
	return problems
}

// ConfigErrors are the parts of config.json that could not be read (a
// syntax error, a value of the wrong type), for which defaults apply: the
// window shows them in a banner with Repair (ReplaceConfig), and
// UpdateConfig refuses to rewrite such a file.
func (a *App) ConfigErrors() []workspace.Problem {
	_, problems, err := a.ws.ReadConfig()
	if err != nil {
		return []workspace.Problem{{File: a.ws.Config(), Line: 1, Column: 1, Message: err.Error() + "; defaults apply"}}
	}
	return problems
}

// BrokenConfigSuffix names the copy ReplaceConfig keeps of a config.json
// it rewrote: config.json.broken.
const BrokenConfigSuffix = ".broken"

// UpdateConfig changes config.json: fn edits a copy of the file as written,
// the result is validated and saved atomically, and then everything that
// depends on it is rebuilt for the next turn (the model provider, the
// registry's pinned set and budgets, the plugins' folders). Turns already
// running finish on the state they began with. On any error nothing
// changes. A config.json with parts that cannot be read (ConfigErrors) is
// not rewritten, since that would drop them: the error (ErrBadConfig)
// lists them and points at ReplaceConfig.
func (a *App) UpdateConfig(fn func(*workspace.Config) error) (workspace.Config, error) {
	return a.updateConfig(fn, false)
}

// ReplaceConfig is UpdateConfig for a config.json with parts that cannot
// be read: the settings that could be read, changed by fn, replace the
// file, and the file as it was is kept beside it as config.json.broken.
// For a sound file it is UpdateConfig.
func (a *App) ReplaceConfig(fn func(*workspace.Config) error) (workspace.Config, error) {
	return a.updateConfig(fn, true)
}

func (a *App) updateConfig(fn func(*workspace.Config) error, replace bool) (workspace.Config, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	// Read the file afresh: it may have been edited by hand.
	cur, problems, err := a.ws.ReadConfig()
	if err != nil {
		return workspace.Config{}, err
	}
	if len(problems) > 0 && !replace {
		return cur, brokenConfigError(a.ws.Config(), problems)
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
	if len(problems) > 0 {
		old, err := os.ReadFile(a.ws.Config())
		if err == nil {
			err = atomicfile.Write(a.ws.Config()+BrokenConfigSuffix, old, 0o600)
		}
		if err != nil {
			return cur, fmt.Errorf("keep a copy of %s before replacing it: %w", a.ws.Config(), err)
		}
		a.log.Warn("config.json had parts that could not be read; rewritten with the settings that could", "kept", a.ws.Config()+BrokenConfigSuffix)
	}
	if err := a.ws.SaveConfig(next); err != nil {
		return cur, fmt.Errorf("save %s: %w", a.ws.Config(), err)
	}
	a.applyConfig(cur, next)
	return next, nil
}

// brokenConfigError says why a config.json is not rewritten, and how to.
func brokenConfigError(path string, problems []workspace.Problem) error {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = p.String()
	}
	return hint.With(fmt.Errorf("%w: %s has parts that cannot be read, which rewriting it would drop (%s)", workspace.ErrBadConfig, path, strings.Join(lines, "; ")),
		hint.Hint{Action: "Fix config.json by hand, or replace it with the settings that could be read (the file is kept as config.json.broken)"})
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
	if err := a.mgr.SetTuning(cerebellum.Tuning{Pinned: eff.PinnedCapabilities, IndexBudget: eff.IndexBudget,
		ToolBudget: eff.EffectiveToolBudget()}); err != nil {
		a.log.Warn("applying pinned capabilities and budgets", "error", err)
	}
	if !slices.Equal(old.Folders, next.Folders) {
		a.foldersChanged()
	}
	a.subs.publish(Event{Kind: EventConfig})
}
