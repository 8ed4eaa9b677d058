package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/ollama"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// modelsCommands are `wrasse models ...`: the model server's models.
func modelsCommands() []*command {
	return []*command{
		{path: "models list", aliases: []string{"ls"}, summary: "The models the configured server offers, with what each can do (tools, vision, thinking) and its context window.",
			maxArgs: 0, setup: plain(modelsList)},
		{path: "models pull", args: "NAME", argHelp: [][2]string{{"NAME", "a model of Ollama's library, e.g. qwen3:8b or llama3.1:8b"}},
			summary: "Download a model into Ollama, with a progress bar on a terminal and progress lines otherwise. Ctrl+C stops it; pulling again resumes.",
			minArgs: 1, maxArgs: 1, setup: plain(modelsPull)},
	}
}

// modelsList prints the server's models, the configured one marked, and
// the window the next turn is fitted to.
func modelsList(ctx context.Context, app *assistant.App, c *call) error {
	cfg := app.Model()
	models, err := app.Models(ctx, workspace.Config{})
	if err != nil {
		return err
	}
	win := app.ContextWindow(ctx, "")
	if c.g.json {
		return writeJSON(c.io.out, map[string]any{"provider": cfg.Provider, "baseURL": cfg.BaseURL, "model": cfg.Model,
			"contextWindow": win, "models": models, "notices": orEmptyNotices(app.ModelNotices())})
	}
	if len(models) == 0 {
		fmt.Fprintf(c.io.out, "%s offers no models.\n", cfg.BaseURL)
	} else {
		tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  NAME\tCAN\tWINDOW\tSIZE")
		for _, m := range models {
			mark := " "
			if m.ID == cfg.Model || strings.TrimSuffix(m.ID, ":latest") == cfg.Model {
				mark = "*"
			}
			fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\n", mark, m.ID, abilities(m), tokens(m.ContextWindow), bytesOf(m.Size))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.io.out, "\nModel %s (%s at %s): context window %s.\n", cfg.Model, cfg.Provider, cfg.BaseURL, win)
	if cfg.Provider == "ollama" && !listed(models, cfg.Model) {
		fmt.Fprintf(c.io.err, "note: %s is not downloaded yet\n  → wrasse models pull %s\n", cfg.Model, cfg.Model)
	}
	for _, n := range app.ModelNotices() {
		fmt.Fprintf(c.io.err, "note: %s\n", n.Message)
		if line := n.Hint.CommandLine(); line != "" {
			fmt.Fprintf(c.io.err, "  → %s\n", line)
		}
	}
	return nil
}

func orEmptyNotices(n []assistant.ModelNotice) []assistant.ModelNotice {
	if n == nil {
		return []assistant.ModelNotice{}
	}
	return n
}

// listed reports whether model is among models (Ollama adds ":latest" to
// a name without a tag).
func listed(models []provider.ModelInfo, model string) bool {
	for _, m := range models {
		if m.ID == model || m.ID == model+":latest" {
			return true
		}
	}
	return false
}

// abilities names what a model can do: "tools, vision, thinking",
// "embedding only", "?" when the server does not say.
func abilities(m provider.ModelInfo) string {
	if m.Abilities == nil {
		return "?"
	}
	if m.Can(provider.AbilityEmbedding) {
		return "embedding only"
	}
	var out []string
	for _, a := range []provider.Ability{provider.AbilityTools, provider.AbilityVision, provider.AbilityThinking} {
		if m.Can(a) {
			out = append(out, string(a))
		}
	}
	if len(out) == 0 {
		return "chat only"
	}
	return strings.Join(out, ", ")
}

// tokens renders a window for the table: "131,072", "?" when unknown.
func tokens(n int) string {
	if n <= 0 {
		return "?"
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// bytesOf renders a size: "4.9 GB", "" when unknown.
func bytesOf(n int64) string {
	switch {
	case n <= 0:
		return ""
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.0f kB", float64(n)/1e3)
}

func orZero(s string) string {
	if s == "" {
		return "0 B"
	}
	return s
}

// modelsPull downloads a model into Ollama with progress.
func modelsPull(ctx context.Context, app *assistant.App, c *call) error {
	name := c.args[0]
	bar := newPullProgress(c.io.err, drawsOn(c.io.err), time.Now)
	err := app.PullModel(ctx, name, bar.step)
	bar.end()
	if errors.Is(err, context.Canceled) || provider.KindOf(err) == provider.ErrCanceled {
		return fmt.Errorf("the download of %s was stopped; pulling it again resumes where it stopped: %w", name, err)
	}
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"pulled": name})
	}
	fmt.Fprintf(c.io.out, "Pulled %s.\n", name)
	return nil
}

// drawsOn reports whether w is a terminal a progress bar can redraw.
func drawsOn(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// pullProgress shows a download: on a terminal one line redrawn with
// size, speed and time left; otherwise a line per step and per tenth of
// each layer, nothing that depends on timing.
type pullProgress struct {
	w     io.Writer
	tty   bool
	now   func() time.Time
	last  string // the last status shown
	tenth int64  // the last tenth of the layer shown (plain)
	start time.Time
	from  int64 // bytes completed when the layer's timing began
	drawn bool
}

func newPullProgress(w io.Writer, tty bool, now func() time.Time) *pullProgress {
	return &pullProgress{w: w, tty: tty, now: now, tenth: -1}
}

func (p *pullProgress) step(pr ollama.Progress) {
	if pr.Status != p.last {
		if p.drawn {
			fmt.Fprintln(p.w)
			p.drawn = false
		}
		p.last, p.tenth, p.start, p.from = pr.Status, -1, p.now(), pr.Completed
		if pr.Total == 0 {
			fmt.Fprintln(p.w, pr.Status)
			return
		}
	}
	if pr.Total <= 0 {
		return
	}
	if !p.tty {
		if t := pr.Completed * 10 / pr.Total; t != p.tenth {
			p.tenth = t
			fmt.Fprintf(p.w, "%s: %d%% (%s of %s)\n", pr.Status, pr.Completed*100/pr.Total, orZero(bytesOf(pr.Completed)), bytesOf(pr.Total))
		}
		return
	}
	const width = 24
	done := int(pr.Completed * width / pr.Total)
	bar := strings.Repeat("█", done) + strings.Repeat(" ", width-done)
	line := fmt.Sprintf("%s %3d%% ▕%s▏ %s/%s", pr.Status, pr.Completed*100/pr.Total, bar, orZero(bytesOf(pr.Completed)), bytesOf(pr.Total))
	if el := p.now().Sub(p.start); el > time.Second && pr.Completed > p.from {
		rate := float64(pr.Completed-p.from) / el.Seconds()
		left := time.Duration(float64(pr.Total-pr.Completed)/rate) * time.Second
		line += fmt.Sprintf("  %s/s  %s left", bytesOf(int64(rate)), left.Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.drawn = true
}

// end finishes the bar's line.
func (p *pullProgress) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
