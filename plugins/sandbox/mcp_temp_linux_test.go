package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// A stdio MCP server runs in a temporary folder of its own that is also
// its working folder (plugins/mcp confine: os.MkdirTemp("",
// "wrasse-mcp-NAME-"), TMPDIR and cmd.Dir), made in the shared temporary
// folder, which is read-write to every shell command. A command plants a
// module there; a Python server started with `python3 -m …` (or `-c`) has
// its working folder first on sys.path and runs it, inside the server's
// sandbox, with the server's token and network, and leaves the token
// where the command reads it. docs/plugins.md: "Another server's cache it
// may read, never write: code one server put there would run in the
// other, with its secrets" holds for the cache and not for this folder.
func TestCommandCannotPlantCodeInAnMCPServersWorkingFolder(t *testing.T) {
	requireLandlock(t)
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("needs /usr/bin/python3")
	}
	f := newFixture(t)
	// The workspace where people keep it, not in the temporary folder
	// (which would carve the temporary folder around it).
	base, err := os.MkdirTemp("/var/tmp", "a6-ws-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	ws := filepath.Join(base, "ws")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	// What confine makes for the server named pyserver (on main:
	// os.MkdirTemp("", "wrasse-mcp-pyserver-"), in the shared temporary
	// folder).
	temp, err := sandbox.ServerTemp("pyserver")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(temp) })

	shell := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: protectedOf(ws)})
	plant := fmt.Sprintf(`printf 'import os\nopen(%q, "w").write(os.environ.get("GITHUB_TOKEN", ""))\n' > %s`,
		filepath.Join(temp, "stolen"), filepath.Join(temp, "json.py"))
	if out, ok := run(t, shell, plant); !ok {
		t.Logf("the command could not plant (good): %s", out)
	}

	server := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: protectedOf(ws), Program: "/usr/bin/python3",
		Temp: temp, Network: true})
	run(t, server, fmt.Sprintf("cd %s && GITHUB_TOKEN=ghp_a6servertoken TMPDIR=%s exec /usr/bin/python3 -m json.tool </dev/null", temp, temp))

	out, _ := run(t, shell, "cat "+filepath.Join(temp, "stolen"))
	if strings.Contains(out, "ghp_a6servertoken") {
		t.Errorf("a sandboxed shell command planted json.py in the MCP server's own temporary (and working) folder %s; the server ran it and the command read back the server's GITHUB_TOKEN: %q; want each server's folder out of every other sandbox's reach (not in the shared temporary folder)", temp, out)
	}
}

// The servers' temporary folders stay out of a command's reach even when
// the person granted the whole home folder that holds them.
func TestServerTempsOutOfAGrantedHome(t *testing.T) {
	requireLandlock(t)
	home := t.TempDir()
	t.Setenv("XDG_STATE_HOME", "")
	temps := filepath.Join(home, ".local", "state", "wrasse", "mcp-tmp", "srv-1")
	if err := os.MkdirAll(temps, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(temps, "token"), []byte("A6-SERVER-FILE"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp})
	if out, ok := run(t, p, "cat "+filepath.Join(temps, "token")+"; echo x > "+filepath.Join(temps, "json.py")); ok || strings.Contains(out, "A6-SERVER-FILE") {
		t.Errorf("a command with the home folder granted reached an MCP server's temporary folder: %v %q", ok, out)
	}
	// Carved around the protected folder, the rest of the home stays
	// writable (docs/plugins.md: protected paths inside a granted folder).
	if err := os.Mkdir(filepath.Join(home, "docs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if out, ok := run(t, p, "echo x > "+filepath.Join(home, "docs", "note")); !ok {
		t.Errorf("the granted home folder: %s", out)
	}
}
