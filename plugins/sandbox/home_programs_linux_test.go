package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// homePrograms keeps ~/.local/bin, ~/.nvm, ~/.pyenv, ~/.cargo/bin… read
// only, but not where many of the programs on the person's PATH really
// live: pipx's and uv's tools are symbolic links in ~/.local/bin to
// ~/.local/pipx/venvs/… and ~/.local/share/uv/tools/…, whose targets stay
// writable; Volta, Bun, Deno, asdf, pnpm, SDKMAN!, Miniconda and dotnet
// tools install into folders of their own (the MCP sandbox even lists
// several of them in runtimeHome, to run servers from). With the home
// folder granted, every sandbox replaces the program the person's next
// `ruff`, `node`, `python` or `java` runs, outside any sandbox.
func TestGrantedHomeProgramsReadOnlyWhereverInstalled(t *testing.T) {
	requireLandlock(t)
	progs := []string{
		".local/pipx/venvs/black/bin/black",
		".local/share/uv/tools/ruff/bin/ruff",
		".volta/bin/node",
		".bun/bin/bun",
		".deno/bin/deno",
		".asdf/shims/node",
		".local/share/pnpm/pnpm",
		".sdkman/candidates/java/current/bin/java",
		"miniconda3/bin/python",
		".dotnet/tools/dotnet-ef",
	}
	home := t.TempDir()
	for _, rel := range progs {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\nexec true\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// As pipx and uv install them: the command on PATH is a link in the
	// (read-only) ~/.local/bin.
	if err := os.MkdirAll(filepath.Join(home, ".local/bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"black": progs[0], "ruff": progs[1]} {
		if err := os.Symlink(filepath.Join(home, target), filepath.Join(home, ".local/bin", name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"shell command":              sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true}),
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true}),
	}
	for who, p := range policies {
		for _, rel := range progs {
			t.Run(who+" ~/"+rel, func(t *testing.T) {
				if out, ok := run(t, p, "printf '#!/bin/sh\\nid > /tmp/pwn\\n' > "+filepath.Join(home, rel)); ok {
					t.Errorf("a sandboxed %s with the home folder granted replaced ~/%s: succeeded (%s); want programs installed in the home folder read-only to every sandbox, wherever the installer put them", who, rel, out)
				}
			})
		}
	}
}
