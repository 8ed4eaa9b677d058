package cerebellum

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/cerebellum/schema"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// An MCP capability's tools are not in its SKILL.md: its runtime learns
// them from the server (tools/list) and reports them through
// LoadRequest.Learn. The engine names them <capability>__<tool> (Names),
// keeps the list in a CatalogStore (the workspace database) so the index
// and tool_search know them without the server running, and publishes a
// snapshot in which they are the capability's tools.

// MaxToolName is the longest tool name model APIs accept.
const MaxToolName = 64

// RemoteTool is one tool a server reported, as the server describes it.
type RemoteTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// The MCP tool annotations; DestructiveHint and OpenWorldHint default
	// to true when absent, as the protocol says.
	ReadOnlyHint    bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}

// Destructive is DestructiveHint with the protocol's default: a tool that
// is not read-only may destroy unless it says it does not.
func (t RemoteTool) Destructive() bool {
	if t.ReadOnlyHint {
		return false
	}
	return t.DestructiveHint == nil || *t.DestructiveHint
}

// RemoteItem is one prompt or resource a server offers, for its page.
type RemoteItem struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// URI and MIMEType are set for resources.
	URI      string `json:"uri,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`
}

// Catalog is what a server offers, as last listed.
type Catalog struct {
	// Key identifies the server configuration the list came from
	// (ServerKey); a list learnt from another command or URL is not used.
	Key       string       `json:"key"`
	Tools     []RemoteTool `json:"tools"`
	Prompts   []RemoteItem `json:"prompts,omitempty"`
	Resources []RemoteItem `json:"resources,omitempty"`
	// Updated is when the list was learnt.
	Updated time.Time `json:"updated"`
}

// CatalogStore persists what each MCP capability's server offers. The
// workspace database implements it; MemoryCatalogs is the in-memory one.
type CatalogStore interface {
	// RemoteCatalog returns the stored catalog of one capability.
	RemoteCatalog(name string) (Catalog, bool, error)
	// SetRemoteCatalog stores it.
	SetRemoteCatalog(name string, c Catalog) error
	// DeleteRemoteCatalog forgets it; forgetting a missing one is not an error.
	DeleteRemoteCatalog(name string) error
}

// MemoryCatalogs is an in-memory CatalogStore, safe for concurrent use.
type MemoryCatalogs struct {
	mu sync.Mutex
	m  map[string]Catalog
}

func (s *MemoryCatalogs) RemoteCatalog(name string) (Catalog, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.m[name]
	return c, ok, nil
}

func (s *MemoryCatalogs) SetRemoteCatalog(name string, c Catalog) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]Catalog{}
	}
	s.m[name] = c
	return nil
}

func (s *MemoryCatalogs) DeleteRemoteCatalog(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, name)
	return nil
}

// ServerKey identifies an mcp: block's server: its command, arguments,
// folder and URL. A changed key means another server.
func ServerKey(s *skillmd.MCPServer) string {
	if s == nil {
		return ""
	}
	h := sha256.New()
	for _, p := range append([]string{s.Command, s.URL, s.Cwd}, s.Args...) {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// LaunchKey identifies what an mcp: block runs, for the person's approval
// (CapState.Launch): its command, arguments, folder, every environment
// variable with its value as written (NODE_OPTIONS changes what node runs;
// secrets stay references), or its URL and headers. Any change to these
// is a command the person has not approved.
func LaunchKey(s *skillmd.MCPServer) string {
	if s == nil {
		return ""
	}
	h := sha256.New()
	field := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s", len(p), p)
		}
		h.Write([]byte{0})
	}
	field(s.Command)
	field(s.Args...)
	field(s.Cwd)
	field(s.URL)
	for _, m := range []map[string]string{s.Env, s.Secrets, s.Headers} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			field(k, m[k])
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// approvalNote says why an MCP capability is off until the person enables
// it ("" when its block is the one approved): approved is CapState.Launch.
func approvalNote(c *Capability, approved string) string {
	if c.Kind != KindMCP || c.Source != SourceWorkspace || c.Manifest == nil || c.Manifest.MCP == nil {
		return ""
	}
	if launch, _, _ := SplitApproval(approved); launch == LaunchKey(c.Manifest.MCP) {
		return ""
	}
	if approved == "" {
		return "what it runs was never approved: it was written into the capability folder by hand or by a program, not added in Wrasse; enabling it shows the command and approves it"
	}
	return "what it runs changed since it was approved (its mcp: block was edited); enabling it shows the new command and approves it"
}

// Launch says exactly what enabling an MCP capability runs, for the user
// to approve: the command line with its environment and folder, or the
// URL with the headers it sends. Secret references stay as written
// (${secret:NAME}); their values are never shown. "" for other kinds.
func (c *Capability) Launch() string {
	if c.Manifest == nil || c.Manifest.MCP == nil {
		return ""
	}
	return LaunchLine(c.Manifest.MCP)
}

// LaunchLine renders an mcp: block as Capability.Launch does. What a
// terminal or a text view would not show as written (control characters
// such as ESC and CR, which rewrite the line shown; bidirectional and
// other invisible formatting characters, which reorder or hide text;
// invalid UTF-8) is escaped, in the shell's $'…' quoting for a command
// line, so the person approves exactly what runs.
func LaunchLine(s *skillmd.MCPServer) string {
	if s.URL != "" {
		line := escapeShown(s.URL)
		for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
			line += fmt.Sprintf(" (header %s: %s)", escapeShown(k), escapeShown(s.Headers[k]))
		}
		if o := s.OAuth; o != nil && o.ClientID != "" {
			line += " (OAuth client " + escapeShown(o.ClientID) + ")"
		} else if o != nil && o.ClientMetadataURL != "" {
			line += " (OAuth client " + escapeShown(o.ClientMetadataURL) + ")"
		}
		return line
	}
	var parts []string
	if s.Cwd != "" {
		parts = append(parts, "cd "+shellQuote(s.Cwd)+" &&")
	}
	env := maps.Clone(s.Env)
	if env == nil {
		env = map[string]string{}
	}
	for k, v := range s.Secrets {
		env[k] = "${secret:" + v + "}"
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		parts = append(parts, shellQuote(k)+"="+shellQuote(env[k]))
	}
	parts = append(parts, shellQuote(s.Command))
	for _, a := range s.Args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it; a string with
// characters that would not show as written gets the $'…' quoting of
// bash and zsh, with those characters escaped.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) < 0 {
		return s
	}
	if hidden(s) {
		return "$'" + escapeRunes(s, `\'`) + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hidden reports whether s holds something escapeShown escapes.
func hidden(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	return strings.IndexFunc(s, unshown) >= 0
}

// unshown reports whether r would not show as itself: a control
// character, a bidirectional or other formatting character (unicode.Cf:
// U+202E, U+2066…, zero-width ones), a separator other than the space.
func unshown(r rune) bool {
	return r != ' ' && !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r)
}

// escapeShown escapes what would not show as itself in s (text that is
// not a command line: a URL, a header), as \xHH, \uHHHH or \UHHHHHHHH;
// a backslash becomes \\ only when s needs escaping at all.
func escapeShown(s string) string {
	if !hidden(s) {
		return s
	}
	return escapeRunes(s, `\`)
}

// escapeRunes writes s with the characters of special (and what would
// not show) escaped with a backslash, as $'…' reads them.
func escapeRunes(s, special string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case strings.ContainsRune(special, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0x1b:
			b.WriteString(`\e`)
		case r < 0x80 && unshown(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff && unshown(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		case unshown(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// Names maps a server's tool names to the names the model sees:
// <capability>__<tool> with characters model APIs refuse replaced by '_',
// cut to MaxToolName characters. A name that had to be cut or changed, or
// that would collide with another, ends in a hash of the server's name, so
// the mapping is deterministic (the same list gives the same names in any
// order) and without collisions.
func Names(capability string, remote []string) map[string]string {
	sorted := slices.Clone(remote)
	sort.Strings(sorted)
	sorted = slices.Compact(sorted)
	out := make(map[string]string, len(sorted))
	taken := map[string]bool{}
	// First the names that fit as they are, so a cut name never takes the
	// plain spelling another tool has.
	plain := map[string]string{}
	for _, n := range sorted {
		p := sanitizeToolName(capability + "__" + n)
		if p == capability+"__"+n && len(p) <= MaxToolName && !taken[p] {
			plain[n] = p
			taken[p] = true
		}
	}
	for _, n := range sorted {
		if p, ok := plain[n]; ok {
			out[n] = p
			continue
		}
		full := sanitizeToolName(capability + "__" + n)
		sum := sha256.Sum256([]byte(capability + "\x00" + n))
		hx := hex.EncodeToString(sum[:])
		for l := 8; ; l += 4 {
			suffix := "_" + hx[:l]
			p := full
			if len(p)+len(suffix) > MaxToolName {
				p = p[:MaxToolName-len(suffix)]
			}
			p += suffix
			if !taken[p] || l >= len(hx) {
				out[n] = p
				taken[p] = true
				break
			}
		}
	}
	return out
}

// sanitizeToolName keeps what model APIs accept in a tool name.
func sanitizeToolName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// learnedTools turns a catalog into the tools of capability name.
func learnedTools(name string, cat Catalog) []skillmd.Tool {
	remote := make([]string, len(cat.Tools))
	for i, t := range cat.Tools {
		remote[i] = t.Name
	}
	names := Names(name, remote)
	out := make([]skillmd.Tool, 0, len(cat.Tools))
	seen := map[string]bool{}
	for _, t := range cat.Tools {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		desc := t.Description
		if t.Title != "" && !strings.Contains(desc, t.Title) {
			desc = strings.TrimSpace(t.Title + ". " + desc)
		}
		params := t.InputSchema
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, skillmd.Tool{Name: names[t.Name], Remote: t.Name, Description: desc, Parameters: params,
			Annotations: skillmd.Annotations{ReadOnly: t.ReadOnlyHint, Destructive: t.Destructive(), Idempotent: t.IdempotentHint}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// usableSchema is the input schema as the engine can check it: a schema
// that does not compile (a remote $ref, say) is replaced by a plain object
// schema, since the server checks its own arguments anyway.
func usableSchema(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	if _, err := schema.Compile(raw); err != nil {
		return json.RawMessage(`{"type":"object"}`), err
	}
	return raw, nil
}

// Learn records what the server of capability name offers (a loader calls
// it through LoadRequest.Learn after each listing): the catalog is stored
// and, when its tools changed, a snapshot with the new tools is published
// (Change reason "tools").
func (r *Registry) Learn(name string, cat Catalog) error {
	c, err := r.Get(name)
	if err != nil {
		return err
	}
	if c.Kind != KindMCP || c.Manifest == nil {
		return fmt.Errorf("%w: %s is not an MCP capability", ErrNoRuntime, name)
	}
	cat.Key = ServerKey(c.Manifest.MCP)
	cat.Tools = slices.Clone(cat.Tools)
	for i := range cat.Tools {
		s, serr := usableSchema(cat.Tools[i].InputSchema)
		if serr != nil {
			r.log.Warn("an MCP tool's input schema does not compile; its arguments are checked by the server only",
				"capability", name, "tool", cat.Tools[i].Name, "error", serr)
		}
		cat.Tools[i].InputSchema = s
	}
	if cat.Updated.IsZero() {
		cat.Updated = r.now()
	}
	r.mu.Lock()
	prev, had := r.catalogs[name]
	r.catalogs[name] = cat
	changed := !had || !sameCatalog(prev, cat)
	var snap *Snapshot
	var aerr error
	if changed {
		snap, aerr = r.assembleLocked()
	}
	r.mu.Unlock()
	if err := r.catalogStore().SetRemoteCatalog(name, cat); err != nil {
		r.log.Warn("saving an MCP server's tool list", "capability", name, "error", err)
	}
	if aerr != nil {
		return aerr
	}
	if snap != nil {
		r.notify(Change{Generation: snap.Generation, Reason: "tools", Names: []string{name}})
	}
	return nil
}

func sameCatalog(a, b Catalog) bool {
	a.Updated, b.Updated = time.Time{}, time.Time{}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// Catalog returns what capability name's server offered when last listed,
// without starting it. ok is false when it was never listed (or listed
// for another command or URL).
func (r *Registry) Catalog(name string) (Catalog, bool, error) {
	c, err := r.Get(name)
	if err != nil {
		return Catalog{}, false, err
	}
	if c.Kind != KindMCP || c.Manifest == nil {
		return Catalog{}, false, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	cat, ok := r.catalogLocked(name)
	if !ok || cat.Key != ServerKey(c.Manifest.MCP) {
		return Catalog{}, false, nil
	}
	return cat, true, nil
}

// catalogLocked reads a catalog through the memory copy; r.mu is held.
func (r *Registry) catalogLocked(name string) (Catalog, bool) {
	if cat, ok := r.catalogs[name]; ok {
		return cat, true
	}
	cat, ok, err := r.catalogStore().RemoteCatalog(name)
	if err != nil {
		r.log.Warn("reading an MCP server's stored tool list", "capability", name, "error", err)
		return Catalog{}, false
	}
	if ok {
		r.catalogs[name] = cat
	}
	return cat, ok
}

func (r *Registry) catalogStore() CatalogStore { return r.opts.Catalogs }

// learnedLocked returns the learnt tools and per-tool policies of every
// MCP capability in scanned, for assemble; r.mu is held.
func (r *Registry) learnedLocked(scanned []*Capability) (map[string][]skillmd.Tool, map[string]ToolPolicy) {
	tools := map[string][]skillmd.Tool{}
	policies := map[string]ToolPolicy{}
	for _, c := range scanned {
		if c.Kind != KindMCP || c.Manifest == nil || c.Manifest.MCP == nil {
			continue
		}
		cat, ok := r.catalogLocked(c.Name)
		if !ok || cat.Key != ServerKey(c.Manifest.MCP) {
			continue
		}
		lt := learnedTools(c.Name, cat)
		tools[c.Name] = lt
		stored, err := r.opts.Settings.CapSettings(c.Name)
		if err != nil {
			r.log.Warn("reading MCP tool policies", "capability", c.Name, "error", err)
			continue
		}
		for _, t := range lt {
			if p := ToolPolicy(stored[PolicyKey(t.Remote)]); p == PolicyAlways || p == PolicyNever {
				policies[t.Name] = p
			}
		}
	}
	return tools, policies
}

// ToolPolicy is the user's rule for one tool of an MCP server.
type ToolPolicy string

const (
	// PolicyAsk is the default: a read-only tool runs, any other asks the
	// first time in a conversation.
	PolicyAsk ToolPolicy = "ask"
	// PolicyAlways runs the tool without asking.
	PolicyAlways ToolPolicy = "always"
	// PolicyNever refuses every call of the tool.
	PolicyNever ToolPolicy = "never"
)

// ParseToolPolicy reads "ask", "always" or "never".
func ParseToolPolicy(s string) (ToolPolicy, error) {
	switch p := ToolPolicy(strings.ToLower(strings.TrimSpace(s))); p {
	case PolicyAsk, PolicyAlways, PolicyNever:
		return p, nil
	case "":
		return PolicyAsk, nil
	}
	return "", fmt.Errorf("%w: tool policy %q: use ask, always or never", ErrInvalidSetting, s)
}

// PolicyKey is the settings key under which the policy of a server's tool
// is kept with its capability's settings.
func PolicyKey(remote string) string {
	const prefix = "tool."
	ok := len(prefix)+len(remote) <= 64 && remote != ""
	for i := 0; ok && i < len(remote); i++ {
		c := remote[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
	}
	if ok {
		return prefix + remote
	}
	sum := sha256.Sum256([]byte(remote))
	return prefix + hex.EncodeToString(sum[:12])
}

// ToolPolicy is the user's rule for a tool (PolicyAsk when none).
func (s *Snapshot) ToolPolicy(tool string) ToolPolicy {
	if p, ok := s.policies[tool]; ok {
		return p
	}
	return PolicyAsk
}

// TrackLoaded tells the registry that conversation id's loaded set
// changed outside a session (a capability unloaded from the window, a
// conversation deleted: nil), so MCP servers it alone kept are stopped now
// rather than when they go idle.
func (r *Registry) TrackLoaded(id string, loaded []string) {
	// loaded is the saved set: what vanished from it and is not in it
	// any more need not be remembered.
	r.sessMu.Lock()
	for n := range r.vanished[id] {
		if !slices.Contains(loaded, n) {
			delete(r.vanished[id], n)
		}
	}
	if len(r.vanished[id]) == 0 {
		delete(r.vanished, id)
	}
	r.sessMu.Unlock()
	r.trackLoaded(id, loaded)
}

// trackLoaded records conversation id's loaded set and stops the runtime
// of every MCP capability no conversation has loaded any more: a server
// runs while some conversation may call it.
func (r *Registry) trackLoaded(id string, loaded []string) {
	if id == "" {
		return
	}
	r.sessMu.Lock()
	prev := r.loadedBy[id]
	if len(loaded) == 0 {
		delete(r.loadedBy, id)
	} else {
		r.loadedBy[id] = slices.Clone(loaded)
	}
	var gone []string
	for _, n := range prev {
		if slices.Contains(loaded, n) {
			continue
		}
		still := false
		for _, other := range r.loadedBy {
			if slices.Contains(other, n) {
				still = true
				break
			}
		}
		if !still {
			gone = append(gone, n)
		}
	}
	r.sessMu.Unlock()
	snap := r.Snapshot()
	for _, n := range gone {
		if c, ok := snap.byName[n]; ok && c.Kind == KindMCP && !c.AlwaysLoaded() {
			r.log.Info("stopping an MCP server no conversation has loaded", "capability", n)
			r.dropRuntime(n)
		}
	}
}

// startOnActivate starts an MCP capability's server when a conversation
// activates it, so its tools are listed for the next request. A failure is
// told to the model with the activation, not as a failed activation: the
// next call tries again.
func (r *Registry) startOnActivate(ctx context.Context, c *Capability) string {
	if c == nil || c.Kind != KindMCP {
		return ""
	}
	if err := r.Start(ctx, c.Name); err != nil {
		return fmt.Sprintf(" Its MCP server did not start: %v", err)
	}
	return ""
}

// refreshMatches re-reads the matched capabilities from the current
// snapshot: starting an MCP server may have listed its tools since.
func (r *Registry) refreshMatches(res SearchResult) SearchResult {
	snap := r.Snapshot()
	for i, m := range res.Matches {
		if c, ok := snap.byName[m.Capability.Name]; ok {
			res.Matches[i].Capability = c
		}
	}
	return res
}
