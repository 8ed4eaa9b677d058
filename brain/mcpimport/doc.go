// Package mcpimport reads the MCP server configurations other apps write,
// so `wrasse mcp import` and the MCP servers page can bring them in:
// Claude Desktop's claude_desktop_config.json and Cursor's mcp.json (both
// an `mcpServers` object of `command`/`args`/`env` or `url`/`headers`),
// and VS Code's .vscode/mcp.json (a `servers` object with `type: stdio` or
// `http`, `envFile`, and `inputs` whose `${input:ID}` prompts the user
// answers once).
//
// Parse is pure: it reads bytes (and, through Options.ReadFile, the env
// files a VS Code server names) and returns each server taken, with a
// valid capability name chosen deterministically, or skipped with the
// reason why. Variables are resolved where they can be (`${userHome}`,
// `${workspaceFolder}`); `${env:VAR}` and `${input:ID}` become
// `${secret:NAME}` references to secrets the user is asked to set, so no
// value from the user's environment is copied anywhere. The files are
// untrusted input: size, nesting and the number of servers are bounded
// and every wrong type skips its server with a reason instead of failing
// the whole import.
package mcpimport
