// Package skillmd parses and validates SKILL.md files: YAML frontmatter
// (split with github.com/adrg/frontmatter, decoded into a
// go.yaml.in/yaml/v3 node tree so every problem keeps its line and column;
// a syntax error is re-read with goccy/go-yaml, whose messages carry the
// column too) and a Markdown body.
//
// Parse reports every error-level problem of a file at once in an *Error;
// warnings (unknown keys, a name that differs from its folder, over-long
// text) ride on the Manifest. MCPServer, the `mcp:` block, is also the one
// description of how to reach an MCP server that the assistant's AddMCP
// and the import of other apps' server lists (brain/mcpimport) use. The
// format is documented in docs/capabilities.md.
package skillmd
