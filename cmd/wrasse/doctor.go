package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// doctorOpts are wrasse doctor's flags: at most one action.
type doctorOpts struct {
	salvage, fresh, restore, list bool
}

func (o *doctorOpts) action() string {
	switch {
	case o.salvage:
		return "salvage"
	case o.fresh:
		return "fresh"
	case o.restore:
		return "restore"
	case o.list:
		return "list-backups"
	}
	return ""
}

func doctorCommand() *command {
	return &command{path: "doctor", args: "[BACKUP]",
		argHelp: [][2]string{{"BACKUP", "with --restore, the backup to restore (a name --list-backups shows; default the newest automatic one)"}},
		summary: "Check the workspace database and, when it is damaged or from a newer Wrasse, repair it: salvage what can be read into a new database, start afresh, or restore a backup. The file replaced is always kept in .cache/backups. Exits 1 when the database cannot be used as it is.",
		maxArgs: 1,
		setup: func(fs *flag.FlagSet, c *call) runFunc {
			o := &doctorOpts{}
			fs.BoolVar(&o.salvage, "salvage", false, "copy what can be read (conversations, secrets, settings, capability states) into a new database that takes the damaged one's place")
			fs.BoolVar(&o.fresh, "fresh", false, "set the database aside and start with an empty one")
			fs.BoolVar(&o.restore, "restore", false, "put a backup (BACKUP, or the newest automatic one) in the database's place")
			fs.BoolVar(&o.list, "list-backups", false, "list the backups and the databases set aside")
			c.opts = o
			return func(ctx context.Context, app *assistant.App, c *call) error { return doctorOpen(app, c, o) }
		},
		check: func(c *call) error {
			o := c.opts.(*doctorOpts)
			n := 0
			for _, b := range []bool{o.salvage, o.fresh, o.restore, o.list} {
				if b {
					n++
				}
			}
			if n > 1 {
				return usagef("doctor", "choose one of --salvage, --fresh, --restore and --list-backups")
			}
			if len(c.args) > 0 && !o.restore {
				return usagef("doctor", "BACKUP goes with --restore")
			}
			return nil
		},
		closed: func(ctx context.Context, ws workspace.Workspace, c *call) error {
			return doctorClosed(ws, c, c.opts.(*doctorOpts))
		},
	}
}

// doctorOpen is wrasse doctor run by the Wrasse that has the workspace
// open: its database opened, so it is checked on a copy; nothing is
// replaced under a running Wrasse.
func doctorOpen(app *assistant.App, c *call, o *doctorOpts) error {
	doc := assistant.NewDoctor(app.Workspace(), nil, app.Logger())
	switch o.action() {
	case "list-backups":
		return printBackups(c, doc)
	case "":
		d, err := app.CheckDatabase()
		if err != nil {
			return err
		}
		if dmg := app.DatabaseDamage(); dmg != nil && d.Healthy() {
			d.Problems = append(d.Problems, dmg.Error())
		}
		return printDiagnosis(c, doc, d)
	}
	return fmt.Errorf("%w: close it first: --%s replaces the database, which it is using", assistant.ErrRunning, o.action())
}

// doctorClosed is wrasse doctor with no Wrasse holding the workspace:
// the file is read without opening it.
func doctorClosed(ws workspace.Workspace, c *call, o *doctorOpts) error {
	doc := assistant.NewDoctor(ws, nil, nil)
	if o.action() == "list-backups" {
		return printBackups(c, doc)
	}
	d, err := doc.Diagnose()
	if err != nil {
		return busyDatabase(err)
	}
	switch o.action() {
	case "":
		return printDiagnosis(c, doc, d)
	case "restore":
		name := ""
		if len(c.args) > 0 {
			name = c.args[0]
		}
		used, aside, err := doc.Restore(name)
		if err != nil {
			return busyDatabase(err)
		}
		if c.g.json {
			return writeJSON(c.io.out, map[string]any{"restored": used.Name, "setAside": aside})
		}
		fmt.Fprintf(c.io.out, "Restored %s (%s).\n", used.Name, used.Time.Local().Format("2006-01-02 15:04"))
		printAside(c.io.out, aside)
		return nil
	}
	if d.Missing {
		return fmt.Errorf("there is no database in %s yet: nothing to %s", ws.Root, o.action())
	}
	if d.Healthy() {
		return hint.With(fmt.Errorf("%s is sound: there is nothing to %s", d.Path, o.action()),
			hint.Hint{Action: "See what it holds", Command: []string{"doctor"}})
	}
	if o.fresh {
		aside, err := doc.Fresh()
		if err != nil {
			return busyDatabase(err)
		}
		if c.g.json {
			return writeJSON(c.io.out, map[string]any{"setAside": aside})
		}
		fmt.Fprintln(c.io.out, "The next start begins with an empty database (conversations, secrets and capability states start afresh).")
		printAside(c.io.out, aside)
		return nil
	}
	rep, err := doc.Salvage()
	if err != nil {
		return busyDatabase(err)
	}
	if c.g.json {
		return writeJSON(c.io.out, rep)
	}
	fmt.Fprintf(c.io.out, "Salvaged %d conversations (%d events), %d secrets, %d settings, %d capability states.\n",
		rep.Conversations, rep.Events, rep.Secrets, rep.Settings, rep.States)
	if rep.Rebuilt > 0 {
		fmt.Fprintf(c.io.out, "%d conversations lost their title and are named \"Recovered conversation\".\n", rep.Rebuilt)
	}
	if len(rep.Lost) > 0 {
		fmt.Fprintln(c.io.out, "Could not be read:")
		for _, l := range rep.Lost {
			fmt.Fprintf(c.io.out, "  - %s\n", l)
		}
	}
	printAside(c.io.out, rep.SetAside)
	return nil
}

// busyDatabase explains a database another process holds.
func busyDatabase(err error) error {
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("another wrasse command is using this workspace right now; try again when it has finished: %w", err)
	}
	return err
}

func printAside(w io.Writer, aside string) {
	if aside != "" {
		fmt.Fprintf(w, "The database it replaced is kept as %s.\n", aside)
	}
}

// printDiagnosis prints what doctor found and the ways out; a database
// that cannot be used as it is makes the command fail (exit 1).
func printDiagnosis(c *call, doc *assistant.Doctor, d store.Diagnosis) error {
	backups, err := doc.Backups()
	if err != nil {
		return err
	}
	if c.g.json {
		if err := writeJSON(c.io.out, map[string]any{"database": d, "healthy": d.Healthy(), "backups": nonNil(backups)}); err != nil {
			return err
		}
		if d.Healthy() || d.Missing {
			return nil
		}
		return &exitError{exitFail}
	}
	w := c.io.out
	switch {
	case d.Missing:
		fmt.Fprintf(w, "There is no database in %s yet; the next start creates one.\n", doc.Workspace().Root)
		return nil
	case d.Healthy():
		fmt.Fprintf(w, "%s is sound (%s, version %d): %s.\n", d.Path, size(d.Size), d.Schema, holds(d))
		if len(d.Unreadable) > 0 {
			fmt.Fprintf(w, "Records that cannot be read (shown as damaged, left out of a salvage): %s.\n", strings.Join(d.Unreadable, "; "))
		}
		fmt.Fprintf(w, "%d %s in %s.\n", len(backups), plural(len(backups), "backup", "backups"), doc.Workspace().Backups())
		return nil
	case d.Newer():
		fmt.Fprintf(w, "%s was written by a newer Wrasse (database version %d; this one reads up to %d). Update Wrasse to use it.\n",
			d.Path, d.Schema, d.Supported)
	default:
		fmt.Fprintf(w, "%s is damaged (%s):\n", d.Path, size(d.Size))
		for _, p := range d.Problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
		fmt.Fprintf(w, "What can still be read: %s.\n", holds(d))
	}
	fmt.Fprintln(w, "Nothing was changed in it. What you can do (the file replaced is kept in .cache/backups):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if !d.Newer() && d.Conversations+d.Events+d.Secrets > 0 {
		fmt.Fprintln(tw, "  wrasse doctor --salvage\tcopy what can be read into a new database")
	}
	if len(backups) > 0 {
		fmt.Fprintf(tw, "  wrasse doctor --restore %s\tput the newest backup (%s) in its place\n", backups[0].Name, backups[0].Time.Local().Format("2006-01-02 15:04"))
		fmt.Fprintln(tw, "  wrasse doctor --list-backups\tsee every backup")
	}
	fmt.Fprintln(tw, "  wrasse doctor --fresh\tstart with an empty database")
	tw.Flush()
	return &exitError{exitFail}
}

func holds(d store.Diagnosis) string {
	return fmt.Sprintf("%d conversations, %d events, %d secrets", d.Conversations, d.Events, d.Secrets)
}

func printBackups(c *call, doc *assistant.Doctor) error {
	list, err := doc.Backups()
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, nonNil(list))
	}
	if len(list) == 0 {
		fmt.Fprintf(c.io.out, "No backups in %s yet (one is made each day Wrasse starts).\n", doc.Workspace().Backups())
		return nil
	}
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTAKEN\tKIND\tSIZE")
	for _, b := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Name, b.Time.Local().Format("2006-01-02 15:04"), b.Kind, size(b.Size))
	}
	tw.Flush()
	fmt.Fprintf(c.io.out, "In %s. Restore one with: wrasse doctor --restore NAME\n", doc.Workspace().Backups())
	return nil
}

// size is n bytes for people.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// nonNil makes a nil list print as [] in JSON.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
