package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// What a shell command may still do in the home folder now that the
// programs there are read and execute only: run them, and write the
// build caches (module caches, ~/.cache's existing folders).
func TestCommandHomeFolder(t *testing.T) {
	requireLandlock(t)
	home := a3Home(t)
	for _, rel := range []string{".cache/go-build/.keep", ".local/state/wrasse/cmd-cache/.keep", "go/pkg/mod/.keep", ".cargo/registry/.keep", ".npm/_cacache/.keep", ".cargo/config.toml"} {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true})
	cases := []struct {
		name, line string
		ok         bool
	}{
		{"run a program in ~/.local/bin", home + "/.local/bin/uvx", true},
		{"run a program in ~/.cargo/bin", home + "/.cargo/bin/git", true},
		{"run nvm's node", home + "/.nvm/versions/node/v22.0.0/bin/node", true},
		// The person's caches hold code their tools run unchecked;
		// commands write their own cache home (CommandCache).
		{"read the Go build cache", "cat " + home + "/.cache/go-build/.keep", true},
		{"write the Go build cache", "echo x > " + home + "/.cache/go-build/obj", false},
		{"write the commands' own cache", "mkdir -p " + home + "/.local/state/wrasse/cmd-cache/go-build && echo x > " + home + "/.local/state/wrasse/cmd-cache/go-build/obj", true},
		{"read the Go module cache", "cat " + home + "/go/pkg/mod/.keep", true},
		// The person's go command compiles what is there unchecked.
		{"write the Go module cache", "mkdir -p " + home + "/go/pkg/mod/example.com/m@v1 && echo x > " + home + "/go/pkg/mod/example.com/m@v1/m.go", false},
		{"read cargo's settings", "cat " + home + "/.cargo/config.toml", true},
		{"write cargo's registry", "echo x > " + home + "/.cargo/registry/index", false},
		{"write npm's cache", "echo x > " + home + "/.npm/_cacache/entry", false},
		{"add a program to ~/.local/bin", "echo x > " + home + "/.local/bin/npx", false},
		{"add a program to ~/go/bin", "mkdir -p " + home + "/go/bin && echo x > " + home + "/go/bin/gopls", false},
		{"plant a package npx runs", "mkdir -p " + home + "/.npm/_npx/abc && echo x > " + home + "/.npm/_npx/abc/index.js", false},
		{"read the MCP package cache", "cat " + home + "/.cache/wrasse-mcp/npm/.keep", false},
	}
	for _, tc := range cases {
		out, ok := run(t, p, tc.line)
		if ok != tc.ok {
			t.Errorf("%s: `%s` succeeded=%v, want %v: %s", tc.name, tc.line, ok, tc.ok, out)
		}
	}
}

// An MCP server whose program lies in ~/.local/bin or ~/bin still runs:
// the program file itself is opened to it, not its folder's parent.
func TestMCPProgramInTheHomeFolderRuns(t *testing.T) {
	requireLandlock(t)
	home := a3Home(t)
	f := newFixture(t)
	for _, program := range []string{filepath.Join(home, ".local", "bin", "uvx"), filepath.Join(home, "bin", "mcp-wrapper")} {
		p := sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{f.granted}, Protected: f.protected(), Home: home, Program: program, Temp: f.temp, Network: true})
		if out, ok := run(t, p, program+" && echo ran"); !ok || !strings.Contains(out, "ran") {
			t.Errorf("%s in the MCP sandbox: %v %s", program, ok, out)
		}
	}
}
