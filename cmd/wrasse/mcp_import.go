package main

import (
	"context"
	"fmt"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// importReport is what `mcp import` prints, or writes as JSON: the same
// report the MCP servers page shows.
type importReport = assistant.ImportReport

func mcpImport(ctx context.Context, app *assistant.App, c *call, dry bool) error {
	rep, err := app.ImportMCPFile(ctx, c.path(c.args[0]), dry)
	if err != nil {
		return fmt.Errorf("import %s: %w", c.args[0], err)
	}
	rep.File = c.args[0]
	if c.g.json {
		return writeJSON(c.io.out, rep)
	}
	rep.Write(c.io.out)
	return nil
}
