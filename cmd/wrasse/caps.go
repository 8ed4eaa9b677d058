package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/watch"
)

func runCaps(ctx context.Context, args []string, io stdio, getenv func(string) string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: caps needs a subcommand (list, show, index, search, validate, install, remove, restore, enable, disable, resync)", errUsage)
	}
	sub, rest := args[0], args[1:]
	var g globalFlags
	fs := newFlagSet("caps "+sub, io)
	g.register(fs)
	noCheck := fs.Bool("no-check", false, "list, show: skip checking plugins (they are checked once per version, then remembered)")
	replace := fs.Bool("replace", false, "install: replace an installed capability of the same name")
	grant := fs.String("grant", "", "enable: permissions to grant, e.g. exec,network")
	conv := fs.String("c", "", "index: show the index as conversation ID sees it")
	apply := fs.Bool("apply", false, "watch: apply changes at once (as autoResync does)")
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	need := func(n int, what string) error {
		if len(pos) != n {
			return fmt.Errorf("%w: caps %s needs %s", errUsage, sub, what)
		}
		for _, p := range pos {
			if strings.TrimSpace(p) == "" {
				return fmt.Errorf("%w: caps %s needs %s, not an empty string", errUsage, sub, what)
			}
		}
		return nil
	}
	switch sub {
	case "list", "ls":
		return withApp(ctx, g, getenv, func(a *app) error {
			if !*noCheck {
				a.reg.CheckPlugins(ctx, 0)
			}
			return capsList(a.reg, g.json, io.out)
		})
	case "show":
		if err := need(1, "a capability NAME"); err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error {
			if !*noCheck {
				a.reg.CheckPlugins(ctx, 0)
			}
			return capsShow(a.reg, pos[0], g.json, io.out)
		})
	case "index":
		return withApp(ctx, g, getenv, func(a *app) error {
			sess, err := a.sessionFor(*conv)
			if err != nil {
				return err
			}
			idx := a.reg.Index(sess)
			if g.json {
				return writeJSON(io.out, map[string]any{"index": idx, "loaded": a.reg.LoadedNames(sess)})
			}
			fmt.Fprintln(io.out, idx)
			return nil
		})
	case "search":
		if len(pos) == 0 {
			return fmt.Errorf("%w: caps search needs a QUERY", errUsage)
		}
		return withApp(ctx, g, getenv, func(a *app) error {
			return capsSearch(a.reg, strings.Join(pos, " "), g.json, io.out)
		})
	case "validate":
		if err := need(1, "a PATH (folder, SKILL.md or .zip)"); err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error { return capsValidate(ctx, a, pos[0], g.json, io) })
	case "install":
		if err := need(1, "a PATH (folder, SKILL.md, .zip or .skill)"); err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error { return capsInstall(ctx, a, pos[0], *replace, g.json, io) })
	case "remove", "rm":
		if err := need(1, "a capability NAME"); err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error { return capsRemove(ctx, a, pos[0], g.json, io) })
	case "restore":
		if err := need(1, "a capability NAME"); err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error { return capsRestore(ctx, a, pos[0], g.json, io) })
	case "enable", "disable":
		if err := need(1, "a capability NAME"); err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error { return capsEnable(ctx, a, pos[0], sub == "enable", *grant, g.json, io) })
	case "revoke":
		if err := need(1, "a capability NAME (and optionally --grant PERMS to revoke only those)"); err != nil {
			return err
		}
		return withApp(ctx, g, getenv, func(a *app) error {
			if err := a.reg.Revoke(pos[0], splitList(*grant)); err != nil {
				return err
			}
			c, err := a.reg.Get(pos[0])
			if err != nil {
				return err
			}
			if g.json {
				return writeJSON(io.out, rowOf(c))
			}
			fmt.Fprintf(io.out, "%s: granted %s.\n", c.Name, orNothing(c.Granted))
			return nil
		})
	case "resync":
		return withApp(ctx, g, getenv, func(a *app) error { return capsResync(ctx, a, g.json, io) })
	case "watch":
		return withApp(ctx, g, getenv, func(a *app) error { return capsWatch(ctx, a, *apply, g.json, io) })
	}
	return fmt.Errorf("%w: unknown caps subcommand %q", errUsage, sub)
}

// capRow is the JSON shape of one capability in a listing.
type capRow struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	State       string   `json:"state"`
	Badge       string   `json:"badge"`
	Core        bool     `json:"core,omitempty"`
	Pinned      bool     `json:"pinned,omitempty"`
	Tools       int      `json:"tools"`
	Description string   `json:"description,omitempty"`
	Error       string   `json:"error,omitempty"`
	Folder      string   `json:"folder"`
	Granted     []string `json:"granted,omitempty"`
}

func rowOf(c *cerebellum.Capability) capRow {
	return capRow{Name: c.Name, Kind: string(c.Kind), State: string(c.State), Badge: string(c.Badge), Core: c.Core,
		Pinned: c.Pinned, Tools: len(c.Tools()), Description: c.Description(), Error: c.Error, Folder: c.Folder, Granted: c.Granted}
}

func capsList(reg *cerebellum.Registry, asJSON bool, w io.Writer) error {
	caps := reg.List()
	if asJSON {
		rows := make([]capRow, 0, len(caps))
		for _, c := range caps {
			rows = append(rows, rowOf(c))
		}
		return writeJSON(w, rows)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tSTATE\tBADGE\tTOOLS\tDESCRIPTION")
	ok, failed, disabled := 0, 0, 0
	for _, c := range caps {
		kind := string(c.Kind)
		if c.Core {
			kind += " (core)"
		} else if c.Pinned {
			kind += " (pinned)"
		}
		text := cerebellum.OneLine(c.Description(), 70)
		switch c.State {
		case cerebellum.StateFailed:
			failed++
			text = "error: " + cerebellum.OneLine(c.Error, 100)
		case cerebellum.StateDisabled:
			disabled++
		default:
			ok++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", c.Name, kind, c.State, c.Badge, len(c.Tools()), text)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d capabilities: %d ok, %d disabled, %d failed; %d tools callable.\n", len(caps), ok, disabled, failed, reg.Snapshot().ToolCount())
	if unknown := reg.UnknownPinned(); len(unknown) > 0 {
		fmt.Fprintf(w, "warning: config.json pins %s, which %s not installed.\n", strings.Join(unknown, ", "), plural(len(unknown), "is", "are"))
	}
	return nil
}

func capsShow(reg *cerebellum.Registry, name string, asJSON bool, w io.Writer) error {
	c, err := reg.Get(name)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(w, struct {
			capRow
			Source   string                `json:"source"`
			Dir      string                `json:"dir,omitempty"`
			Hash     string                `json:"hash"`
			Detail   string                `json:"detail,omitempty"`
			Files    []string              `json:"files,omitempty"`
			Manifest *cerebellumManifestJS `json:"manifest,omitempty"`
		}{rowOf(c), string(c.Source), c.Dir, c.Hash, c.Detail, c.Files, manifestJS(c)})
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(tw, "%s\t%s\n", k, v)
		}
	}
	row("Name:", c.Name)
	row("Kind:", string(c.Kind))
	state := string(c.State)
	if c.Core {
		state += " (core: always loaded)"
	} else if c.Pinned {
		state += " (pinned: always loaded)"
	}
	row("State:", state)
	row("Badge:", string(c.Badge))
	row("Source:", string(c.Source))
	row("Folder:", c.Folder)
	row("Path:", c.Dir)
	if m := c.Manifest; m != nil {
		row("Description:", m.Description)
		row("Version:", m.Version)
		row("License:", m.License)
		row("Compatibility:", m.Compatibility)
		row("Requires:", strings.Join(m.Requires, ", "))
		row("Allowed tools:", strings.Join(m.AllowedTools, " "))
		row("Search terms:", strings.Join(append(append(append([]string(nil), m.Triggers...), m.Keywords...), m.Tags...), ", "))
		var perms []string
		for _, p := range m.Permissions.Names() {
			if scope := m.Permissions[p]; len(scope) > 0 {
				p += " (" + strings.Join(scope, ", ") + ")"
			}
			perms = append(perms, p)
		}
		row("Permissions:", strings.Join(perms, ", "))
		row("Granted:", strings.Join(c.Granted, ", "))
	}
	tw.Flush()
	if c.State == cerebellum.StateFailed {
		fmt.Fprintln(w, "\nError:")
		detail := c.Detail
		if detail == "" {
			detail = c.Error
		}
		for _, l := range strings.Split(detail, "\n") {
			fmt.Fprintln(w, "  "+l)
		}
	}
	if m := c.Manifest; m != nil {
		if len(m.Tools) > 0 {
			fmt.Fprintln(w, "\nTools:")
			for _, t := range m.Tools {
				var flags []string
				if t.Annotations.ReadOnly {
					flags = append(flags, "read-only")
				}
				if t.Annotations.Destructive {
					flags = append(flags, "destructive")
				}
				if t.Annotations.Idempotent {
					flags = append(flags, "idempotent")
				}
				extra := ""
				if len(flags) > 0 {
					extra = " [" + strings.Join(flags, ", ") + "]"
				}
				fmt.Fprintf(w, "  %s%s — %s\n    parameters: %s\n", t.Name, extra, cerebellum.OneLine(t.Description, 160), string(t.Parameters))
			}
		}
		for _, p := range m.DangerPatterns {
			fmt.Fprintf(w, "Blocks:   /%s/ %s\n", p.Pattern, p.Reason)
		}
		for _, p := range m.ConfirmPatterns {
			fmt.Fprintf(w, "Confirms: /%s/ %s\n", p.Pattern, p.Reason)
		}
		if len(m.Warnings) > 0 {
			fmt.Fprintln(w, "\nWarnings:")
			for _, p := range m.Warnings {
				fmt.Fprintln(w, "  "+p.String())
			}
		}
	}
	if len(c.Files) > 0 {
		fmt.Fprintf(w, "\nFiles (%d):\n", len(c.Files))
		for i, f := range c.Files {
			if i == 50 {
				fmt.Fprintf(w, "  …and %d more\n", len(c.Files)-50)
				break
			}
			fmt.Fprintln(w, "  "+f)
		}
	}
	return nil
}

// cerebellumManifestJS is the manifest as shown by `caps show --json`.
type cerebellumManifestJS struct {
	Description string   `json:"description"`
	Version     string   `json:"version,omitempty"`
	License     string   `json:"license,omitempty"`
	Requires    []string `json:"requires,omitempty"`
	Tools       []string `json:"tools,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
	Permissions []string `json:"permissions,omitempty"`
}

func manifestJS(c *cerebellum.Capability) *cerebellumManifestJS {
	m := c.Manifest
	if m == nil {
		return nil
	}
	out := &cerebellumManifestJS{Description: m.Description, Version: m.Version, License: m.License, Requires: m.Requires, Permissions: m.Permissions.Names()}
	for _, t := range m.Tools {
		out.Tools = append(out.Tools, t.Name)
	}
	for _, w := range m.Warnings {
		out.Warnings = append(out.Warnings, w.String())
	}
	return out
}

func capsSearch(reg *cerebellum.Registry, query string, asJSON bool, w io.Writer) error {
	res, err := reg.Search(nil, query, cerebellum.SearchLimit)
	if err != nil {
		return err
	}
	if asJSON {
		type hit struct {
			Name  string  `json:"name"`
			Score float64 `json:"score"`
			Exact bool    `json:"exact,omitempty"`
			Tool  string  `json:"tool,omitempty"`
			State string  `json:"state"`
		}
		var hits, unusable []hit
		for _, m := range res.Matches {
			hits = append(hits, hit{m.Capability.Name, m.Score, m.Exact, m.Tool, string(m.Capability.State)})
		}
		for _, m := range res.Unusable {
			unusable = append(unusable, hit{m.Capability.Name, m.Score, m.Exact, m.Tool, string(m.Capability.State)})
		}
		return writeJSON(w, map[string]any{"query": query, "matches": hits, "unusable": unusable})
	}
	fmt.Fprintln(w, cerebellum.FormatSearch(res, nil, nil))
	return nil
}

// sessionFor returns the session of a stored conversation, or a fresh one.
func (a *app) sessionFor(id string) (*cerebellum.Session, error) {
	if id == "" {
		return a.reg.NewSession("", nil), nil
	}
	cid, err := parseConversationID(id)
	if err != nil {
		return nil, err
	}
	loaded, err := a.db.Loaded(cid)
	if err != nil {
		return nil, err
	}
	return a.reg.NewSession(id, loaded), nil
}

// capsWatch reports capability changes on disk until interrupted, applying
// them at once when config.json says autoResync (or --apply is given).
func capsWatch(ctx context.Context, a *app, apply, asJSON bool, io stdio) error {
	auto := apply || a.cfg.AutoResync
	err := watch.Registry(ctx, a.reg, auto, watch.Options{Logger: a.log}, func(n watch.Notice) {
		if asJSON {
			writeJSON(io.out, map[string]any{"diff": n.Diff, "applied": n.Applied, "error": errString(n.Err)})
			return
		}
		if n.Err != nil {
			fmt.Fprintf(io.err, "wrasse: %v\n", n.Err)
			return
		}
		verb := "Changes on disk (run wrasse caps resync to apply)"
		if n.Applied {
			verb = "Applied changes"
		}
		fmt.Fprintf(io.out, "%s: %s\n", verb, describeDiff(n.Diff))
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.out, "Watching %s (Ctrl+C to stop).\n", a.ws.Capabilities())
	<-ctx.Done()
	return nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func describeDiff(d cerebellum.Diff) string {
	var parts []string
	if len(d.Added) > 0 {
		parts = append(parts, "added "+strings.Join(d.Added, ", "))
	}
	if len(d.Changed) > 0 {
		parts = append(parts, "changed "+strings.Join(d.Changed, ", "))
	}
	if len(d.Removed) > 0 {
		parts = append(parts, "removed "+strings.Join(d.Removed, ", "))
	}
	return strings.Join(parts, "; ")
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func orNothing(list []string) string {
	if len(list) == 0 {
		return "nothing"
	}
	return strings.Join(list, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
