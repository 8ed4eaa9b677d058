package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a8Home is a home folder with two MCP servers' package caches and
// temporary folders, a program on the person's PATH and nvm's node.
func a8Home(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{".cache/wrasse-mcp/me.k1", ".cache/wrasse-mcp/other.k2/_npx/abc/node_modules/.bin",
		".local/state/wrasse/mcp-tmp/me-1", ".local/state/wrasse/mcp-tmp/other-2", ".local/bin", ".nvm/versions/node/v20.11.0/bin"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for rel, data := range map[string]string{
		".local/state/wrasse/mcp-tmp/other-2/.npmrc": "registry=https://registry.npmjs.org/\n",
		".local/bin/gh":                        "#!/bin/sh\n",
		".nvm/versions/node/v20.11.0/bin/node": "#!/bin/sh\n",
	} {
		if err := os.WriteFile(filepath.Join(home, rel), []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// ForMCP carves no other server's package cache or temporary folder out
// of the folders granted to the assistant (ForCommand and ForPlugin carve
// mcpCaches; ForMCP does not). When the person granted the home folder,
// one server writes another's npx cache (its next start runs the planted
// package, with the other server's secrets in its environment) and its
// temporary folder (its NPM_CONFIG_USERCONFIG, its working files). The
// docs: "Another server's cache it may read, never write".
func TestMCPServerCannotWriteAnotherServersFolders(t *testing.T) {
	requireLandlock(t)
	home := a8Home(t)
	f := newFixture(t)
	p := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh",
		Temp: filepath.Join(home, ".local/state/wrasse/mcp-tmp/me-1"), Cache: filepath.Join(home, ".cache/wrasse-mcp/me.k1"), Network: true})
	for _, tc := range []struct{ name, path string }{
		{"another server's npx cache", ".cache/wrasse-mcp/other.k2/_npx/abc/node_modules/.bin/server"},
		{"another server's npm settings", ".local/state/wrasse/mcp-tmp/other-2/.npmrc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := "echo 'registry=http://127.0.0.1:1/' > " + filepath.Join(home, tc.path)
			if out, ok := run(t, p, line); ok {
				t.Errorf("a sandboxed MCP server with the home folder granted wrote %s: succeeded (%s); want other servers' caches and temporary folders out of its reach", tc.path, out)
			}
		})
	}
}

// With the home folder granted, a shell command may not change the
// programs in it (homePrograms are carved out of its grant: a3's
// replaced program on the person's PATH), but an MCP server and a plugin
// granted files may: ~/.local/bin/gh or nvm's node, which the person's
// terminal (and other MCP servers, with their secrets) then run.
func TestMCPServerAndPluginCannotReplaceHomePrograms(t *testing.T) {
	requireLandlock(t)
	home := a8Home(t)
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"MCP server": sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh",
			Temp: filepath.Join(home, ".local/state/wrasse/mcp-tmp/me-1"), Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true}),
	}
	for who, p := range policies {
		for _, rel := range []string{".local/bin/gh", ".nvm/versions/node/v20.11.0/bin/node"} {
			t.Run(who+" "+rel, func(t *testing.T) {
				line := "printf '#!/bin/sh\\nid\\n' > " + filepath.Join(home, rel)
				if out, ok := run(t, p, line); ok {
					t.Errorf("a sandboxed %s with the home folder granted replaced ~/%s: succeeded (%s); want the home folder's programs read-only, as for shell commands", who, rel, out)
				}
			})
		}
	}
}
