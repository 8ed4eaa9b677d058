package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/tasks"
	"github.com/wrasse-app/wrasse/cerebellum/commalist"
)

// tasksGroup is the tasks command word.
var tasksGroup = group{name: "tasks", summary: "scheduled tasks: prompts Wrasse runs on its own at set times (while its window is open)", def: "list"}

const tasksAddExamples = `  wrasse tasks add "Morning summary" --schedule "every weekday at 08:00" \
      --prompt "Summarise what changed in ~/projects since yesterday."
  wrasse tasks add "Price check" --schedule "every 2h" --caps web --approvals deny \
      --prompt "Fetch https://example.com/item and tell me if it costs under 50 EUR."
  wrasse tasks add "Call the bank" --schedule "in 2 hours" --prompt "Remind me to call the bank."
  wrasse tasks add "Weekly report" --schedule "cron 0 17 * * fri" --model qwen3:8b < prompt.txt

Schedules (in your time zone): once 2025-06-01 14:30, once 14:30, in 90m, every 15m,
every 2h, daily 08:00, every day at 8am, weekdays 08:00, weekly mon,thu 09:30,
every monday at 9, cron 0 8 * * 1-5 (minute hour day-of-month month day-of-week).`

// taskFlags are add's and edit's flags.
type taskFlags struct {
	name, prompt, schedule, model, caps, approvals *string
	off                                            *bool
}

func registerTaskFlags(fs *flag.FlagSet, edit bool) *taskFlags {
	f := &taskFlags{}
	if edit {
		f.name = fs.String("name", "", "rename the task to `NAME`")
	}
	f.prompt = fs.String("prompt", "", "`TEXT`: what to do on each run (read from standard input when piped and not given)")
	f.schedule = fs.String("schedule", "", "`WHEN` it runs: every weekday at 08:00, every 2h, once 2025-06-01 14:30, cron 0 8 * * 1-5 …")
	f.model = fs.String("model", "", "the `MODEL` its runs use (default: the one configured when it runs)")
	capsHelp := "the capabilities its runs may use, comma-separated `NAMES` (default: every enabled one)"
	if edit {
		capsHelp += "; all for every enabled one"
	}
	f.caps = fs.String("caps", "", capsHelp)
	f.approvals = fs.String("approvals", "", "`WHAT` a call that needs approval does: wait (stop until you answer in the window; the default) or deny (refuse it and go on)")
	if !edit {
		f.off = fs.Bool("off", false, "add it switched off")
	}
	return f
}

func tasksCommands() []*command {
	name := [][2]string{{"NAME", "the task's name or id, e.g. t3 (see wrasse tasks list)"}}
	return []*command{
		{path: "tasks list", aliases: []string{"ls"}, summary: "Every scheduled task: whether it is on, its schedule, next run and last outcome.", maxArgs: 0,
			setup: plain(tasksList)},
		{path: "tasks add", args: "NAME", argHelp: [][2]string{{"NAME", "a short name for the task"}},
			summary:  "Add a scheduled task, checked first: a schedule that never fires, a model the server does not offer or a capability that is not installed is refused. It runs while the Wrasse window is open (or its tray icon, with keepRunning); calls that need approval wait for you there.",
			examples: tasksAddExamples, minArgs: 1, maxArgs: 1,
			widens: func(c *call) bool { return !c.flags["off"] },
			stdin:  func(c *call) bool { return !c.flags["prompt"] },
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				f := registerTaskFlags(fs, false)
				return func(ctx context.Context, app *assistant.App, c *call) error { return tasksAdd(ctx, app, c, f) }
			}},
		{path: "tasks edit", args: "NAME", argHelp: name, widens: always,
			summary: "Change a task: only the flags given change, checked as add checks them. A new schedule counts from now.", minArgs: 1, maxArgs: 1,
			stdin: func(c *call) bool { return false },
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				f := registerTaskFlags(fs, true)
				return func(ctx context.Context, app *assistant.App, c *call) error { return tasksEdit(ctx, app, c, f) }
			}},
		{path: "tasks remove", aliases: []string{"rm"}, args: "NAME", argHelp: name, summary: "Delete a task and its run records (its conversations stay).", minArgs: 1, maxArgs: 1,
			setup: plain(tasksRemove)},
		{path: "tasks enable", args: "NAME", argHelp: name, widens: always, summary: "Switch a task on: it runs on its schedule from now.", minArgs: 1, maxArgs: 1,
			setup: plain(func(ctx context.Context, app *assistant.App, c *call) error { return tasksEnable(ctx, app, c, true) })},
		{path: "tasks disable", args: "NAME", argHelp: name, summary: "Switch a task off (Run now still works).", minArgs: 1, maxArgs: 1,
			setup: plain(func(ctx context.Context, app *assistant.App, c *call) error { return tasksEnable(ctx, app, c, false) })},
		{path: "tasks run", args: "NAME", argHelp: name, widens: always,
			summary: "Run a task now, in a conversation of its own, and wait for it. With the window open the run is the window's (approvals on its cards; the command returns when it waits for one); otherwise it runs here, asking on a terminal, or stopping at a call that needs approval.",
			minArgs: 1, maxArgs: 1, serve: true,
			setup: plain(tasksRun)},
		{path: "tasks history", args: "NAME", argHelp: name, summary: "A task's runs, newest first: when, outcome, conversation, tokens, and why it failed or was skipped.", minArgs: 1, maxArgs: 1,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				limit := fs.Int("limit", 20, "show at most `N` runs (0: all kept)")
				return func(ctx context.Context, app *assistant.App, c *call) error { return tasksHistory(app, c, *limit) }
			}},
	}
}

func when(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "-"
	}
	return t.In(loc).Format("Mon 2 Jan 15:04")
}

func tasksList(_ context.Context, app *assistant.App, c *call) error {
	list, err := app.Tasks()
	if err != nil {
		return err
	}
	if c.g.json {
		out := []map[string]any{}
		for _, t := range list {
			out = append(out, map[string]any{"id": t.ID.String(), "name": t.Name, "enabled": t.Enabled, "schedule": t.Schedule.String(),
				"next": t.Next, "running": t.Running, "model": t.Model, "capabilities": t.Capabilities, "approvals": t.OnApproval(),
				"prompt": t.Prompt, "last": t.Last})
		}
		return writeJSON(c.io.out, out)
	}
	if len(list) == 0 {
		fmt.Fprintln(c.io.out, `No scheduled tasks yet. Add one with: wrasse tasks add NAME --schedule "every weekday at 08:00" --prompt "…"`)
		return nil
	}
	loc := app.TaskLocation()
	now := time.Now()
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tON\tSCHEDULE\tNEXT\tLAST")
	for _, t := range list {
		on := "on"
		if !t.Enabled {
			on = "off"
		}
		next := when(t.Next, loc)
		if !t.Next.IsZero() && t.Next.Before(now) {
			next += " (missed)"
		}
		last := "-"
		if t.Last != nil {
			last = string(t.Last.Outcome) + " " + when(t.Last.Started, loc)
		}
		if t.Running {
			last = "running"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, on, t.Schedule.Describe(), next, last)
	}
	return tw.Flush()
}

// promptOf is --prompt, or piped standard input.
func promptOf(c *call, f *taskFlags) (string, error) {
	if c.flags["prompt"] {
		return *f.prompt, nil
	}
	if c.io.in == nil || interactive(c.io.in) {
		return "", nil
	}
	data, err := readLimited(c.io.in, maxPipedInput)
	if err != nil {
		return "", fmt.Errorf("read the prompt from stdin: %w", err)
	}
	return string(data), nil
}

func approvalsOf(s string) (tasks.Approvals, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "wait":
		return tasks.Wait, nil
	case "deny":
		return tasks.Deny, nil
	}
	return "", fmt.Errorf("--approvals is wait or deny, not %q", s)
}

func tasksAdd(ctx context.Context, app *assistant.App, c *call, f *taskFlags) error {
	prompt, err := promptOf(c, f)
	if err != nil {
		return err
	}
	if strings.TrimSpace(prompt) == "" {
		return usagef(c.cmd.path, "tasks add needs --prompt TEXT (or the prompt piped in)")
	}
	if !c.flags["schedule"] {
		return usagef(c.cmd.path, `tasks add needs --schedule WHEN, such as "every weekday at 08:00"`)
	}
	ap, err := approvalsOf(*f.approvals)
	if err != nil {
		return usagef(c.cmd.path, "%v", err)
	}
	spec := assistant.TaskSpec{Name: c.args[0], Prompt: prompt, Schedule: *f.schedule, Model: *f.model, Approvals: ap, Enabled: !*f.off}
	if c.flags["caps"] {
		spec.Capabilities = commalist.Split(*f.caps)
	}
	t, err := app.AddTask(ctx, spec)
	if err != nil {
		return err
	}
	return printTask(app, c, t, "Added")
}

func printTask(app *assistant.App, c *call, t tasks.Task, verb string) error {
	info, err := app.Task(t.ID.String())
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]any{"id": t.ID.String(), "name": t.Name, "enabled": t.Enabled, "schedule": t.Schedule.String(), "next": info.Next})
	}
	fmt.Fprintf(c.io.out, "%s %s “%s”: %s", verb, t.ID, t.Name, t.Schedule.Describe())
	switch {
	case !t.Enabled:
		fmt.Fprint(c.io.out, " (off)")
	case !info.Next.IsZero():
		fmt.Fprintf(c.io.out, "; next run %s", info.Next.In(app.TaskLocation()).Format("Mon 2 Jan 2006 15:04"))
	}
	fmt.Fprintln(c.io.out)
	if t.Enabled && !app.TasksStarted() {
		fmt.Fprintln(c.io.err, "Tasks run while the Wrasse window is open (or its tray icon, with keepRunning on).")
	}
	return nil
}

func tasksEdit(ctx context.Context, app *assistant.App, c *call, f *taskFlags) error {
	var ap tasks.Approvals
	if c.flags["approvals"] {
		var err error
		if ap, err = approvalsOf(*f.approvals); err != nil {
			return usagef(c.cmd.path, "%v", err)
		}
	}
	changed := false
	for _, n := range []string{"name", "prompt", "schedule", "model", "caps", "approvals"} {
		changed = changed || c.flags[n]
	}
	if !changed {
		return usagef(c.cmd.path, "tasks edit needs at least one of --name, --prompt, --schedule, --model, --caps, --approvals")
	}
	t, err := app.UpdateTask(ctx, c.args[0], func(s *assistant.TaskSpec) {
		if c.flags["name"] {
			s.Name = *f.name
		}
		if c.flags["prompt"] {
			s.Prompt = *f.prompt
		}
		if c.flags["schedule"] {
			s.Schedule = *f.schedule
		}
		if c.flags["model"] {
			s.Model = *f.model
		}
		if c.flags["caps"] {
			if strings.EqualFold(strings.TrimSpace(*f.caps), "all") {
				s.Capabilities = nil
			} else {
				s.Capabilities = commalist.Split(*f.caps)
			}
		}
		if c.flags["approvals"] {
			s.Approvals = ap
		}
	})
	if err != nil {
		return err
	}
	return printTask(app, c, t, "Changed")
}

func tasksRemove(_ context.Context, app *assistant.App, c *call) error {
	t, err := app.RemoveTask(c.args[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.out, "Removed %s “%s” (its conversations stay).\n", t.ID, t.Name)
	return nil
}

func tasksEnable(ctx context.Context, app *assistant.App, c *call, on bool) error {
	t, err := app.EnableTask(ctx, c.args[0], on)
	if err != nil {
		return err
	}
	verb := "Switched on"
	if !on {
		verb = "Switched off"
	}
	return printTask(app, c, t, verb)
}

func tasksRun(ctx context.Context, app *assistant.App, c *call) error {
	var approver gate.Approver
	if !c.forwarded && interactive(c.io.in) {
		approver = &promptApprover{in: bufio.NewReader(c.io.in), out: c.io.err}
	}
	t, err := app.Task(c.args[0])
	if err != nil {
		return err
	}
	if app.TasksStarted() {
		fmt.Fprintf(c.io.err, "Running “%s” in the Wrasse window…\n", t.Name)
	} else {
		fmt.Fprintf(c.io.err, "Running “%s”…\n", t.Name)
	}
	r, err := app.RunTask(ctx, c.args[0], approver)
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, r)
	}
	return printRun(c.io.out, r)
}

func printRun(w io.Writer, r tasks.Run) error {
	conv := store.ID(r.Conversation)
	switch r.Outcome {
	case tasks.Done:
		fmt.Fprintf(w, "Done in %s (%d tokens in, %d out). Read it with: wrasse conversations show %s\n", conv, r.InputTokens, r.OutputTokens, conv)
	case tasks.Waiting:
		fmt.Fprintf(w, "Waiting for your approval in the Wrasse window, in %s.\n", conv)
	case tasks.Running:
		fmt.Fprintf(w, "Still running in %s.\n", conv)
	default:
		fmt.Fprintf(w, "%s: %s\n", r.Outcome, r.Error)
		if r.Outcome == tasks.Failed {
			return fmt.Errorf("the run failed")
		}
	}
	return nil
}

func tasksHistory(app *assistant.App, c *call, limit int) error {
	t, runs, err := app.TaskRuns(c.args[0], limit)
	if err != nil {
		return err
	}
	if c.g.json {
		if runs == nil {
			runs = []tasks.Run{}
		}
		return writeJSON(c.io.out, runs)
	}
	info, _ := app.Task(t.ID.String())
	loc := app.TaskLocation()
	fmt.Fprintf(c.io.out, "%s “%s”: %s; next run %s\n", t.ID, t.Name, t.Schedule.Describe(), when(info.Next, loc))
	if len(runs) == 0 {
		fmt.Fprintln(c.io.out, "No runs yet.")
		return nil
	}
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STARTED\tDUE\tOUTCOME\tCONVERSATION\tTOKENS\tNOTE")
	for _, r := range runs {
		conv := "-"
		if r.Conversation != 0 {
			conv = store.ID(r.Conversation).String()
		}
		note := r.Note
		if r.Error != "" {
			note = strings.TrimSpace(r.Error + "; " + note)
		}
		if r.Trigger == tasks.Manual {
			note = strings.TrimSpace("run by hand " + note)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d/%d\t%s\n", when(r.Started, loc), when(r.Due, loc), r.Outcome, conv, r.InputTokens, r.OutputTokens, note)
	}
	return tw.Flush()
}
