package mcpbundle

import "errors"

// Sentinel errors. Every refusal wraps one of them, and names the field or
// the archive entry at fault.
var (
	// ErrNotBundle: the file is not a zip archive (a .mcpb/.dxt is one).
	ErrNotBundle = errors.New("not an MCP bundle")
	// ErrManifest: manifest.json is missing, not JSON, or breaks the spec.
	ErrManifest = errors.New("the bundle's manifest.json is not valid")
	// ErrUnsupported: a valid manifest this build cannot run (a uv server,
	// another platform, a secret on the command line).
	ErrUnsupported = errors.New("the bundle cannot be installed here")
	// ErrUnsafeEntry: an archive entry would escape the folder, is a link
	// or a device, or collides with another entry.
	ErrUnsafeEntry = errors.New("the bundle holds an unsafe entry")
	// ErrTooLarge: the archive is over a limit (files, bytes, ratio).
	ErrTooLarge = errors.New("the bundle is too large")
	// ErrAnswer: a user_config answer is missing or of the wrong type.
	ErrAnswer = errors.New("a setting of the bundle is missing or invalid")
)
