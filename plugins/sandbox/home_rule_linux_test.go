package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// The home folder rule keeps working what needs writing or reading: the
// person's own files, a folder inside ~/.config granted on its own, the
// commands' cache home, programs in ~/.local/bin (run, not changed),
// ssh's known hosts; while ssh's private keys stay unreadable and no new
// dot entry appears in the home folder.
func TestHomeRuleKeepsWhatSandboxesNeed(t *testing.T) {
	requireLandlock(t)
	const key = "-----BEGIN OPENSSH PRIVATE KEY-----SECRET"
	home := homeWith(t, map[string]string{
		"Documents/notes.txt":    "mine\n",
		".config/myapp/app.toml": "a = 1\n",
		".config/other/o.toml":   "b = 2\n",
		".ssh/known_hosts":       "github.com ssh-ed25519 AAAA\n",
		".ssh/work_key":          key + "\n",
		".ssh/work_key.pub":      "ssh-ed25519 AAAA p@h\n",
		".local/bin/tool":        "#!/bin/sh\necho tool ran\n",
	})
	if err := os.Chmod(filepath.Join(home, ".local/bin/tool"), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := sandbox.CommandCache(home)
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	f := newFixture(t)
	myapp := filepath.Join(home, ".config/myapp")
	in := func(rel string) string { return filepath.Join(home, rel) }
	policies := map[string]sandbox.Policy{
		"shell command": sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home, myapp}, Protected: f.protected(), Home: home, Temp: f.temp}),
		"MCP server": sandbox.ForMCP(sandbox.MCPOptions{Roots: []string{home, myapp}, Protected: f.protected(), Home: home, Program: "/bin/sh",
			Temp: f.temp}),
		"plugin with files and exec": sandbox.ForPlugin(sandbox.PluginOptions{Roots: []string{home, myapp}, Protected: f.protected(), Files: true, Exec: true}),
	}
	for who, p := range policies {
		for _, tc := range []struct {
			name, line string
			ok         bool
		}{
			{"writes ~/Documents", "echo x >> " + in("Documents/notes.txt") + " && echo y > " + in("Documents/new.txt"), true},
			{"writes ~/.config/myapp granted on its own", "echo x >> " + in(".config/myapp/app.toml") + " && echo y > " + in(".config/myapp/new.toml"), true},
			{"reads ~/.config/other", "cat " + in(".config/other/o.toml"), true},
			{"runs ~/.local/bin/tool", in(".local/bin/tool"), true},
			{"reads ~/.ssh/known_hosts and a public key", "cat " + in(".ssh/known_hosts") + " " + in(".ssh/work_key.pub"), true},
			{"writes ~/.config/other", "echo x >> " + in(".config/other/o.toml"), false},
			{"adds to ~/.config", "mkdir " + in(".config/planted"), false},
			{"adds a dot entry to the home folder", "echo x > " + in(".planted"), false},
			{"replaces ~/.local/bin/tool", "echo x > " + in(".local/bin/tool"), false},
			{"reads an ssh private key", "cat " + in(".ssh/work_key"), false},
		} {
			t.Run(who+" "+tc.name, func(t *testing.T) {
				out, ok := run(t, p, tc.line)
				if ok != tc.ok || strings.Contains(out, "SECRET") {
					t.Errorf("a sandboxed %s with the home folder granted: %s: succeeded %v (%s); want %v", who, tc.name, ok, out, tc.ok)
				}
			})
		}
	}
	t.Run("shell command writes its cache home", func(t *testing.T) {
		if out, ok := run(t, policies["shell command"], "mkdir -p "+filepath.Join(cache, "go-build/00")+" && echo x > "+filepath.Join(cache, "go-build/00/a")); !ok {
			t.Errorf("a shell command could not write its own cache home %s: %s", cache, out)
		}
	})
}

// BenchmarkHomeRule builds a command's policy and its rules for a granted
// home folder of 5,000 entries (a tenth of them dot entries) with the
// commands' cache home deep inside ~/.local: the cost the rule adds to
// every command's start.
func BenchmarkHomeRule(b *testing.B) {
	home := b.TempDir()
	for i := range 5000 {
		name := fmt.Sprintf("file%04d", i)
		if i%10 == 0 {
			name = "." + name
		}
		if err := os.WriteFile(filepath.Join(home, name), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 200 {
		if err := os.MkdirAll(filepath.Join(home, ".local/share", fmt.Sprintf("app%03d", i)), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	cache := sandbox.CommandCache(home)
	if err := os.MkdirAll(cache, 0o700); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		p := sandbox.ForCommand(sandbox.CommandOptions{Roots: []string{home}, Home: home, Temp: os.TempDir()})
		_ = sandbox.Rules(p)
	}
}
