// Package skillmd parses and validates SKILL.md files: YAML frontmatter
// (split with github.com/adrg/frontmatter, decoded with goccy/go-yaml so
// every problem keeps its line and column) and a Markdown body.
//
// Parse reports every error-level problem of a file at once in an *Error;
// warnings (unknown keys, a name that differs from its folder, over-long
// text) ride on the Manifest. The format is documented in
// docs/capabilities.md.
package skillmd
