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
	"strings"

	"github.com/wrasse-app/wrasse/cerebellum/search"
)

// SearchLimit is how many matches tool_search returns.
const SearchLimit = 5

// maxSourceBytes caps what skill_read_source returns for one file.
const maxSourceBytes = 64 << 10

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
			if !c.AlwaysLoaded() && !sess.IsLoaded(c.Name) {
				if _, err := r.Activate(sess, c.Name); err == nil {
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
				failed = append(failed, fmt.Sprintf("%s (%s)", m.Capability.Name, OneLine(m.Capability.Error, 120)))
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
			fmt.Fprintf(&b, "Note: %s matches exactly but failed to load: %s\n", c.Name, OneLine(c.Error, 160))
		}
	}
	if res.Activated != "" {
		fmt.Fprintf(&b, "Loaded %s: its tools are callable now.\n", res.Activated)
	}
	b.WriteString("Matches (load another with tool_activate; read a guide with skill_read_source):\n")
	for i, m := range res.Matches {
		c := m.Capability
		kind := "guide"
		if c.Kind != KindGuide {
			kind = fmt.Sprintf("%d %s", len(c.Tools()), plural(len(c.Tools()), "tool", "tools"))
		}
		mark := ""
		if loadedNow != nil && loadedNow(c.Name) && c.Kind != KindGuide {
			mark = " [loaded]"
		}
		fmt.Fprintf(&b, "%d. %s (%s)%s — %s\n", i+1, c.Name, kind, mark, OneLine(c.Description(), 160))
		tools := c.Tools()
		for j, t := range tools {
			if j == 8 {
				fmt.Fprintf(&b, "   …and %d more\n", len(tools)-8)
				break
			}
			fmt.Fprintf(&b, "   - %s: %s\n", t.Name, OneLine(t.Description, 100))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// ReadSource returns a guide's body and bundled file list, or with rel, one
// file of the capability folder (confined to it and size-capped).
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
		fmt.Fprintf(&b, "<skill name=%q>\n%s\n</skill>\n", c.Name, c.Manifest.Body)
		var files []string
		for _, f := range c.Files {
			if f != "SKILL.md" {
				files = append(files, f)
			}
		}
		if len(files) > 0 {
			b.WriteString("<skill_resources>\n")
			for _, f := range files {
				b.WriteString(f + "\n")
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
	if c.Dir != "" {
		// os.DirFS follows symlinks: make sure the real file stays inside.
		root, err := filepath.EvalSymlinks(c.Dir)
		if err != nil {
			return "", fmt.Errorf("read %s/%s: %w", name, clean, err)
		}
		real, err := filepath.EvalSymlinks(filepath.Join(c.Dir, filepath.FromSlash(clean)))
		if err != nil {
			return "", fmt.Errorf("read %s/%s: %w", name, clean, err)
		}
		if real != root && !strings.HasPrefix(real, root+string(filepath.Separator)) {
			return "", fmt.Errorf("%w: %q resolves outside the capability folder", ErrOutsideFolder, rel)
		}
	}
	f, err := c.FS.Open(clean)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s has no file %q; call skill_read_source(%q) for the list", name, clean, name)
		}
		return "", fmt.Errorf("read %s/%s: %w", name, clean, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", fmt.Errorf("%s/%s is a folder; call skill_read_source(%q) for the file list", name, clean, name)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSourceBytes+1))
	if err != nil {
		return "", fmt.Errorf("read %s/%s: %w", name, clean, err)
	}
	if len(data) > maxSourceBytes {
		return string(data[:maxSourceBytes]) + fmt.Sprintf("\n[file truncated at %d bytes]", maxSourceBytes), nil
	}
	return string(data), nil
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
				res = d.r.refreshMatches(res)
			}
		}
		return Result{Content: FormatSearch(res, sess, func(n string) bool { return d.r.isLoaded(sess, n) }) + note}, nil
	case "tool_activate":
		c, err := d.r.Activate(sess, a.Capability)
		if err != nil {
			return Result{Content: err.Error() + " Use tool_search to find capabilities.", IsError: true}, nil
		}
		if note := d.r.startOnActivate(ctx, c); note != "" {
			return Result{Content: fmt.Sprintf("Loaded %s.%s", c.Name, note), IsError: true}, nil
		}
		if now, ok := d.r.Snapshot().Get(c.Name); ok {
			c = now // with the tools its server just listed
		}
		switch {
		case c.Kind == KindGuide:
			return Result{Content: fmt.Sprintf("%s is a guide (no tools): read it with skill_read_source(%q).", c.Name, c.Name)}, nil
		case c.AlwaysLoaded():
			return Result{Content: fmt.Sprintf("%s is always loaded; its tools are callable: %s.", c.Name, toolNames(c))}, nil
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
