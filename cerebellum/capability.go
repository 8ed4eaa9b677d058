package cerebellum

import (
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
