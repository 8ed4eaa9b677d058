package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
)

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
	// NotGranted are the permissions its plugin declares and the user has
	// not granted: until they are, none of its code runs.
	NotGranted []string `json:"notGranted,omitempty"`
}

func rowOf(c *cerebellum.Capability) capRow {
	return capRow{Name: c.Name, Kind: string(c.Kind), State: string(c.State), Badge: string(c.Badge), Core: c.Core,
		Pinned: c.Pinned, Tools: len(c.Tools()), Description: c.Description(), Error: c.Error, Folder: c.Folder, Granted: c.Granted,
		NotGranted: c.MissingGrants()}
}

// needsGrant is the STATE `caps list` shows for an ungranted plugin: it is
// not failed, but its tools cannot run until the user grants.
const needsGrant = "needs grant"

// stateText is c's STATE in `caps list` and `caps show`.
func stateText(c *cerebellum.Capability) string {
	if c.State == cerebellum.StateOK && len(c.MissingGrants()) > 0 {
		return needsGrant
	}
	if c.Unapproved != "" {
		return "needs enabling"
	}
	return string(c.State)
}

func capsList(ctx context.Context, app *assistant.App, c *call, check bool) error {
	if check {
		app.CheckPlugins(ctx)
	}
	return printCapsList(app.Capabilities(), c.g.json, c.io.out)
}

// capabilityLister is what the listing reads: App.Capabilities, or a bare
// registry in the golden test.
type capabilityLister interface {
	List() []*cerebellum.Capability
	Snapshot() *cerebellum.Snapshot
	UnknownPinned() []string
}

func printCapsList(reg capabilityLister, asJSON bool, w io.Writer) error {
	caps := reg.List()
	if asJSON {
		rows := make([]capRow, 0, len(caps))
		for _, c := range caps {
			rows = append(rows, rowOf(c))
		}
		return writeJSON(w, rows)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	rows := make([][listColumns]string, len(caps)+1)
	rows[0] = [listColumns]string{"NAME", "KIND", "STATE", "BADGE", "TOOLS", "DESCRIPTION"}
	// Shortening 10,000 descriptions is a few ms of a start: on every core.
	var wg sync.WaitGroup
	chunk := max(len(caps)/runtime.GOMAXPROCS(0)+1, 1024)
	for lo := 0; lo < len(caps); lo += chunk {
		wg.Add(1)
		go func(part []*cerebellum.Capability, out [][listColumns]string) {
			defer wg.Done()
			for i, c := range part {
				out[i] = listRow(c)
			}
		}(caps[lo:min(lo+chunk, len(caps))], rows[1+lo:])
	}
	wg.Wait()
	ok, failed, disabled, ungranted := 0, 0, 0, 0
	for _, c := range caps {
		switch c.State {
		case cerebellum.StateFailed:
			failed++
		case cerebellum.StateDisabled:
			disabled++
		default:
			if len(c.MissingGrants()) > 0 {
				ungranted++
			} else {
				ok++
			}
		}
	}
	if err := writeColumns(bw, rows); err != nil {
		return err
	}
	waiting := ""
	if ungranted > 0 {
		waiting = fmt.Sprintf(", %d %s a grant", ungranted, plural(ungranted, "needs", "need"))
	}
	fmt.Fprintf(bw, "\n%d capabilities: %d ok%s, %d disabled, %d failed; %d tools callable.\n", len(caps), ok, waiting, disabled, failed, reg.Snapshot().ToolCount())
	if unknown := reg.UnknownPinned(); len(unknown) > 0 {
		fmt.Fprintf(bw, "warning: config.json pins %s, which %s not installed.\n", strings.Join(unknown, ", "), plural(len(unknown), "is", "are"))
	}
	return bw.Flush()
}

// listRow is a capability's row of `caps list`.
func listRow(c *cerebellum.Capability) [listColumns]string {
	kind := string(c.Kind)
	if c.Core {
		kind += " (core)"
	} else if c.Pinned {
		kind += " (pinned)"
	}
	var text string
	state := stateText(c)
	switch {
	case c.State == cerebellum.StateFailed:
		text = "error: " + oneLine(c.Error, 100)
	case state == needsGrant:
		text = "not granted: " + strings.Join(c.MissingGrants(), ", ") + " (wrasse caps enable " + c.Name + " --grant " + strings.Join(c.MissingGrants(), ",") + ")"
	default:
		text = oneLine(c.Description(), 70)
	}
	return [listColumns]string{c.Name, kind, state, string(c.Badge), strconv.Itoa(len(c.Tools())), text}
}

// listColumns is how many columns `caps list` prints.
const listColumns = 6

// writeColumns writes rows as text/tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
// does with each row's cells joined by tabs (every column but the last
// padded with spaces to its widest cell plus two, widths in runes), without
// holding a copy of the text: at 10,000 capabilities the tabwriter's buffer
// and cells were a tenth of what `caps list` allocated. Cells holding a
// byte the tabwriter would treat as markup (tab, vertical tab, newline,
// form feed, its escape 0xff) go through the tabwriter itself.
func writeColumns(w *bufio.Writer, rows [][listColumns]string) error {
	var width [listColumns - 1]int
	for _, r := range rows {
		for j, cell := range r {
			if !plainCell(cell) {
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				for _, r := range rows {
					tw.Write([]byte(strings.Join(r[:], "\t") + "\n"))
				}
				return tw.Flush()
			}
			if j < len(width) {
				width[j] = max(width[j], utf8.RuneCountInString(cell)+2)
			}
		}
	}
	for _, r := range rows {
		for j, cell := range r {
			w.WriteString(cell)
			if j < len(width) {
				for pad := width[j] - utf8.RuneCountInString(cell); pad > 0; pad-- {
					w.WriteByte(' ')
				}
			}
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// plainCell reports whether the tabwriter would take s as plain text.
func plainCell(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t', '\v', '\n', '\f', tabwriter.Escape:
			return false
		}
	}
	return true
}

// oneLine is cerebellum.OneLine (whitespace runs become one space, the ends
// trimmed; over limit runes, the first limit-1 with trailing " ,;:.-" cut
// and "…" added) in one pass that stops after limit+1 runes and allocates
// only its result: a listing calls it once per capability, and the
// general one (strings.Fields, Join and a []rune of the whole text) was a
// tenth of `caps list` at 10,000 capabilities. A fuzz test holds the two
// equal.
func oneLine(s string, limit int) string {
	// Count the runes of the collapsed text, up to limit+1, and note
	// whether collapsing changes anything.
	n, clean, space := 0, true, true // space: the last rune kept was a space (or none yet)
	for i, r := range s {
		if isSpace(r) {
			if space || r != ' ' {
				clean = false
			}
			space = true
			continue
		}
		if space && n > 0 {
			n++ // the single space before this word
		}
		space = false
		if n++; n > limit {
			return cutLine(s[:i], limit)
		}
	}
	if clean && !space || s == "" {
		return s
	}
	// Short enough, but spaces to collapse: the words joined, bytes as given.
	b := make([]byte, 0, len(s))
	for _, f := range strings.FieldsFunc(s, isSpace) {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, f...)
	}
	return string(b)
}

// cutLine is the truncated case of oneLine: s holds at least limit runes
// of the collapsed text. Like []rune(s), an invalid byte becomes U+FFFD.
func cutLine(s string, limit int) string {
	// On the stack for the listing's limits; only the result is allocated.
	var buf [4 * 100]byte
	b := buf[:0]
	n, space := 0, true
	for _, r := range s {
		if isSpace(r) {
			space = true
			continue
		}
		if space && n > 0 {
			if n++; n > limit-1 {
				break
			}
			b = append(b, ' ')
		}
		space = false
		if n++; n > limit-1 {
			break
		}
		b = utf8.AppendRune(b, r)
	}
	return strings.TrimRight(string(b), " ,;:.-") + "…"
}

// isSpace is the test strings.Fields splits on.
func isSpace(r rune) bool { return unicode.IsSpace(r) }

func capsShow(ctx context.Context, app *assistant.App, c *call, check bool) error {
	if check {
		app.CheckPlugins(ctx)
	}
	if err := printCapsShow(app.Capabilities(), c.args[0], c.g.json, c.io.out); err != nil {
		return err
	}
	// What the operating system enforces on the capability's code.
	if sb, err := app.Sandbox(c.args[0]); err == nil && !c.g.json {
		fmt.Fprintf(c.io.out, "\nSandbox:  %s\n", sb.Summary)
		for _, g := range sb.Gaps {
			fmt.Fprintf(c.io.out, "  not enforced: %s\n", g)
		}
	}
	return nil
}

func printCapsShow(reg assistant.Capabilities, name string, asJSON bool, w io.Writer) error {
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
	state := stateText(c)
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
		var meta []string
		for _, k := range slices.Sorted(maps.Keys(m.Metadata)) {
			meta = append(meta, k+"="+m.Metadata[k])
		}
		row("Metadata:", strings.Join(meta, ", "))
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
		if missing := c.MissingGrants(); len(missing) > 0 {
			row("Not granted:", strings.Join(missing, ", ")+": none of its code runs until they are (wrasse caps enable "+c.Name+" --grant "+strings.Join(missing, ",")+")")
		}
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
	if m := c.Manifest; m != nil && m.Body != "" {
		fmt.Fprintln(w, "\nInstructions (SKILL.md):")
		for _, l := range strings.Split(m.Body, "\n") {
			fmt.Fprintln(w, strings.TrimRight("  "+l, " "))
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

// capsShowBody prints a capability's SKILL.md body alone, as written.
func capsShowBody(app *assistant.App, c *call) error {
	capability, err := app.Capabilities().Get(c.args[0])
	if err != nil {
		return err
	}
	if capability.Manifest == nil {
		return fmt.Errorf("%w: %s: %s", cerebellum.ErrFailed, capability.Name, capability.Error)
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"name": capability.Name, "body": capability.Manifest.Body})
	}
	_, err = fmt.Fprintln(c.io.out, capability.Manifest.Body)
	return err
}

// cerebellumManifestJS is the manifest as shown by `caps show --json`.
type cerebellumManifestJS struct {
	Description   string            `json:"description"`
	Version       string            `json:"version,omitempty"`
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	AllowedTools  []string          `json:"allowedTools,omitempty"`
	Body          string            `json:"body,omitempty"`
	Requires      []string          `json:"requires,omitempty"`
	Tools         []string          `json:"tools,omitempty"`
	Warnings      []string          `json:"warnings,omitempty"`
	Permissions   []string          `json:"permissions,omitempty"`
}

func manifestJS(c *cerebellum.Capability) *cerebellumManifestJS {
	m := c.Manifest
	if m == nil {
		return nil
	}
	out := &cerebellumManifestJS{Description: m.Description, Version: m.Version, License: m.License, Requires: m.Requires, Permissions: m.Permissions.Names(),
		Compatibility: m.Compatibility, Metadata: m.Metadata, AllowedTools: m.AllowedTools, Body: m.Body}
	for _, t := range m.Tools {
		out.Tools = append(out.Tools, t.Name)
	}
	for _, w := range m.Warnings {
		out.Warnings = append(out.Warnings, w.String())
	}
	return out
}

func capsSearch(_ context.Context, app *assistant.App, c *call) error {
	query, w := strings.Join(c.args, " "), c.io.out
	res, err := app.Capabilities().Search(nil, query, cerebellum.SearchLimit)
	if err != nil {
		return err
	}
	if c.g.json {
		return writeSearchJSON(w, query, res)
	}
	fmt.Fprintln(w, cerebellum.FormatSearch(res, nil, nil))
	return nil
}

func writeSearchJSON(w io.Writer, query string, res cerebellum.SearchResult) error {
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

// capsIndex prints the index a new conversation, or conversation id,
// sees.
func capsIndex(app *assistant.App, c *call, id string) error {
	var cid store.ID
	if id != "" {
		var err error
		if cid, err = store.ParseID(id); err != nil {
			return usagef(c.cmd.path, "%v", err)
		}
	}
	sess, err := app.Session(cid)
	if err != nil {
		return err
	}
	idx := app.Capabilities().Index(sess)
	if c.g.json {
		return writeJSON(c.io.out, map[string]any{"index": idx, "loaded": app.Capabilities().LoadedNames(sess)})
	}
	fmt.Fprintln(c.io.out, idx)
	return nil
}

// capsWatch reports capability changes on disk until interrupted, applying
// them at once when config.json says autoResync (or --apply is given).
func capsWatch(ctx context.Context, app *assistant.App, c *call, apply bool) error {
	var mu sync.Mutex // notices may come from the watcher's goroutine
	cancel := app.Subscribe(func(e assistant.Event) {
		if e.Kind != assistant.EventDisk {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if c.g.json {
			writeJSON(c.io.out, map[string]any{"diff": e.Diff, "applied": e.Applied, "error": errString(e.Err)})
			return
		}
		if e.Err != nil {
			fmt.Fprintf(c.io.err, "wrasse: %v\n", e.Err)
			return
		}
		if e.Diff.Empty() && !e.Applied {
			// The watcher reports this only after changes were reported
			// as waiting: they were undone on disk.
			fmt.Fprintln(c.io.out, "Changes on disk undone: nothing waits for a Resync now")
			return
		}
		verb := "Changes on disk (run wrasse caps resync to apply)"
		if e.Applied {
			verb = "Applied changes"
		}
		fmt.Fprintf(c.io.out, "%s: %s\n", verb, assistant.DiffSummary(e.Diff))
	})
	defer cancel()
	if err := app.Watch(ctx, apply); err != nil {
		return err
	}
	if !c.g.json {
		fmt.Fprintf(c.io.out, "Watching %s (Ctrl+C to stop).\n", app.Workspace().Capabilities())
	}
	<-ctx.Done()
	return nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
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
