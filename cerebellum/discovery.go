package cerebellum

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/commalist"
	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// SearchLimit is how many matches tool_search returns.
const SearchLimit = 5

// maxSourceBytes caps what skill_read_source returns for one file.
const maxSourceBytes = 64 << 10

// maxPathShown caps a bundled file's name in skill_read_source's list.
const maxPathShown = 256

// Match is one tool_search result.
type Match struct {
	Capability *Capability
	Score      float64
	Exact      bool
	// Tool is the tool named exactly by the query, if any.
	Tool string
}

// SearchResult is the outcome of a search.
type SearchResult struct {
	Query   string
	Matches []Match
	// Activated names the capability auto-loaded into the session, if any.
	Activated string
	// Unusable are matches that are disabled or failed, reported when
	// nothing usable matched so an empty result can say why.
	Unusable []Match
}

// Search ranks usable capabilities for query. With a session it auto-loads
// the best match that has tools, so its tools are callable in the same turn.
func (r *Registry) Search(sess *Session, query string, limit int) (SearchResult, error) {
	query = strings.TrimSpace(query)
	res := SearchResult{Query: query}
	if query == "" {
		return res, fmt.Errorf("%w: say what the tool should do, e.g. tool_search(\"resize an image\")", ErrEmptyQuery)
	}
	if limit <= 0 {
		limit = SearchLimit
	}
	snap := r.Snapshot()
	ix := snap.Search()
	// tool-discovery itself is never a useful answer to a search.
	usable := func(id string) bool {
		c, ok := snap.byName[id]
		return ok && c.Usable() && id != DiscoveryName
	}
	unusableOnly := func(id string) bool { return !usable(id) && id != DiscoveryName }
	res.Matches = toMatches(snap, ix.Search(query, limit, usable))
	if len(res.Matches) == 0 {
		res.Unusable = toMatches(snap, ix.Search(query, limit, unusableOnly))
		return res, nil
	}
	// A capability named exactly but switched off or failed must not vanish
	// behind looser matches.
	res.Unusable = toMatches(snap, ix.Exact(query, limit, unusableOnly))
	if sess != nil {
		for _, m := range res.Matches {
			c := m.Capability
			// An MCP capability whose server was never listed has no
			// tools yet: loading it starts the server, which lists them.
			if c.Kind == KindGuide || len(c.Tools()) == 0 && c.Kind != KindMCP {
				continue
			}
			// A capability loaded partly (its tools exceed the tool
			// budget) loads the tools that fit this query too.
			_, partial := sess.Selection(c.Name)
			if !c.AlwaysLoaded() && (!sess.IsLoaded(c.Name) || partial) {
				if _, err := r.ActivateFor(sess, c.Name, query); err == nil {
					res.Activated = c.Name
				}
			}
			break
		}
	}
	return res, nil
}

func toMatches(snap *Snapshot, hits []search.Hit) []Match {
	out := make([]Match, 0, len(hits))
	for _, h := range hits {
		if c, ok := snap.byName[h.ID]; ok {
			out = append(out, Match{Capability: c, Score: h.Score, Exact: h.Exact, Tool: h.MatchedTool})
		}
	}
	return out
}

// FormatSearch renders a search result for the model.
func FormatSearch(res SearchResult, sess *Session, loadedNow func(string) bool) string {
	var b strings.Builder
	if len(res.Matches) == 0 {
		fmt.Fprintf(&b, "No usable capability matches %q.", res.Query)
		var disabled, failed []string
		for _, m := range res.Unusable {
			if m.Capability.State == StateDisabled {
				disabled = append(disabled, m.Capability.Name)
			} else {
				failed = append(failed, fmt.Sprintf("%s (%s)", m.Capability.Name, PromptLine(m.Capability.Error, 120)))
			}
		}
		if len(disabled) > 0 {
			fmt.Fprintf(&b, "\nThese match but are switched off: %s. The user can enable them in Settings → Capabilities.", strings.Join(disabled, ", "))
		}
		if len(failed) > 0 {
			fmt.Fprintf(&b, "\nThese match but failed to load: %s.", strings.Join(failed, "; "))
		}
		if len(res.Unusable) == 0 {
			b.WriteString("\nNothing installed matches. Try other words (what the tool does, not how), or do the task with the tools you have.")
		}
		return b.String()
	}
	for _, m := range res.Unusable {
		c := m.Capability
		if c.State == StateDisabled {
			fmt.Fprintf(&b, "Note: %s matches exactly but is switched off; the user can enable it in Settings → Capabilities.\n", c.Name)
		} else {
			fmt.Fprintf(&b, "Note: %s matches exactly but failed to load: %s\n", c.Name, PromptLine(c.Error, 160))
		}
	}
	if res.Activated != "" {
		fmt.Fprintf(&b, "Loaded %s: its tools are callable now.\n", res.Activated)
	}
	b.WriteString("Matches (load another with tool_activate; read a guide with skill_read_source):\n")
	for i, m := range res.Matches {
		c := m.Capability
		kind := kindText(c)
		mark := ""
		if loadedNow != nil && loadedNow(c.Name) && c.Kind != KindGuide {
			mark = " [loaded]"
			if sel, partial := sess.Selection(c.Name); partial {
				mark = fmt.Sprintf(" [%d of its tools loaded]", len(sel))
			}
		}
		if missing := c.MissingGrants(); len(missing) > 0 {
			// Listed, so the model can tell the user what to grant.
			mark = fmt.Sprintf(" [needs %s: only the user can grant it, in Settings → Capabilities]", commalist.Prose(missing))
		}
		fmt.Fprintf(&b, "%d. %s (%s)%s — %s\n", i+1, c.Name, kind, mark, PromptLine(c.Description(), 160))
		tools := c.Tools()
		for j, t := range tools {
			if j == 8 {
				fmt.Fprintf(&b, "   …and %d more\n", len(tools)-8)
				break
			}
			fmt.Fprintf(&b, "   - %s: %s\n", t.Name, toolText(c, t.Description, 100))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// ReadSource returns a guide's body and bundled file list, or with rel, one
// file of the capability folder (confined to it and size-capped). The body
// names the skill's base directory when it lives on disk, since its
// instructions give paths relative to it ("run scripts/fill.py"). A path
// that differs from a bundled file only in case reads that file (skills
// link FORMS.md and ship forms.md); any other miss lists the skill's files.
// Errors never carry an absolute path.
func (r *Registry) ReadSource(name, rel string) (string, error) {
	c, err := r.Get(name)
	if err != nil {
		return "", err
	}
	if rel == "" || rel == "SKILL.md" && c.Manifest == nil {
		if c.Manifest == nil {
			return "", fmt.Errorf("%w: %s: %s", ErrFailed, name, c.Error)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "<skill name=%q>\n%s\n</skill>\n", c.Name, PromptBlock(c.Manifest.Body))
		if c.Dir != "" {
			fmt.Fprintf(&b, "Base directory: %s\nPaths in these instructions are relative to it: run its scripts with shell_exec and cwd set to it (the folder is read-only; write output elsewhere).\n", c.Dir)
		}
		if files := bundled(c); len(files) > 0 {
			b.WriteString("<skill_resources>\n")
			for _, f := range files {
				b.WriteString(PromptLine(f, maxPathShown) + "\n")
			}
			b.WriteString("</skill_resources>\n")
			fmt.Fprintf(&b, "Read one with skill_read_source(capability=%q, path=...).", c.Name)
		}
		return strings.TrimRight(b.String(), "\n"), nil
	}
	clean := path.Clean(strings.ReplaceAll(rel, `\`, "/"))
	if filepath.IsAbs(rel) || !fs.ValidPath(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
		return "", fmt.Errorf("%w: %q; give a path relative to the %s folder, e.g. references/guide.md", ErrOutsideFolder, rel, name)
	}
	clean = matchFile(c, clean)
	if c.Dir != "" {
		// os.DirFS follows symlinks: make sure the real file stays inside.
		root, err := filepath.EvalSymlinks(c.Dir)
		if err != nil {
			return "", fmt.Errorf("read %s/%s: %w", name, clean, bare(err))
		}
		real, err := filepath.EvalSymlinks(filepath.Join(c.Dir, filepath.FromSlash(clean)))
		if errors.Is(err, fs.ErrNotExist) {
			return "", noFile(c, clean)
		}
		if err != nil {
			return "", fmt.Errorf("read %s/%s: %w", name, clean, bare(err))
		}
		if real != root && !strings.HasPrefix(real, root+string(filepath.Separator)) {
			return "", fmt.Errorf("%w: %q resolves outside the capability folder", ErrOutsideFolder, rel)
		}
	}
	f, err := c.FS.Open(clean)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", noFile(c, clean)
		}
		return "", fmt.Errorf("read %s/%s: %w", name, clean, bare(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", fmt.Errorf("%s/%s is a folder; call skill_read_source(%q) for the file list", name, clean, name)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSourceBytes+1))
	if err != nil {
		return "", fmt.Errorf("read %s/%s: %w", name, clean, bare(err))
	}
	if len(data) > maxSourceBytes {
		return PromptBlock(string(data[:maxSourceBytes])) + fmt.Sprintf("\n[file truncated at %d bytes]", maxSourceBytes), nil
	}
	return PromptBlock(string(data)), nil
}

// bundled are the capability's files besides SKILL.md.
func bundled(c *Capability) []string {
	var files []string
	for _, f := range c.Files {
		if f != "SKILL.md" {
			files = append(files, f)
		}
	}
	return files
}

// matchFile maps a path to the bundled file it names: itself when that
// exists, else the one file equal to it but for case.
func matchFile(c *Capability, clean string) string {
	if slices.Contains(c.Files, clean) {
		return clean
	}
	found := ""
	for _, f := range c.Files {
		if strings.EqualFold(f, clean) {
			if found != "" {
				return clean // two candidates: guessing would be wrong half the time
			}
			found = f
		}
	}
	if found == "" {
		return clean
	}
	return found
}

// maxMissListed bounds the file list of a miss.
const maxMissListed = 40

// noFile says a capability has no such file, and which it has.
func noFile(c *Capability, clean string) error {
	files := bundled(c)
	if len(files) == 0 {
		return fmt.Errorf("%s has no file %q: it bundles no files besides SKILL.md", c.Name, clean)
	}
	more := ""
	if len(files) > maxMissListed {
		more = fmt.Sprintf(" and %d more (see skill_read_source(%q))", len(files)-maxMissListed, c.Name)
		files = files[:maxMissListed]
	}
	return fmt.Errorf("%s has no file %q; its files are: %s%s", c.Name, clean, strings.Join(files, ", "), more)
}

// bare drops the path a *fs.PathError carries (absolute for a folder on
// disk), keeping the reason.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// allowedAliases maps tool names other Agent Skills clients use in
// allowed-tools to the Wrasse capability offering the same.
var allowedAliases = map[string]string{
	"bash": "shell", "read": "filesystem", "write": "filesystem", "edit": "filesystem", "multiedit": "filesystem",
	"glob": "filesystem", "grep": "filesystem", "ls": "filesystem", "webfetch": "web", "websearch": "web",
}

// loadAllowedTools loads into the session the capabilities that serve the
// tools a skill lists in allowed-tools, so the model can call them at once
// (no tool_search hop). Entries are Wrasse tool or capability names, or
// names other clients use (Bash, Read, WebFetch…; a "(pattern)" suffix is
// ignored). It returns the tools now callable, the entries nothing
// serves, and the capabilities that serve some but wait for the user's
// grants ("runner (needs exec)").
func (r *Registry) loadAllowedTools(sess *Session, c *Capability) (tools, unknown, ungranted []string) {
	if c.Manifest == nil || len(c.Manifest.AllowedTools) == 0 {
		return nil, nil, nil
	}
	snap := r.Snapshot()
	type want struct {
		owner string
		tools []string
	}
	var wants []want
	for _, entry := range c.Manifest.AllowedTools {
		name, _, _ := strings.Cut(entry, "(")
		name = strings.TrimSpace(name)
		w := want{}
		if ref, ok := snap.tools[name]; ok {
			w = want{owner: ref.cap.Name, tools: []string{name}}
		} else {
			// Differing only in case: the same pick whatever the map's order.
			for n, ref := range snap.tools {
				if strings.EqualFold(n, name) && (w.owner == "" || n < w.tools[0]) {
					w = want{owner: ref.cap.Name, tools: []string{n}}
				}
			}
		}
		if w.owner == "" {
			capName := strings.ToLower(name)
			if alias, ok := allowedAliases[capName]; ok {
				capName = alias
			}
			if o, ok := snap.byName[capName]; ok && o.Usable() {
				w.owner = o.Name
				for _, t := range o.Tools() {
					w.tools = append(w.tools, t.Name)
				}
			}
		}
		if w.owner == "" {
			unknown = append(unknown, entry)
			continue
		}
		wants = append(wants, w)
	}
	failed := map[string]bool{}
	loaded := map[string]bool{}
	for _, w := range wants {
		if loaded[w.owner] || failed[w.owner] {
			continue
		}
		if o, err := r.Activate(sess, w.owner); err != nil {
			r.log.Debug("allowed-tools: load", "skill", c.Name, "capability", w.owner, "error", err)
			failed[w.owner] = true
			if errors.Is(err, ErrNotGranted) {
				ungranted = append(ungranted, fmt.Sprintf("%s (needs %s)", o.Name, commalist.Prose(o.MissingGrants())))
			}
			continue
		}
		loaded[w.owner] = true
	}
	for _, w := range wants {
		for _, t := range w.tools {
			if loaded[w.owner] && !slices.Contains(tools, t) {
				tools = append(tools, t)
			}
		}
	}
	return tools, unknown, ungranted
}

// allowedNote tells the model which tools a skill's allowed-tools made
// callable.
func (r *Registry) allowedNote(sess *Session, c *Capability) string {
	if sess == nil {
		return "" // no conversation to load them into
	}
	tools, unknown, ungranted := r.loadAllowedTools(sess, c)
	var b strings.Builder
	if len(tools) > 0 {
		fmt.Fprintf(&b, "\nTools this skill uses are loaded and callable now: %s.", strings.Join(tools, ", "))
	}
	if len(unknown) > 0 {
		for i, u := range unknown {
			unknown[i] = PromptLine(u, NameLimit)
		}
		fmt.Fprintf(&b, "\nNot available here (do without them): %s.", strings.Join(unknown, ", "))
	}
	if len(ungranted) > 0 {
		fmt.Fprintf(&b, "\nWaiting for permissions only the user can grant (in Settings → Capabilities): %s. Ask the user before relying on them.",
			strings.Join(ungranted, ", "))
	}
	return b.String()
}

// discovery is the native runtime of the built-in tool-discovery capability.
type discovery struct{ r *Registry }

func (d discovery) Close() error { return nil }

func (d discovery) Call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	sess := SessionFrom(ctx)
	var a struct {
		Query      string `json:"query"`
		Capability string `json:"capability"`
		Path       string `json:"path"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return Result{Content: "arguments must be a JSON object: " + err.Error(), IsError: true}, nil
	}
	switch tool {
	case "tool_search":
		res, err := d.r.Search(sess, a.Query, SearchLimit)
		if err != nil {
			return Result{Content: err.Error(), IsError: true}, nil
		}
		note := ""
		if res.Activated != "" {
			c, _ := d.r.Snapshot().Get(res.Activated)
			if note = d.r.startOnActivate(ctx, c); note == "" {
				d.r.selectListed(sess, c, res.Query)
				res = d.r.refreshMatches(res)
			}
		}
		out := FormatSearch(res, sess, func(n string) bool { return d.r.isLoaded(sess, n) }) + note
		if res.Activated != "" && note == "" {
			if c, ok := d.r.Snapshot().Get(res.Activated); ok {
				if pn := d.r.partialNote(sess, c, res.Query); pn != "" {
					out += "\n" + pn
				}
			}
		}
		return Result{Content: out}, nil
	case "tool_activate":
		c, err := d.r.ActivateFor(sess, a.Capability, a.Query)
		if err != nil {
			return Result{Content: err.Error() + " Use tool_search to find capabilities.", IsError: true}, nil
		}
		if note := d.r.startOnActivate(ctx, c); note != "" {
			return Result{Content: fmt.Sprintf("Loaded %s.%s", c.Name, note), IsError: true}, nil
		}
		d.r.selectListed(sess, c, a.Query)
		if now, ok := d.r.Snapshot().Get(c.Name); ok {
			c = now // with the tools its server just listed
		}
		switch {
		case c.Kind == KindGuide:
			msg := fmt.Sprintf("%s is a guide (no tools): read it with skill_read_source(%q).", c.Name, c.Name)
			if c.Dir != "" {
				msg += fmt.Sprintf(" Its base directory is %s: paths in it are relative to that folder.", c.Dir)
			}
			return Result{Content: msg + d.r.allowedNote(sess, c)}, nil
		case c.AlwaysLoaded():
			return Result{Content: fmt.Sprintf("%s is always loaded; its tools are callable: %s.", c.Name, toolNames(c))}, nil
		}
		if pn := d.r.partialNote(sess, c, a.Query); pn != "" {
			return Result{Content: pn}, nil
		}
		return Result{Content: fmt.Sprintf("Loaded %s; its tools are callable now: %s.", c.Name, toolNames(c))}, nil
	case "skill_read_source":
		out, err := d.r.ReadSource(a.Capability, a.Path)
		if err != nil {
			return Result{Content: err.Error(), IsError: true}, nil
		}
		if sess != nil {
			sess.markRecent(a.Capability)
		}
		if c, err := d.r.Get(a.Capability); err == nil && a.Path == "" && c.Usable() {
			// The skill is being read: offer the tools it lists with it
			// (never for one the user switched off, or that failed).
			out += d.r.allowedNote(sess, c)
		}
		return Result{Content: out}, nil
	}
	return Result{}, fmt.Errorf("%w: tool-discovery has no tool %q", ErrUnknownTool, tool)
}

func (r *Registry) isLoaded(sess *Session, name string) bool {
	for _, n := range r.LoadedNames(sess) {
		if n == name {
			return true
		}
	}
	return false
}

func toolNames(c *Capability) string {
	var names []string
	for _, t := range c.Tools() {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}
