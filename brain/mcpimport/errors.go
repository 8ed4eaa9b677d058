package mcpimport

import "errors"

// Sentinel errors of the package; a whole file is refused only for these.
var (
	// ErrTooLarge: the file is over MaxFileSize.
	ErrTooLarge = errors.New("the configuration file is too large")
	// ErrTooDeep: the JSON nests deeper than MaxDepth.
	ErrTooDeep = errors.New("the configuration file nests too deeply")
	// ErrSyntax: the file is not JSON (comments and trailing commas are
	// accepted, as VS Code writes them).
	ErrSyntax = errors.New("the configuration file is not valid JSON")
	// ErrNoServers: the file has neither `mcpServers` nor `servers`.
	ErrNoServers = errors.New("the file has no MCP servers: expected an \"mcpServers\" object (Claude Desktop, Cursor) or a \"servers\" object (VS Code)")
	// ErrTooManyServers: more servers than MaxServers.
	ErrTooManyServers = errors.New("the configuration file lists too many servers")
)
