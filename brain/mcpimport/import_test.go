package mcpimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Each format's example file gives exactly its golden result: which
// servers are taken, under which names, with which values, which are
// skipped and why, and the secrets to set.
func TestParseGolden(t *testing.T) {
	tests := []struct {
		name string
		file string
		opt  Options
	}{
		{"claude", "testdata/claude/claude_desktop_config.json", Options{}},
		{"cursor", "testdata/cursor/.cursor/mcp.json", Options{Home: "/home/ada", WorkspaceFolder: "/home/ada/db"}},
		// The project is at /home/ada/site; its files are under testdata/vscode.
		{"vscode", "testdata/vscode/.vscode/mcp.json", Options{WorkspaceFolder: "/home/ada/site", ReadFile: func(p string) ([]byte, error) {
			rel, err := filepath.Rel("/home/ada/site", p)
			if err != nil || strings.HasPrefix(rel, "..") {
				rel = p
			}
			return os.ReadFile(filepath.Join("testdata/vscode", rel))
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			tt.opt.File = tt.file
			res, err := Parse(data, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", tt.name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("result differs from %s:\n%s", golden, got)
			}
			// Parsing is deterministic.
			again, _ := Parse(data, tt.opt)
			if b, _ := json.MarshalIndent(again, "", "  "); !bytes.Equal(append(b, '\n'), got) {
				t.Error("a second parse gave another result")
			}
		})
	}
}

// Files no app writes are refused as a whole with the package's sentinel
// errors, quickly, whatever their size or shape.
func TestParseHostile(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	deepInServer := `{"mcpServers":{"x":{"command":"c","env":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}}`
	huge := `{"mcpServers":{"x":{"command":"` + strings.Repeat("a", MaxFileSize) + `"}}}`
	var many strings.Builder
	many.WriteString(`{"mcpServers":{`)
	for i := 0; i <= MaxServers; i++ {
		if i > 0 {
			many.WriteByte(',')
		}
		many.WriteString(`"s` + strings.Repeat("x", i) + `":{"command":"c"}`)
	}
	many.WriteString("}}")
	tests := []struct {
		name string
		data string
		want error
	}{
		{"empty", "", ErrSyntax},
		{"not json", "mcpServers: {}", ErrSyntax},
		{"a list", "[]", ErrSyntax},
		{"a string", `"servers"`, ErrSyntax},
		{"no servers key", `{"mcp-servers": {}}`, ErrNoServers},
		{"servers a list", `{"mcpServers": [{"command": "x"}]}`, ErrNoServers},
		{"servers a number", `{"servers": 5}`, ErrNoServers},
		{"settings without servers", `{"mcp": {"inputs": []}}`, ErrNoServers},
		{"deep", deep, ErrTooDeep},
		{"deep inside a server", deepInServer, ErrTooDeep},
		{"huge", huge, ErrTooLarge},
		{"too many servers", many.String(), ErrTooManyServers},
		{"unterminated string", `{"mcpServers": {"x`, ErrSyntax},
		{"unterminated comment", `{"mcpServers": {} /* `, ErrSyntax},
		{"text after", `{"mcpServers": {}} {"mcpServers": {}}`, ErrSyntax},
		{"truncated", `{"mcpServers": {"x": {"command": "c"}`, ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Parse([]byte(tt.data), Options{})
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, %v; want an error matching %v", res, err, tt.want)
			}
		})
	}
}

// Entries of the wrong shape skip their server, with a reason naming the
// field, and never the file.
func TestParseSkipsWrongTypes(t *testing.T) {
	tests := []struct {
		entry  string
		reason string
	}{
		{`null`, "must be an object, not null"},
		{`[1]`, "must be an object, not a list"},
		{`{"command": 5}`, "command must be text, not a number"},
		{`{"command": ["npx"]}`, "command must be text, not a list"},
		{`{"command": "  "}`, "command is blank"},
		{`{"command": "c", "args": [1]}`, "args[0] must be text, not a number"},
		{`{"command": "c", "args": [null]}`, "args[0] must be text, not null"},
		{`{"command": "c", "args": {"a": "b"}}`, "args must be a list of text, not an object"},
		{`{"command": "c", "env": ["A=B"]}`, "env must be an object of text values, not a list"},
		{`{"command": "c", "env": {"A": true}}`, "env.A must be text, not a boolean"},
		{`{"command": "c", "env": {"A=B": "x"}}`, `env has the name "A=B"`},
		{`{"command": "c\u0000d"}`, "command contains a NUL character"},
		{`{"command": "c", "cwd": 1}`, "cwd must be text"},
		{`{"command": "c", "envFile": ".env"}`, "which was not read"},
		{`{"url": "https://x.example/mcp", "headers": "Authorization: x"}`, "headers must be an object"},
		{`{"url": "https://x.example/mcp", "headers": {"Bad Name": "x"}}`, `headers has the name "Bad Name"`},
		{`{"url": "https://x.example/mcp", "headers": {"A": "x\ny"}}`, "headers.A contains a line break"},
		{`{"url": "/relative"}`, "not an http or https address"},
		{`{"url": "https://x.example/${input:host}"}`, "inputs do not declare"},
		{`{"type": 3, "command": "c"}`, "type must be text, not a number"},
		{`{"type": "stdio", "url": "https://x.example"}`, "type is stdio but it has no command"},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			data := `{"mcpServers": {"bad": ` + tt.entry + `, "good": {"command": "npx"}}}`
			res, err := Parse([]byte(data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Servers) != 1 || res.Servers[0].Name != "good" {
				t.Fatalf("servers %+v, want only good", res.Servers)
			}
			if len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, tt.reason) {
				t.Fatalf("skipped %+v, want a reason containing %q", res.Skipped, tt.reason)
			}
		})
	}
}

// Names in the file become valid, distinct capability names, the same
// way every time.
func TestCapabilityNames(t *testing.T) {
	tests := []struct{ in, want string }{
		{"everything", "everything"},
		{"GitHub Server!", "github-server"},
		{"my_server.v2", "my-server-v2"},
		{"--x--", "x"},
		{"", "mcp-server"},
		{"!!!", "mcp-server"},
		{"日本語", "mcp-server"},
		{"Überserver", "berserver"},
		{strings.Repeat("a", 70), strings.Repeat("a", 64)},
		{strings.Repeat("a", 63) + "-b", strings.Repeat("a", 63)},
	}
	for _, tt := range tests {
		if got := capabilityName(tt.in); got != tt.want {
			t.Errorf("capabilityName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	taken := map[string]bool{"a": true, "a-2": true, strings.Repeat("b", 64): true}
	if got := uniqueName("a", taken); got != "a-3" {
		t.Errorf("uniqueName(a) = %q", got)
	}
	if got := uniqueName(strings.Repeat("b", 64), taken); got != strings.Repeat("b", 62)+"-2" {
		t.Errorf("uniqueName(64 b) = %q", got)
	}
}

// JSONC: comments and trailing commas go, strings are untouched.
func TestStandardJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": 1,}`, `{"a": 1 }`},
		{`[1, 2, /* c */ ]`, `[1, 2          ]`},
		{"{\"a\": \"// not a comment\", // a comment\n}", "{\"a\": \"// not a comment\"              \n}"},
		{`{"a": "x,}"}`, `{"a": "x,}"}`},
		{`{"a": "\"/*"}`, `{"a": "\"/*"}`},
	}
	for _, tt := range tests {
		got, err := standardJSON([]byte(tt.in), MaxDepth)
		if err != nil || string(got) != tt.want {
			t.Errorf("standardJSON(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// ${workspaceFolder} is the folder above the .vscode (or .cursor) folder
// holding the file, when the caller does not say.
func TestWorkspaceFolderFromFile(t *testing.T) {
	data := []byte(`{"servers": {"a": {"type": "stdio", "command": "${workspaceFolder}/run"}}}`)
	for file, want := range map[string]string{
		"/p/site/.vscode/mcp.json": "/p/site/run",
		"/p/site/.cursor/mcp.json": "/p/site/run",
	} {
		res, err := Parse(data, Options{File: file})
		if err != nil || len(res.Servers) != 1 || res.Servers[0].Command != want {
			t.Errorf("%s: %+v %v; want command %s", file, res, err, want)
		}
	}
	res, err := Parse(data, Options{File: "/p/mcp.json"})
	if err != nil || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "not in a project's .vscode folder") {
		t.Errorf("outside a project: %+v %v", res, err)
	}
}

// A server named like a capability that is not an MCP server (the
// built-in filesystem) is named NAME-mcp, with a note; names stay unique.
func TestReservedNames(t *testing.T) {
	data := []byte(`{"mcpServers": {"filesystem": {"command": "a"}, "filesystem-mcp": {"command": "b"}, "git": {"command": "c"}}}`)
	reserved := map[string]bool{"filesystem": true, "git": true, "git-mcp": true}
	res, err := Parse(data, Options{Reserved: func(n string) bool { return reserved[n] }})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range res.Servers {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "filesystem-mcp filesystem-mcp-2 git-mcp-2" {
		t.Fatalf("names %s", got)
	}
	if len(res.Servers[0].Notes) != 1 || !strings.Contains(res.Servers[0].Notes[0], "filesystem is the name of another capability") {
		t.Fatalf("notes %v", res.Servers[0].Notes)
	}
}
