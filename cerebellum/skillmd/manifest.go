package skillmd

import (
	"encoding/json"
	"regexp"
	"sort"
	"time"
)

// Manifest is a parsed and validated SKILL.md.
type Manifest struct {
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	Version       string            `json:"version,omitempty"`
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	// AllowedTools is kept and shown; Wrasse does not pre-approve by it.
	AllowedTools []string `json:"allowedTools,omitempty"`
	Triggers     []string `json:"triggers,omitempty"`
	Keywords     []string `json:"keywords,omitempty"`
	Tags         []string `json:"tags,omitempty"`
	// Core is what the file asks for; the registry honours it only for
	// capabilities that ship with the app.
	Core            bool        `json:"core,omitempty"`
	Requires        []string    `json:"requires,omitempty"`
	Tools           []Tool      `json:"tools,omitempty"`
	DangerPatterns  []Pattern   `json:"dangerPatterns,omitempty"`
	ConfirmPatterns []Pattern   `json:"confirmPatterns,omitempty"`
	Permissions     Permissions `json:"permissions,omitzero"`
	MCP             *MCPServer  `json:"mcp,omitempty"`
	// Settings the user can change, sorted by key (settings.go).
	Settings []Setting `json:"settings,omitempty"`
	// Body is the Markdown after the frontmatter, trimmed.
	Body string `json:"-"`
	// Headings are the Markdown headings of the body, in order (search terms for guides).
	Headings []string `json:"headings,omitempty"`
	// Warnings are problems that do not stop the capability from loading
	// (unknown keys, a name that differs from its folder, over-long text).
	Warnings []Problem `json:"warnings,omitempty"`
}

// Tool is one tool a capability declares.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Parameters is the JSON Schema (an object schema) of the arguments, as JSON.
	Parameters json.RawMessage `json:"parameters"`
	// OutputSchema, when set, is the JSON Schema results are checked against.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  Annotations     `json:"annotations,omitzero"`
	// Timeout overrides the host's default call deadline (0: default).
	Timeout time.Duration `json:"timeout,omitempty"`
}

// Annotations are hints about a tool's effects.
type Annotations struct {
	ReadOnly    bool `json:"readOnly,omitempty"`
	Destructive bool `json:"destructive,omitempty"`
	Idempotent  bool `json:"idempotent,omitempty"`
}

// Pattern is one danger or confirm pattern: a regular expression matched
// against `tool + " " + canonical JSON arguments`, and why it matters.
type Pattern struct {
	Pattern string `json:"pattern"`
	Reason  string `json:"reason,omitempty"`
	// Re is the compiled, case-insensitive form.
	Re *regexp.Regexp `json:"-"`
	// DotAll is Re with `.` also matching line breaks, compiled with it,
	// for text that spans lines.
	DotAll *regexp.Regexp `json:"-"`
}

// Permission names a plugin may declare.
const (
	PermExec    = "exec"
	PermNetwork = "network"
	PermFiles   = "files"
	PermEnv     = "env"
)

// KnownPermissions lists the permission names in display order.
var KnownPermissions = []string{PermExec, PermNetwork, PermFiles, PermEnv}

// Permissions is what a plugin declares it needs. Each entry may carry a
// scope (hosts for network, folders for files, variable names for env); an
// empty scope means the plugin asks for the permission without narrowing it.
type Permissions map[string][]string

// Names lists the declared permission names, sorted.
func (p Permissions) Names() []string {
	out := make([]string, 0, len(p))
	for k := range p {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Has reports whether the permission is declared.
func (p Permissions) Has(name string) bool { _, ok := p[name]; return ok }

// MCPServer is the `mcp:` block: how to reach the MCP server that provides
// this capability's tools. Exactly one of Command or URL is set.
type MCPServer struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	// Secrets names secrets passed to the server as environment variables
	// (variable → secret name), resolved by the host at start.
	Secrets map[string]string `json:"secrets,omitempty"`
}

// HasTools reports whether the manifest declares tools or an MCP server.
func (m *Manifest) HasTools() bool { return len(m.Tools) > 0 }
