package skillmd

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
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
	// AllowedTools are tools the skill uses: reading the skill loads the
	// capabilities serving them. Wrasse does not pre-approve by it.
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
	// Remote is the name the MCP server knows the tool by, for a tool the
	// engine learnt from a server (Name is then <capability>__<tool>,
	// shortened); "" for declared tools.
	Remote string `json:"remote,omitempty"`
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
// this capability's tools. Exactly one of Command (a local server over
// stdio) or URL (a remote one over streamable HTTP) is set.
//
// Values in Args, Env and Headers may reference stored secrets as
// ${secret:NAME}; the host resolves them when the server starts, so they
// are never written to the folder, the log or the prompt.
type MCPServer struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Cwd is the server's working folder (default: the capability folder
	// when it is on disk, else the workspace).
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// OAuth configures sign-in to a url server (nil: dynamic client
	// registration when the server asks for sign-in).
	OAuth *MCPOAuth `json:"oauth,omitempty"`
	// Secrets names secrets passed to the server as environment variables
	// (variable → secret name), resolved by the host at start; the older
	// spelling of Env values ${secret:NAME}.
	Secrets map[string]string `json:"secrets,omitempty"`
	// ConnectTimeout bounds starting and initialising the server, CallTimeout
	// one tool call, Idle how long an unused server keeps running (0: the
	// host's defaults).
	ConnectTimeout time.Duration `json:"connectTimeout,omitempty"`
	CallTimeout    time.Duration `json:"callTimeout,omitempty"`
	Idle           time.Duration `json:"idle,omitempty"`
}

// MCPOAuth is the `oauth:` part of a url server's mcp: block: a client
// registered with the server's authorization server beforehand, or the
// address of the client's metadata document (a URL client ID).
type MCPOAuth struct {
	ClientID string `json:"clientId,omitempty"`
	// ClientSecret is a ${secret:NAME} reference, never the value.
	ClientSecret      string `json:"clientSecret,omitempty"`
	ClientMetadataURL string `json:"clientMetadataUrl,omitempty"`
}

// SecretRefs lists the secret names the block references (${secret:NAME}
// in args, env and headers, and the secrets map), sorted, without repeats.
func (s *MCPServer) SecretRefs() []string {
	seen := map[string]bool{}
	add := func(v string) {
		for _, n := range SecretNames(v) {
			seen[n] = true
		}
	}
	for _, a := range s.Args {
		add(a)
	}
	for _, v := range s.Env {
		add(v)
	}
	for _, v := range s.Headers {
		add(v)
	}
	add(s.URL)
	if s.OAuth != nil {
		add(s.OAuth.ClientSecret)
	}
	for _, n := range s.Secrets {
		seen[n] = true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// SecretPlace is a field of an mcp: block where a ${secret:…} may not go,
// and why.
type SecretPlace struct {
	Field   string
	Message string
}

// SecretPlaceProblems lists the fields of s that reference a secret where
// none may go. Values reach a server only through its environment (env,
// secrets) or its headers: a process's command line (command, args) is
// readable by every process on the computer from /proc/PID/cmdline, its
// working folder is no place for one, and the URL's origin (scheme, host,
// port) must be written out, because the headers are bound to it.
func (s *MCPServer) SecretPlaceProblems() []SecretPlace {
	var out []SecretPlace
	cmdline := func(field, v string) {
		if HasSecretRef(v) {
			out = append(out, SecretPlace{field, "a ${secret:…} cannot go in the command line: every process on the computer can read a process's arguments (/proc/PID/cmdline); " +
				"put it in env instead (env: {TOKEN: '${secret:NAME}'}) and have the server read it from there, or in headers for a server reached by URL"})
		}
	}
	cmdline("mcp.command", s.Command)
	for i, a := range s.Args {
		cmdline(fmt.Sprintf("mcp.args[%d]", i), a)
	}
	if HasSecretRef(s.Cwd) {
		out = append(out, SecretPlace{"mcp.cwd", "a ${secret:…} cannot name the working folder; secrets go in env"})
	}
	if s.URL != "" {
		rest := s.URL[strings.Index(s.URL, "://")+1:]
		rest = strings.TrimPrefix(rest, "//")
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		if HasSecretRef(rest) {
			out = append(out, SecretPlace{"mcp.url", "a ${secret:…} cannot go in the URL's host: the headers are sent only to the origin written in mcp.url, so write it out; " +
				"a secret may go in the path or query, or better in headers (headers: {Authorization: 'Bearer ${secret:NAME}'})"})
		}
	}
	return out
}

// HasSecretRef reports whether v holds "${secret:", well formed or not.
func HasSecretRef(v string) bool { return strings.Contains(v, "${secret:") }

// secretRef matches ${secret:NAME}.
var secretRef = regexp.MustCompile(`\$\{secret:([A-Za-z_][A-Za-z0-9_.-]*)\}`)

// SecretNames lists the secrets referenced in v as ${secret:NAME}.
func SecretNames(v string) []string {
	var out []string
	for _, m := range secretRef.FindAllStringSubmatch(v, -1) {
		out = append(out, m[1])
	}
	return out
}

// ExpandSecrets replaces every ${secret:NAME} in v with lookup(NAME).
func ExpandSecrets(v string, lookup func(name string) (string, error)) (string, error) {
	var firstErr error
	out := secretRef.ReplaceAllStringFunc(v, func(m string) string {
		name := secretRef.FindStringSubmatch(m)[1]
		val, err := lookup(name)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return val
	})
	return out, firstErr
}

// HasTools reports whether the manifest declares tools or an MCP server.
func (m *Manifest) HasTools() bool { return len(m.Tools) > 0 }

// GobEncode stores the pattern's text and reason; the compiled forms are
// made again by GobDecode (the manifest cache stores manifests with gob).
func (p Pattern) GobEncode() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(p.Pattern)))
	b = append(b, p.Pattern...)
	return append(b, p.Reason...), nil
}

// GobDecode reads what GobEncode wrote and compiles the pattern.
func (p *Pattern) GobDecode(data []byte) error {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k) {
		return ErrCorruptPattern
	}
	pat := string(data[k : k+int(n)])
	re, err := regexp.Compile("(?i)" + pat)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCorruptPattern, err)
	}
	*p = Pattern{Pattern: pat, Reason: string(data[k+int(n):]), Re: re, DotAll: regexp.MustCompile("(?is)" + pat)}
	return nil
}
