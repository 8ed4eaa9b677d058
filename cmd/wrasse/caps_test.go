package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// cli runs the command line against a workspace and returns exit code, stdout and stderr.
func cli(t *testing.T, ws string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "WRASSE_HOME" {
			return ws
		}
		return ""
	}
	code := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errb}, getenv)
	return code, out.String(), errb.String()
}

func write(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// workspaceWith makes a workspace holding a guide, a broken capability and an Agent Skill.
func workspaceWith(t *testing.T) string {
	ws := t.TempDir()
	caps := filepath.Join(ws, "brain", "cerebellum")
	write(t, filepath.Join(caps, "recipes", "SKILL.md"), "---\nname: recipes\ndescription: Cook dinner from what is in the fridge.\nkeywords: [cooking, food]\n---\n# Recipes\nAsk what is in the fridge.\n")
	write(t, filepath.Join(caps, "broken", "SKILL.md"), "---\nname: broken\ndescription: a: b\n---\n")
	write(t, filepath.Join(caps, "pdf-forms", "SKILL.md"), "---\nname: pdf-forms\ndescription: Fill PDF forms.\nlicense: MIT\nallowed-tools: Bash Read\n---\nUse scripts/fill.py\n")
	write(t, filepath.Join(caps, "pdf-forms", "scripts", "fill.py"), "print('fill')\n")
	return ws
}

func TestCapsCommands(t *testing.T) {
	ws := workspaceWith(t)
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"list", []string{"caps", "list"}, 0, []string{"recipes", "guide", "Unknown", "broken", "failed", "error: broken/SKILL.md:3:14", "tool-discovery", "Official"}},
		{"show", []string{"caps", "show", "pdf-forms"}, 0, []string{"Allowed tools:", "Bash Read", "scripts/fill.py"}},
		{"show failed", []string{"caps", "show", "broken"}, 0, []string{"Error:", "must be quoted", "^"}},
		{"show unknown", []string{"caps", "show", "recipe"}, 1, []string{"no such capability", "did you mean recipes"}},
		{"index", []string{"caps", "index"}, 0, []string{"<capabilities>", "- recipes (guide) — Cook dinner", "[loaded]"}},
		{"search", []string{"caps", "search", "cooking", "dinner"}, 0, []string{"1. recipes (guide)"}},
		{"search nothing", []string{"caps", "search", "zzzqqq"}, 0, []string{"No usable capability matches"}},
		{"usage", []string{"caps"}, 2, []string{"caps needs a subcommand"}},
		{"unknown command", []string{"frobnicate"}, 2, []string{"unknown command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := cli(t, ws, tt.args...)
			all := out + errOut
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", code, tt.code, all)
			}
			for _, c := range tt.contains {
				if !strings.Contains(all, c) {
					t.Errorf("output lacks %q:\n%s", c, all)
				}
			}
		})
	}
}

func TestCapsJSON(t *testing.T) {
	ws := workspaceWith(t)
	code, out, errOut := cli(t, ws, "caps", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []capRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	byName := map[string]capRow{}
	for _, r := range rows {
		byName[r.Name] = r
	}
	if byName["broken"].State != "failed" || byName["recipes"].Kind != "guide" || byName["tool-discovery"].Badge != "Official" {
		t.Fatalf("rows: %+v", byName)
	}
	// Same state, same bytes.
	_, again, _ := cli(t, ws, "caps", "list", "--json")
	if again != out {
		t.Fatal("caps list --json is not deterministic")
	}
	code, out, _ = cli(t, ws, "caps", "search", "--json", "fill pdf")
	if code != 0 || !strings.Contains(out, `"name": "pdf-forms"`) {
		t.Fatalf("search json: %d %s", code, out)
	}
}

func TestCapsValidateAndInstall(t *testing.T) {
	ws := workspaceWith(t)
	src := t.TempDir()
	good := filepath.Join(src, "haiku")
	write(t, filepath.Join(good, "SKILL.md"), "---\nname: haiku\ndescription: Write haiku.\n---\nFive, seven, five.\n")
	bad := filepath.Join(src, "bad.md")
	write(t, bad, "---\nname: Bad\ndescription: x\n---\n")

	if code, out, _ := cli(t, ws, "caps", "validate", good); code != 0 || !strings.Contains(out, "haiku is valid (guide)") {
		t.Fatalf("validate good: %d %s", code, out)
	}
	code, _, errOut := cli(t, ws, "caps", "validate", bad)
	if code != 1 || !strings.Contains(errOut, `"Bad" is not a valid name`) {
		t.Fatalf("validate bad: %d %s", code, errOut)
	}
	if code, out, errOut := cli(t, ws, "caps", "install", good); code != 0 || !strings.Contains(out, "Installed haiku") {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	if code, _, errOut := cli(t, ws, "caps", "install", good); code != 1 || !strings.Contains(errOut, "haiku is already installed") ||
		!strings.Contains(errOut, "→ wrasse caps install "+good+" --replace") {
		t.Fatalf("second install: %d %s", code, errOut)
	}
	if code, out, errOut := cli(t, ws, "caps", "install", good, "--replace"); code != 0 || !strings.Contains(out, "Replaced haiku") {
		t.Fatalf("install --replace: %d %s %s", code, out, errOut)
	}
	if code, out, _ := cli(t, ws, "caps", "disable", "haiku"); code != 0 || !strings.Contains(out, "haiku is disabled") {
		t.Fatalf("disable: %d %s", code, out)
	}
	// The state survives a new process (a new open of the database).
	if _, out, _ := cli(t, ws, "caps", "show", "haiku"); !strings.Contains(out, "disabled") {
		t.Fatalf("state not persisted:\n%s", out)
	}
	if code, out, _ := cli(t, ws, "caps", "remove", "haiku"); code != 0 || !strings.Contains(out, "restorable for 7 days") {
		t.Fatalf("remove: %d %s", code, out)
	}
	if code, out, _ := cli(t, ws, "caps", "restore", "haiku"); code != 0 || !strings.Contains(out, "Restored haiku") {
		t.Fatalf("restore: %d %s", code, out)
	}
	// Remove and disable of a core capability give one answer.
	_, _, removeErr := cli(t, ws, "caps", "remove", "tool-discovery")
	code, _, disableErr := cli(t, ws, "caps", "disable", "tool-discovery")
	if code != 1 || removeErr != disableErr || !strings.Contains(removeErr, "tool-discovery is a core capability") ||
		!strings.Contains(removeErr, "can be neither removed nor disabled") {
		t.Fatalf("remove and disable of a core capability:\n%s\n%s", removeErr, disableErr)
	}
	write(t, filepath.Join(ws, "brain", "cerebellum", "haiku", "SKILL.md"), "---\nname: haiku\ndescription: Write better haiku.\n---\nx\n")
	if code, out, _ := cli(t, ws, "caps", "resync"); code != 0 || !strings.Contains(out, "Changed: haiku") {
		t.Fatalf("resync: %d %s", code, out)
	}
}

func TestConfigCommand(t *testing.T) {
	ws := t.TempDir()
	if code, out, errOut := cli(t, ws, "config", "set", "provider", "anthropic"); code != 0 || !strings.Contains(out, "Saved") {
		t.Fatalf("set: %d %s %s", code, out, errOut)
	}
	cli(t, ws, "config", "set", "pinnedCapabilities", "web, calc")
	code, out, _ := cli(t, ws, "config", "show", "--json")
	if code != 0 || !strings.Contains(out, `"provider": "anthropic"`) || !strings.Contains(out, `"calc"`) || !strings.Contains(out, `"model": "claude-sonnet-4-5"`) {
		t.Fatalf("show: %d %s", code, out)
	}
	if code, _, errOut := cli(t, ws, "config", "set", "provider", "skynet"); code != 1 || !strings.Contains(errOut, "provider must be") {
		t.Fatalf("bad provider: %d %s", code, errOut)
	}
	if code, _, errOut := cli(t, ws, "config", "set", "apiKey", "sk-123"); code != 1 || !strings.Contains(errOut, "wrasse secrets set") {
		t.Fatalf("api key in config: %d %s", code, errOut)
	}
	data, _ := os.ReadFile(filepath.Join(ws, "config.json"))
	if strings.Contains(string(data), "sk-123") {
		t.Fatal("a key reached config.json")
	}
}

// TestUntrustedPluginCrashSparesTheApp: a plugin the user installed runs in
// a process of its own, so a fatal runtime error ends only that process.
func TestUntrustedPluginCrashSparesTheApp(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(t.TempDir(), "crashy")
	write(t, filepath.Join(dir, "SKILL.md"), "---\nname: crashy\ndescription: Crashes.\ntools:\n  - name: crashy_unlock\n    description: Unlock an unlocked mutex.\n  - name: crashy_ok\n    description: Fine.\n---\nx\n")
	write(t, filepath.Join(dir, "plugin", "main.go"), `package crashy

import (
	"context"
	"sync"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

func Init(env *sdk.Env) (*sdk.Plugin, error) {
	p := sdk.NewPlugin()
	p.Handle("crashy_unlock", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		var mu sync.Mutex
		mu.Unlock()
		return sdk.Text("unreachable"), nil
	})
	p.Handle("crashy_ok", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
		return sdk.Text("still here"), nil
	})
	return p, nil
}
`)
	if code, out, errOut := cli(t, ws, "caps", "install", dir); code != 0 {
		t.Fatalf("install: %s %s", out, errOut)
	}
	child, err := pluginChild()
	if err != nil {
		t.Fatal(err)
	}
	a, err := assistant.Open(assistant.Options{Workspace: ws, PluginChild: child})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	reg := a.Engine().Registry
	sess := reg.NewSession("c", nil)
	res, err := reg.Call(context.Background(), sess, "crashy_unlock", []byte(`{}`))
	if err == nil || !res.IsError || !strings.Contains(res.Content, "unlock of unlocked mutex") {
		t.Fatalf("crash call: %+v %v", res, err)
	}
	res, err = reg.Call(context.Background(), sess, "crashy_ok", []byte(`{}`))
	if err != nil || res.Content != "still here" {
		t.Fatalf("call after the crash: %+v %v", res, err)
	}
}

func TestCapsSettings(t *testing.T) {
	ws := t.TempDir()
	steps := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"caps", "settings", "shell"}, 0, "1m0s (default)"},
		{[]string{"caps", "set", "shell", "timeout", "90s"}, 0, `Set shell's timeout to "90s".`},
		{[]string{"caps", "settings", "shell"}, 0, "duration  1m30s"},
		{[]string{"caps", "set", "shell", "allowedCommands", "git status, go test ./..."}, 0, `Set shell's allowedCommands`},
		{[]string{"caps", "settings", "shell"}, 0, "git status,go test ./..."},
		{[]string{"caps", "set", "shell", "allowedCommands", "git status, bash"}, 1, "bash runs whatever its arguments or input say"},
		{[]string{"caps", "unset", "shell", "allowedCommands"}, 0, "Reset shell's allowedCommands to its default."},
		{[]string{"caps", "set", "web", "trustedHosts", "docs.python.org, *.go.dev"}, 0, `Set web's trustedHosts`},
		{[]string{"caps", "set", "web", "trustedHosts", "https://x.org"}, 1, "leave out the scheme"},
		{[]string{"caps", "set", "shell", "timeout", "soon"}, 1, "is not a duration"},
		{[]string{"caps", "set", "shell", "timeuot", "1m"}, 1, `shell has no setting "timeuot"`},
		{[]string{"caps", "set", "shell", "timeout", ""}, 1, "is not a duration"},
		{[]string{"caps", "unset", "shell", "timeout"}, 0, "Reset shell's timeout to its default."},
		{[]string{"caps", "settings", "shell"}, 0, "1m0s (default)"},
		{[]string{"caps", "settings", "calc"}, 0, "calc declares no settings."},
	}
	for _, s := range steps {
		code, out, errOut := cli(t, ws, s.args...)
		if code != s.code || !strings.Contains(out+errOut, s.want) {
			t.Errorf("%q: exit %d, want %d and %q:\n%s%s", s.args, code, s.code, s.want, out, errOut)
		}
	}
}
