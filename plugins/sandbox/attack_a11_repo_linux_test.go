package sandbox_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// a11: docs/capabilities.md treats a write into a repository's
// configuration or hooks as code execution (core.fsmonitor, core.pager, a
// hook run under the person's later git commands) and has the gate ask
// before a shell command makes one. Only shell_exec's command line goes
// through that gate: a stdio MCP server and a plugin granted the
// project write .git/config and .git/hooks freely, since the sandbox
// grants the whole project folder. The person's next `git status` in
// the project (or their prompt's git status line, which runs it at every
// prompt) runs the program outside any sandbox. So does a shell command
// the gate cannot read (a script in the project, `python3 x.py`, `make`)
// once approved.
//
// Reproduction: an MCP server with ~/projects/app granted writes
// "[core]\n\tfsmonitor = /tmp/pwn" to ~/projects/app/.git/config.
func TestA11RepositoryHooksWritableInGrantedProject(t *testing.T) {
	requireLandlock(t)
	home := homeWith(t, map[string]string{
		"projects/app/.git/config":                  "[core]\n\trepositoryformatversion = 0\n",
		"projects/app/.git/hooks/pre-commit.sample": "#!/bin/sh\n",
		"projects/app/main.go":                      "package main\n",
	})
	t.Setenv("HOME", home)
	f := newFixture(t)
	project := filepath.Join(home, "projects/app")
	policies := map[string]sandbox.Policy{
		"MCP server":        sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{project}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{project}, Protected: f.protected(), Files: true, Exec: true}),
		"shell command":     sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{project}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true}),
	}
	for who, p := range policies {
		for _, tc := range []struct{ name, line string }{
			{".git/config core.fsmonitor", "printf '[core]\\n\\tfsmonitor = /tmp/pwn\\n' >> " + filepath.Join(project, ".git/config")},
			{".git/hooks/post-checkout", "printf '#!/bin/sh\\n/tmp/pwn\\n' > " + filepath.Join(project, ".git/hooks/post-checkout")},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				if out, ok := run(t, p, "cd "+project+" && "+tc.line); ok {
					t.Errorf("a sandboxed %s with a project granted wrote %s: succeeded (%s); git runs it as the person outside any sandbox: want .git's config and hooks read-only in every sandbox (as the gate does for shell command lines)", who, tc.name, out)
				}
			})
		}
	}
}
