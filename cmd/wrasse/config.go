package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
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
	if len(app.ConfigErrors()) > 0 {
		fmt.Fprintln(c.io.err, "note: fix config.json by hand, or rewrite it with the settings that could be read (the file is kept as config.json"+assistant.BrokenConfigSuffix+"):")
		fmt.Fprintln(c.io.err, "  → wrasse config set KEY VALUE --replace")
	}
	folderNote(app, c.io.err)
	if err := app.ModelProblem(); err != nil {
		fmt.Fprintf(c.io.err, "note: no model can be asked yet: %v\n", err)
		printHint(c.io.err, err)
	}
	return nil
}

// replaceUsage is the --replace flag of config set and unset.
const replaceUsage = "when config.json has parts that cannot be read, replace it with the settings that could be and this change (the file is kept as config.json.broken)"

// saveConfig sets one key (validated by workspace.Config.Set); the next
// turn, here or in the window, uses it. A change that would send the
// provider's API key to a host it is not bound to asks on the person's
// terminal (or takes --send-key); otherwise the key stays with its host
// and the next turn says how to confirm; --send-key on a command
// forwarded to the running Wrasse is refused, nothing saved. A
// config.json with parts that cannot be read is replaced, keeping a copy,
// only when the person agrees on the terminal or passed --replace:
// rewriting it drops those parts.
func saveConfig(app *assistant.App, c *call, key, value string, sendKey, replace bool) error {
	next := app.Config()
	if err := next.Set(key, value); err != nil {
		return err
	}
	move, moved := app.KeyMoveFor(next)
	if moved && sendKey && c.forwarded {
		return keyNotForwarded("--send-key", "send your "+providerName(move.Provider)+" key to "+move.To,
			hint.Hint{Action: "Confirm sending your " + providerName(move.Provider) + " key to " + move.To + " on the window's Model page, or run this in your own terminal " + noOtherWrasse,
				Page: hint.PageModel, Target: "baseURL"})
	}
	send := moved && (sendKey || isTerminal(c) && askYes(c, move.Question()+" [y/N] "))
	set := func(cfg *workspace.Config) error { return cfg.Set(key, value) }
	cfg, err := app.UpdateConfig(set)
	if errors.Is(err, workspace.ErrBadConfig) {
		if !replace && isTerminal(c) {
			fmt.Fprintf(c.io.err, "wrasse: %v\n", err)
			if !askYes(c, "Replace config.json with the settings that could be read and this change? The file as it is now is kept as config.json"+assistant.BrokenConfigSuffix+". [y/N] ") {
				return &shownError{errors.New("config.json was left as it is")}
			}
			replace = true
		}
		if !replace {
			cmd := []string{"config", "set", key, value, "--replace"}
			if value == "" {
				cmd = []string{"config", "unset", key, "--replace"}
			}
			return hint.With(err, hint.Hint{Action: "Replace config.json with the settings that could be read", Command: cmd})
		}
		cfg, err = app.ReplaceConfig(set)
		if err == nil && !c.g.json {
			fmt.Fprintf(c.io.out, "Replaced config.json; the file as it was is kept as %s.\n", app.Workspace().Config()+assistant.BrokenConfigSuffix)
		}
	}
	if err != nil {
		return err
	}
	var sentTo string
	if send {
		if sentTo, err = app.SendKeyTo(move.Provider); err != nil {
			return err
		}
	}
	if c.g.json {
		v, _ := cfg.Get(key)
		out := map[string]string{"key": key, "value": v, "file": app.Workspace().Config()}
		if sentTo != "" {
			out["keySentTo"] = sentTo
		}
		return writeJSON(c.io.out, out)
	}
	if value == "" {
		fmt.Fprintf(c.io.out, "Reset %s to its default in %s.\n", key, app.Workspace().Config())
	} else {
		v, _ := cfg.Get(key)
		fmt.Fprintf(c.io.out, "Saved %s = %s in %s.\n", key, v, app.Workspace().Config())
	}
	switch {
	case sentTo != "":
		fmt.Fprintf(c.io.out, "Your %s key (%s) is now sent to %s.\n", move.Provider, move.Secret, sentTo)
	case moved:
		if err := app.ModelProblem(); err != nil {
			fmt.Fprintf(c.io.err, "note: %v\n", err)
			printHint(c.io.err, err)
		}
	}
	if key == "folders" {
		folderNote(app, c.io.err)
	}
	return nil
}

// errKeyNotForwarded refuses, on a command forwarded to the running
// Wrasse, what would let a provider's API key leave the host it is kept
// for (--send-key, secrets assign --provider-key). Such a command comes
// through the workspace's socket, and anything on this computer that
// reaches it (a command the assistant runs, a plugin, an MCP server) can
// send one: only the person's window or their own terminal decides where
// the key goes.
var errKeyNotForwarded = errors.New("not taken from a command forwarded to the running Wrasse")

// noOtherWrasse ends the advice to run a refused command in the
// person's own terminal: it runs there only while no other Wrasse holds
// the workspace, and the one that does may be a window or a long-running
// command (wrasse caps watch), not only a window.
const noOtherWrasse = "while no other Wrasse (a window or `wrasse caps watch`) holds this workspace"

func keyNotForwarded(flag, what string, h hint.Hint) error {
	return hint.With(fmt.Errorf("%s is %w: anything on this computer that can reach it (a command the assistant runs, say) could %s that way. Nothing was changed",
		flag, errKeyNotForwarded, what), h)
}

// providerName is how messages name a provider's key.
func providerName(p string) string {
	if p == "anthropic" {
		return "Anthropic"
	}
	return "OpenAI"
}

// askYes asks question on the person's terminal; true on y or yes.
func askYes(c *call, question string) bool {
	fmt.Fprint(c.io.err, question)
	line, _ := bufio.NewReader(c.io.in).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}

// folderNote says when no folder is granted (the file and shell tools can
// then use none) with the common folders to grant, and warns when the
// whole home folder is.
func folderNote(app *assistant.App, w io.Writer) {
	granted := app.Folders()
	if len(granted) == 0 {
		fmt.Fprintln(w, "note: no folder is granted: the file and shell tools can use none until you grant one:")
		if s := app.SuggestedFolders(); len(s) > 0 {
			fmt.Fprintf(w, "  → wrasse config set folders %s\n", strings.Join(s, ","))
		} else {
			fmt.Fprintln(w, "  → wrasse config set folders PATH[,PATH…]")
		}
		return
	}
	if slices.Contains(granted, app.HomeFolder()) {
		fmt.Fprintf(w, "warning: your whole home folder (%s) is granted: the assistant may read and change anything in it. Granting the folders you work in is safer.\n", app.HomeFolder())
	}
}
