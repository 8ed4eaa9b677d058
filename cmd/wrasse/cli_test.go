package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cliEnv runs the command line with no WRASSE_HOME, so only --workspace
// names the workspace.
func cliEnv(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(string) string { return "" })
	return code, out.String(), errb.String()
}

// Every command and subcommand prints its own usage line, arguments and
// flags for --help and -h, and exits 0 without opening a workspace.
func TestHelpEveryCommand(t *testing.T) {
	type helpCase struct {
		args  []string
		usage string   // the usage line's start
		wants []string // what else the help names
	}
	var cases []helpCase
	for _, cmd := range commands() {
		var c call
		fs, _ := cmd.flagSet(&c)
		var flags []string
		fs.VisitAll(func(f *flag.Flag) {
			if len(f.Name) == 1 {
				flags = append(flags, "-"+f.Name)
			} else {
				flags = append(flags, "--"+f.Name)
			}
		})
		wants := append(flags, cmd.summary)
		for _, a := range cmd.argHelp {
			wants = append(wants, a[0], a[1])
		}
		usage := "Usage: wrasse " + cmd.path
		if cmd.args != "" {
			usage += " " + cmd.args
		}
		cases = append(cases, helpCase{append(strings.Fields(cmd.path), "--help"), usage, wants})
		cases = append(cases, helpCase{append(strings.Fields(cmd.path), "-h"), usage, wants})
	}
	for _, g := range groups {
		wants := subcommandNames(&g)
		cases = append(cases, helpCase{[]string{g.name, "--help"}, "Usage: wrasse " + g.name + " COMMAND", wants})
		cases = append(cases, helpCase{[]string{g.name, "-h"}, "Usage: wrasse " + g.name + " COMMAND", wants})
	}
	cases = append(cases,
		helpCase{[]string{"--help"}, "Wrasse — a desktop AI assistant", []string{"wrasse caps call NAME TOOL [JSON]", "--workspace DIR"}},
		helpCase{[]string{"help"}, "Wrasse — a desktop AI assistant", []string{"wrasse chat"}},
		helpCase{[]string{"help", "caps", "show"}, "Usage: wrasse caps show NAME", []string{"--no-check"}},
		helpCase{[]string{"caps", "show", "recipes", "--help"}, "Usage: wrasse caps show NAME", nil},
		helpCase{[]string{"--workspace", "/nonexistent", "caps", "install", "--help"}, "Usage: wrasse caps install PATH", []string{"--replace"}},
		helpCase{[]string{"config", "show", "--help"}, "Usage: wrasse config show", nil},
	)
	ws := filepath.Join(t.TempDir(), "never-created")
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, ws, tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if !strings.HasPrefix(out, tc.usage) {
				t.Errorf("help starts %q, want %q", firstLineOf(out), tc.usage)
			}
			for _, w := range tc.wants {
				if !strings.Contains(out, w) {
					t.Errorf("help lacks %q:\n%s", w, out)
				}
			}
		})
	}
	if _, err := os.Stat(ws); err == nil {
		t.Error("help opened (and created) the workspace")
	}
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// A usage error is one line and a pointer to the command's --help, never
// the whole usage.
func TestUsageErrorPointsToHelp(t *testing.T) {
	ws := t.TempDir()
	tests := []struct {
		args    []string
		message string
		pointer string
	}{
		{[]string{"caps", "show"}, "caps show needs NAME", "wrasse caps show --help"},
		{[]string{"caps", "show", "a", "b"}, `"b" is one too many`, "wrasse caps show --help"},
		{[]string{"caps"}, "caps needs a subcommand: list, show", "wrasse caps --help"},
		{[]string{"caps", "lst"}, `unknown caps subcommand "lst"; did you mean list?`, "wrasse caps --help"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`, "wrasse --help"},
		{[]string{"caps", "list", "--bogus"}, "flag provided but not defined: -bogus", "wrasse caps list --help"},
		{[]string{"caps", "call", "calc", "calc_eval", "not json"}, "must be a JSON object", "wrasse caps call --help"},
		{[]string{"chat", "--provider", "gemini", "hi"}, "--provider must be ollama, openai or anthropic", "wrasse chat --help"},
		{[]string{"chat", "--base-url", "localhost:11434", "hi"}, "baseURL must be an http or https URL", "wrasse chat --help"},
		{[]string{"conversations", "show", "yesterday"}, "invalid conversation id", "wrasse conversations show --help"},
		{[]string{"secrets", "set", "NAME", "value-on-the-command-line"}, "one too many", "wrasse secrets set --help"},
		{[]string{"config", "set", "model"}, "config set needs KEY VALUE", "wrasse config set --help"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, ws, tt.args...)
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			if code != exitUsage || out != "" || len(lines) != 2 {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
			}
			if !strings.HasPrefix(lines[0], "wrasse: ") || !strings.Contains(lines[0], tt.message) {
				t.Errorf("message %q lacks %q", lines[0], tt.message)
			}
			if want := "Run '" + tt.pointer + "' for usage."; lines[1] != want {
				t.Errorf("pointer %q, want %q", lines[1], want)
			}
		})
	}
}

// Global flags work before the command, between its words and after it.
func TestGlobalFlagsAnywhere(t *testing.T) {
	ws := workspaceWith(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"before the command", []string{"--workspace", ws, "caps", "list"}, "recipes"},
		{"before, with =", []string{"--workspace=" + ws, "--json", "caps", "show", "recipes"}, `"name": "recipes"`},
		{"between group and subcommand", []string{"caps", "--workspace", ws, "show", "recipes"}, "Cook dinner"},
		{"conversations", []string{"conversations", "--workspace", ws, "list"}, "No conversations yet"},
		{"conversations, list by default", []string{"conversations", "--workspace", ws}, "No conversations yet"},
		{"secrets, list by default", []string{"secrets", "--workspace", ws}, "No secrets stored"},
		{"secrets", []string{"secrets", "--workspace", ws, "list"}, "No secrets stored"},
		{"config", []string{"config", "--workspace", ws}, filepath.Join(ws, "config.json")},
		{"after", []string{"caps", "search", "cooking", "--workspace", ws}, "1. recipes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := cliEnv(t, tt.args...)
			if code != 0 || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, stdout lacks %q:\n%s\n%s", code, tt.want, out, errOut)
			}
		})
	}
	// The command runs, rather than the banner.
	if code, out, errOut := cliEnv(t, "--workspace", ws, "caps", "remove", "recipes"); code != 0 || !strings.Contains(out, "Removed recipes") {
		t.Fatalf("remove: %d %s %s", code, out, errOut)
	}
	if _, out, _ := cliEnv(t, "--workspace", ws, "caps", "list"); strings.Contains(out, "recipes") {
		t.Errorf("recipes still listed:\n%s", out)
	}
}

// Errors that carry a hint print it as a command after the message.
func TestErrorsPrintTheirHint(t *testing.T) {
	ws := t.TempDir()
	tests := []struct {
		args []string
		hint string
	}{
		{[]string{"caps", "call", "shell", "shell_exec", `{"command":"echo hi"}`}, `  → wrasse caps call shell shell_exec '{"command":"echo hi"}' --yes`},
		{[]string{"config", "set", "apiKey", "sk-123"}, "  → wrasse secrets set openai_api_key"},
		{[]string{"secrets", "delete", "nothing_here"}, "  → wrasse secrets list"},
		{[]string{"conversations", "show", "c7"}, "  → wrasse conversations list"},
		{[]string{"caps", "remove", "calc"}, "  → wrasse caps disable calc"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errOut := cli(t, ws, tt.args...)
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			if code != exitFail || len(lines) != 2 || !strings.HasPrefix(lines[0], "wrasse: ") || lines[1] != tt.hint {
				t.Errorf("exit %d, stderr:\n%s\nwant the second line %q", code, errOut, tt.hint)
			}
		})
	}
}

func TestCapsRevokeSaysWhat(t *testing.T) {
	ws := t.TempDir()
	write(t, filepath.Join(ws, "brain", "cerebellum", "fetcher", "SKILL.md"),
		"---\nname: fetcher\ndescription: Fetch things.\npermissions: [files, network]\n---\nx\n")
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"caps", "revoke", "fetcher"}, "fetcher had no permissions granted; nothing revoked. Still granted: nothing."},
		{[]string{"caps", "enable", "fetcher", "--grant", "files, network"}, "Granted: files, network."},
		{[]string{"caps", "revoke", "fetcher", "--grant", "network"}, "Revoked network from fetcher. Still granted: files."},
		{[]string{"caps", "revoke", "fetcher", "--grant", "network"}, "fetcher was not granted network; nothing revoked. Still granted: files."},
		{[]string{"caps", "revoke", "fetcher"}, "Revoked files from fetcher. Still granted: nothing."},
	}
	for _, s := range steps {
		code, out, errOut := cli(t, ws, s.args...)
		if code != 0 || strings.TrimSpace(out) != s.want && !strings.Contains(out, s.want) {
			t.Errorf("%q: exit %d\n%s%s\nwant %q", s.args, code, out, errOut, s.want)
		}
	}
	code, out, _ := cli(t, ws, "caps", "revoke", "fetcher", "--json")
	if code != 0 || !strings.Contains(out, `"revoked": []`) {
		t.Errorf("json: %s", out)
	}
}

func TestCapsCall(t *testing.T) {
	ws := t.TempDir()
	files := t.TempDir()
	if code, _, errOut := cli(t, ws, "config", "set", "folders", files); code != 0 {
		t.Fatal(errOut)
	}
	note := filepath.Join(files, "note.txt")
	writeNote := `{"path":"` + note + `","content":"approved-here"}`
	tests := []struct {
		name  string
		args  []string
		code  int
		first string // stdout's first line
		err   string // in stderr
	}{
		{"dry run allow", []string{"calc", "calc_eval", `{"expression":"2+3"}`, "--dry-run"}, 0, "allow", ""},
		{"dry run ask", []string{"shell", "shell_exec", `{"command":"echo hi"}`, "--dry-run"}, 0, "ask", ""},
		{"dry run ask-always", []string{"shell", "shell_exec", `{"command":"echo $(date)"}`, "--dry-run"}, 0, "ask-always", ""},
		{"dry run block", []string{"shell", "shell_exec", `{"command":"rm -rf /"}`, "--dry-run"}, 0, "block", ""},
		{"dry run block with --yes", []string{"shell", "shell_exec", `{"command":"rm -rf /"}`, "--dry-run", "--yes"}, 0, "block", ""},
		{"runs", []string{"calc", "calc_eval", `{"expression":"2+3"}`}, 0, "2+3 = 5", ""},
		{"no arguments", []string{"system", "system_info"}, 0, "os: ", ""},
		{"tool fails", []string{"calc", "calc_eval", `{"expression":"2+"}`}, 1, "", "wrasse: calc_eval failed:"},
		{"needs confirmation", []string{"filesystem", "fs_write", writeNote}, 1, "", "not approved"},
		{"approved", []string{"filesystem", "fs_write", writeNote, "--yes"}, 0, "", ""},
		{"blocked stays blocked", []string{"shell", "shell_exec", `{"command":"rm -rf /"}`, "--yes"}, 1, "", "blocked by the safety policy"},
		{"tool of another capability", []string{"shell", "calc_eval", "{}"}, 1, "", `shell has no tool "calc_eval"; its tools: shell_exec`},
		{"misspelt tool", []string{"calc", "calc_evl"}, 1, "", "did you mean calc_eval?"},
		{"unknown capability", []string{"calculator", "calc_eval"}, 1, "", "no such capability"},
		{"invalid arguments", []string{"calc", "calc_eval", `{"expr":"1"}`}, 1, "", "wrasse: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := cli(t, ws, append([]string{"caps", "call"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, errOut)
			}
			if tt.first != "" && !strings.HasPrefix(firstLineOf(out), tt.first) || tt.first == "allow" && firstLineOf(out) != "allow" ||
				tt.first == "ask" && firstLineOf(out) != "ask" {
				t.Errorf("first line %q, want %q\n%s", firstLineOf(out), tt.first, out)
			}
			if !strings.Contains(errOut, tt.err) {
				t.Errorf("stderr lacks %q:\n%s", tt.err, errOut)
			}
		})
	}
	if data, err := os.ReadFile(note); err != nil || string(data) != "approved-here" {
		t.Errorf("the approved call did not run: %q %v", data, err)
	}
	if _, out, _ := cli(t, ws, "caps", "call", "shell", "shell_exec", `{"command":"rm -rf /"}`, "--dry-run"); !strings.Contains(out, "recursive delete") {
		t.Errorf("the dry run gives no reason:\n%s", out)
	}
}

func TestConfigSetValidatesAndShowReportsProblems(t *testing.T) {
	ws := t.TempDir()
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"config", "set", "provider", "anthropic"}, 0, "Saved provider = anthropic"},
		{[]string{"config", "set", "pinnedCapabilities", "web, calc"}, 0, "Saved pinnedCapabilities = web,calc"},
		{[]string{"config", "set", "baseURL", "localhost:11434"}, 1, "baseURL must be an http or https URL"},
		{[]string{"config", "set", "provider", "skynet"}, 1, "provider must be ollama"},
		{[]string{"config", "set", "contextWindow", "-5"}, 1, "whole number"},
		{[]string{"config", "set", "modle", "x"}, 1, "did you mean model?"},
		{[]string{"config", "unset", "provider"}, 0, "Reset provider to its default"},
	}
	for _, tt := range tests {
		code, out, errOut := cli(t, ws, tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("%q: exit %d, want %d and %q:\n%s%s", tt.args, code, tt.code, tt.want, out, errOut)
		}
	}
	code, out, _ := cli(t, ws, "config", "show", "--json")
	if code != 0 || !strings.Contains(out, `"provider": "ollama"`) || !strings.Contains(out, `"calc"`) {
		t.Fatalf("show: %d %s", code, out)
	}
	data, _ := os.ReadFile(filepath.Join(ws, "config.json"))
	if strings.Contains(string(data), "skynet") || strings.Contains(string(data), "localhost:11434") {
		t.Fatalf("a refused value reached config.json:\n%s", data)
	}
	write(t, filepath.Join(ws, "config.json"), "{\n  \"modle\": \"llama3.1\"\n}\n")
	code, _, errOut := cli(t, ws, "config", "show")
	if want := `warning: ` + filepath.Join(ws, "config.json") + `:2:3: unknown key "modle" is ignored; did you mean "model"?`; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("show: exit %d, stderr lacks %q:\n%s", code, want, errOut)
	}
}
