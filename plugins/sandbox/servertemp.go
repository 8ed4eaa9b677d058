package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
)

// mcpTempDir is the folder, in the user's state folder, of the stdio MCP
// servers' own temporary folders: ~/.local/state/wrasse/mcp-tmp (or
// $XDG_STATE_HOME/wrasse/mcp-tmp). Not the shared temporary folder, which
// every shell command may write: a command would plant code where a
// server runs it (a Python server's working folder is first on its
// sys.path) and read what the server leaves there. No sandbox but the
// server's own reaches it (mcpCaches). "" when there is no home folder.
func mcpTempDir(home string) string {
	if base := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(base) {
		return filepath.Join(base, "wrasse", "mcp-tmp")
	}
	if home == "" || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".local", "state", "wrasse", "mcp-tmp")
}

// ServerTemp makes the own temporary folder of the stdio MCP server name
// (mode 0700, in mcpTempDir), which its sandbox (ForMCP's Temp) alone may
// read and write; the caller removes it when the server stops.
func ServerTemp(name string) (string, error) {
	home, _ := os.UserHomeDir()
	root := mcpTempDir(home)
	if root == "" {
		return "", fmt.Errorf("MCP server %s's temporary folder: %w for it: set HOME (or XDG_STATE_HOME)", name, ErrNoPrivateFolder)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", fmt.Errorf("MCP server %s's temporary folder: %w", name, err)
	}
	dir, err := os.MkdirTemp(root, name+"-")
	if err != nil {
		return "", fmt.Errorf("MCP server %s's temporary folder: %w", name, err)
	}
	return dir, nil
}
