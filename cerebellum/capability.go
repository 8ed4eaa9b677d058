package cerebellum

import (
	"context"
	"encoding/json"
	"io/fs"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Kind says how a capability acts.
type Kind string

const (
	// KindPlugin has tools served by code (an interpreted plugin or a native handler).
	KindPlugin Kind = "plugin"
	// KindGuide has no tools: instructions the model reads with skill_read_source.
	KindGuide Kind = "guide"
	// KindMCP gets its tools from an MCP server.
	KindMCP Kind = "mcp"
)

// State says whether a capability's tools can be used.
type State string

const (
	StateOK       State = "ok"
	StateDisabled State = "disabled"
	StateFailed   State = "failed"
)

// Badge says where a capability came from.
type Badge string

const (
	// BadgeOfficial ships with the app.
	BadgeOfficial Badge = "Official"
	// BadgeUnknown was installed or written by the user.
	BadgeUnknown Badge = "Unknown"
	// BadgeAuthored was written by the assistant itself.
	BadgeAuthored Badge = "Authored"
)

// Source says which tree a capability was read from.
type Source string

const (
	SourceBuiltin   Source = "builtin"
	SourceWorkspace Source = "workspace"
)

// Capability is one scanned capability folder: what it declares and how it
// stands. It is immutable once a snapshot is built.
type Capability struct {
	Name   string `json:"name"`
	Folder string `json:"folder"`
	// Dir is the folder on disk ("" for built-ins embedded in the binary).
	Dir    string `json:"dir,omitempty"`
	Source Source `json:"source"`
	Badge  Badge  `json:"badge"`
	Kind   Kind   `json:"kind"`
	State  State  `json:"state"`
	Error  string `json:"error,omitempty"`
	// Detail is the full error report with source snippets, for a code block.
	Detail string `json:"detail,omitempty"`
	// Core capabilities are always loaded (honoured only for built-ins).
	Core bool `json:"core,omitempty"`
	// Pinned capabilities are always loaded because config.json says so.
	Pinned bool `json:"pinned,omitempty"`
	// Hash is a content hash of the folder, used by Resync to find changes.
	Hash string `json:"hash"`
	// CodeHash covers SKILL.md and the plugin sources only: permissions are
	// granted to this exact code, and lapse when it changes.
	CodeHash string `json:"codeHash,omitempty"`
	// Manifest is the parsed SKILL.md (nil when it failed to parse).
	Manifest *skillmd.Manifest `json:"manifest,omitempty"`
	// Files lists the capability's bundled files relative to its folder, sorted.
	Files []string `json:"files,omitempty"`
	// Granted are the permissions the user granted (plugins from outside the app).
	Granted []string `json:"granted,omitempty"`
	// Unapproved says why an MCP capability is off although nobody
	// switched it off: what its mcp: block runs is not what the person
	// approved (see CapState.Launch). Enabling it approves it.
	Unapproved string `json:"unapproved,omitempty"`
	// NoNetwork is set when the person kept an MCP server off the network.
	NoNetwork bool `json:"noNetwork,omitempty"`
	// Approved is the ApprovalKey the person approved for an MCP
	// capability (CapState.Launch): the MCP client checks, at each start,
	// that the files it covers are still the ones approved.
	Approved string `json:"-"`
	// FS is the capability folder (embedded or on disk).
	FS fs.FS `json:"-"`
}

// Description is the manifest description, or "" when it failed to parse.
func (c *Capability) Description() string {
	if c.Manifest == nil {
		return ""
	}
	return c.Manifest.Description
}

// Tools are the declared tools (none for a failed capability).
func (c *Capability) Tools() []skillmd.Tool {
	if c.Manifest == nil || c.State == StateFailed {
		return nil
	}
	return c.Manifest.Tools
}

// AlwaysLoaded reports whether the capability's tools ride in every request.
func (c *Capability) AlwaysLoaded() bool { return c.Core || c.Pinned }

// Usable reports whether its tools may be called.
func (c *Capability) Usable() bool { return c.State == StateOK }

// Result is what a tool call returns to the model.
type Result struct {
	// Content is text or JSON text.
	Content string `json:"content"`
	// IsError marks a failure the model should read and react to.
	IsError bool `json:"isError,omitempty"`
	// Truncated says the content was cut to the size cap.
	Truncated bool `json:"truncated,omitempty"`
	// Images are pictures the tool returned (an MCP image content block),
	// checked and capped by CapResult; see Image.
	Images []Image `json:"images,omitempty"`
}

// Runtime serves the tools of one loaded capability: an interpreted plugin,
// a native handler or an MCP connection.
type Runtime interface {
	// Call runs one tool with arguments already validated against its schema.
	// A returned error is an infrastructure failure (panic, timeout, crash);
	// a tool-level failure is a Result with IsError.
	Call(ctx context.Context, tool string, args json.RawMessage) (Result, error)
	// Close releases the runtime (plugin cleanup, server shutdown).
	Close() error
}

// LoadRequest is everything a Loader needs to bring a capability to life.
type LoadRequest struct {
	Capability *Capability
	// Workspace is the workspace root folder.
	Workspace string
	// Trusted is true for capabilities that ship with the app.
	Trusted bool
	// Granted are the permissions the user granted.
	Granted []string
	// Settings are the capability's declared settings with the values in
	// force (the user's, else the defaults), keyed by setting key; the
	// plugin host hands them to the plugin as env.Settings.
	Settings map[string]string
	// Learn, set for MCP capabilities, is how the runtime tells the engine
	// what its server offers, after each listing (connect, list_changed):
	// the engine names, caches and publishes the tools.
	Learn func(Catalog)
}

// Loader makes Runtimes for one kind of capability. The plugin host, the MCP
// client and native Go handlers each implement it.
type Loader interface {
	Load(ctx context.Context, req LoadRequest) (Runtime, error)
}

// Checker is an optional Loader extension: check a capability (compile a
// plugin, check its permissions and tool set) without keeping an instance.
// Install uses it to validate before anything is written.
type Checker interface {
	Check(ctx context.Context, req LoadRequest) error
}

// SourceChecker is an optional Loader extension: check a plugin's source
// without running any of it. Validation uses it for a plugin whose declared
// permissions are not granted yet, so no untrusted code runs with authority
// the user has not given.
type SourceChecker interface {
	CheckSource(ctx context.Context, req LoadRequest) error
}

// RuntimeFunc adapts a function to a Runtime with nothing to close.
type RuntimeFunc func(ctx context.Context, tool string, args json.RawMessage) (Result, error)

func (f RuntimeFunc) Call(ctx context.Context, tool string, args json.RawMessage) (Result, error) {
	return f(ctx, tool, args)
}

func (f RuntimeFunc) Close() error { return nil }
