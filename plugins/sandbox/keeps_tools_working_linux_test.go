package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// What the a8 fixes must leave working: modes builds set, inet sockets,
// an MCP server's own folders under a granted home (also when they are
// the only ones there), files in a granted folder beside a carved one.
func TestChmodSocketAndMCPFolderLimitsKeepWhatToolsNeed(t *testing.T) {
	requireLandlock(t)
	home := t.TempDir()
	for _, d := range []string{".cache/wrasse-mcp/me.k1", ".local/state/wrasse/mcp-tmp/me-1", "proj"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t)
	build := filepath.Join(f.granted, "build.sh")
	if err := os.WriteFile(build, []byte("#!/bin/sh\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Temp: f.temp, Network: false})
	mcp := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh",
		Temp: filepath.Join(home, ".local/state/wrasse/mcp-tmp/me-1"), Cache: filepath.Join(home, ".cache/wrasse-mcp/me.k1"), Network: true})
	for _, tc := range []struct {
		name string
		p    sandbox.Policy
		line string
		ok   bool
	}{
		{"chmod +x", cmd, "chmod +x " + build + " && test -x " + build, true},
		{"chmod 755 and 644", cmd, "chmod 755 " + build + " && chmod 644 " + build, true},
		{"chmod g+s", cmd, "chmod g+s " + f.granted, false},
		{"chmod o+w", cmd, "chmod o+w " + build, false},
		{"an inet socket without the network", cmd, "/usr/bin/python3 -c 'import socket; socket.socket()'", true},
		{"a packet socket", cmd, "/usr/bin/python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW)'", false},
		{"MCP writes its own cache", mcp, "echo x > " + filepath.Join(home, ".cache/wrasse-mcp/me.k1/x"), true},
		{"MCP writes its own temporary folder", mcp, "echo x > " + filepath.Join(home, ".local/state/wrasse/mcp-tmp/me-1/x"), true},
		{"MCP makes a folder for another server", mcp, "mkdir " + filepath.Join(home, ".cache/wrasse-mcp/other.k2"), false},
		{"MCP writes a project in the granted home", mcp, "echo x > " + filepath.Join(home, "proj/x"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.line[:16] == "/usr/bin/python3" {
				if _, err := os.Stat("/usr/bin/python3"); err != nil {
					t.Skip("no /usr/bin/python3")
				}
			}
			if out, ok := run(t, tc.p, tc.line); ok != tc.ok {
				t.Errorf("`%s` succeeded=%v, want %v: %s", tc.line, ok, tc.ok, out)
			}
		})
	}
}
