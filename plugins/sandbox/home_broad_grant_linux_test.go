package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Issue 21 (attack a11): granting /home (docs/plugins.md names it as a grant that holds the
// home folder) protects the person's own home, but homeRule looks for
// homeMarkers only on the granted folders themselves, never on their
// entries: the other folders of /home keep the grant. Homebrew on Linux
// installs to /home/linuxbrew/.linuxbrew, owned by the person, its bin
// on PATH in ~/.profile (brew's own installer adds it), so a command
// replaces `git` or `python3` there and the person's next terminal runs
// it. As root (Wrasse run by root, a container), every other user's
// ~/.bashrc under /home is writable too: code that runs as them.
//
// Reproduction: grant /home; in shell_exec:
// printf '#!/bin/sh\nid>/tmp/pwn\n' > /home/linuxbrew/.linuxbrew/bin/git
func TestHomeGrantedParentKeepsOtherHomesAndPrograms(t *testing.T) {
	requireLandlock(t)
	top := t.TempDir()
	homes := filepath.Join(top, "home")
	me := filepath.Join(homes, "alice")
	for rel, data := range map[string]string{
		"alice/.bashrc":                  "# mine\n",
		"alice/Documents/n.txt":          "mine\n",
		"linuxbrew/.linuxbrew/bin/git":   "#!/bin/sh\n",
		"bob/.bashrc":                    "# bob's\n",
		"bob/.ssh/id_ed25519":            "A11SECRET bob's key\n",
		"linuxbrew/.linuxbrew/etc/.keep": "",
	} {
		p := filepath.Join(homes, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", me)
	f := newFixture(t)
	policies := map[string]sandbox.Policy{
		"shell command":              sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{homes}, Protected: f.protected(), Home: me, Temp: f.temp}),
		"MCP server":                 sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{homes}, Protected: f.protected(), Home: me, Program: "/bin/sh", Temp: f.temp}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{homes}, Protected: f.protected(), Files: true, Exec: true}),
	}
	for who, p := range policies {
		if out, ok := run(t, p, "echo x >> "+filepath.Join(me, ".bashrc")); ok {
			t.Fatalf("%s: the person's own ~/.bashrc was writable, the rule itself broke: %s", who, out)
		}
		for _, tc := range []struct{ name, line string }{
			{"Homebrew's git in /home/linuxbrew", "echo /tmp/pwn >> " + filepath.Join(homes, "linuxbrew/.linuxbrew/bin/git")},
			{"another home's .bashrc", "echo /tmp/pwn >> " + filepath.Join(homes, "bob/.bashrc")},
			{"another home's ssh key", "cat " + filepath.Join(homes, "bob/.ssh/id_ed25519")},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				if out, ok := run(t, p, tc.line); ok || strings.Contains(out, "A11SECRET") {
					t.Errorf("a sandboxed %s with /home granted: %s succeeded (%s); want the home folder rule for every home and program folder the grant holds", who, tc.name, out)
				}
			})
		}
	}
}

// Issue 21 (attack a11): docs/plugins.md says the shared /tmp is out of every command's
// reach (its TMPDIR is its own) and names `/` as a grant the home folder
// rule handles. With `/` granted, only the home folder is handled: /tmp,
// /var/tmp and the person's runtime folder (/run/user/UID: the session
// bus, gpg-agent's and ssh-agent's sockets, systemd --user's runtime unit
// folder $XDG_RUNTIME_DIR/systemd/user, which the next daemon-reload
// loads) are writable, and so, as root, are /etc/profile.d, /etc/cron.d and
// /usr/local/bin. Other commands' own temporary folders lie in /tmp too.
//
// Reproduction: grant /; in shell_exec: ls /tmp/wrasse-cmd-*; echo x > /var/tmp/x
func TestHomeGrantedRootKeepsSharedAndSystemFolders(t *testing.T) {
	requireLandlock(t)
	other, err := sandbox.CommandTemp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(other) })
	if err := os.WriteFile(filepath.Join(other, "left.txt"), []byte("A11SECRET another command's file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	own, err := sandbox.CommandTemp()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(own) })
	home := homeWith(t, map[string]string{".bashrc": "# mine\n", "Documents/.keep": ""})
	f := newFixture(t)
	p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{"/"}, Protected: f.protected(), Home: home, Temp: own})
	probe := fmt.Sprintf("wrasse-a11-%d", os.Getpid())
	cases := []struct{ name, line string }{
		{"another command's temporary folder", "cat " + filepath.Join(other, "left.txt")},
		{"/var/tmp", "echo x > /var/tmp/" + probe + " && rm /var/tmp/" + probe},
		{"the home folder's ~/.bashrc", "echo x >> " + filepath.Join(home, ".bashrc")},
	}
	if os.Geteuid() == 0 {
		cases = append(cases, struct{ name, line string }{"/etc/profile.d (as root)",
			"echo x > /etc/profile.d/" + probe + ".sh && rm /etc/profile.d/" + probe + ".sh"})
	}
	// What the grant is for still works: the command's own temporary
	// folder, the person's files, the system's programs and settings.
	for _, tc := range []struct{ name, line string }{
		{"its own temporary folder", "echo x > " + filepath.Join(own, "mine") + " && cat " + filepath.Join(own, "mine")},
		{"a folder in the home folder", "echo x > " + filepath.Join(home, "Documents/n.txt")},
		{"the system's programs and settings", "/usr/bin/env true && cat /etc/hosts > /dev/null"},
	} {
		t.Run("keeps "+tc.name, func(t *testing.T) {
			if out, ok := run(t, p, tc.line); !ok {
				t.Errorf("a shell command with / granted could not use %s: %s", tc.name, out)
			}
		})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if out, ok := run(t, p, tc.line); ok || strings.Contains(out, "A11SECRET") {
				t.Errorf("a shell command with / granted reached %s: succeeded (%s); want what no grant should hand a command (shared temporary folders, other commands' folders, the system's startup files) out of reach", tc.name, out)
			}
		})
	}
}
