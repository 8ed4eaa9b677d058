package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/assistant"
)

// testServerEnv makes the test binary an MCP server on stdio instead of
// running the tests: "ok" serves two tools, "fail" writes to stderr and
// exits as a misconfigured server does.
const testServerEnv = "WRASSE_TEST_MCP_SERVER"

func init() {
	switch os.Getenv(testServerEnv) {
	case "":
		return
	case "fail":
		fmt.Fprintln(os.Stderr, "starting test server")
		fmt.Fprintln(os.Stderr, "fatal: TEST_API_KEY is not set")
		os.Exit(3)
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "wrasse-test-server", Version: "1.0"}, nil)
	type echoIn struct {
		Message string `json:"message"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echo the message back.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Message}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "write_note", Description: "Write a note to disk."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "written"}}}, nil, nil
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// testBinary is this test binary, which serves MCP with testServerEnv,
// in a folder of its own (mcptest.ServerExecutable).
func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := mcptest.ServerExecutable(t)
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// mustCLI runs a command that must succeed and returns its stdout.
func mustCLI(t *testing.T, ws string, args ...string) string {
	t.Helper()
	code, out, errOut := cli(t, ws, args...)
	if code != 0 {
		t.Fatalf("wrasse %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// stateIn opens the workspace and reads a capability's stored state.
func disabledIn(t *testing.T, ws, name string) bool {
	t.Helper()
	app, err := assistant.Open(assistant.Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	st, err := manage.New(app.Engine().Registry, manage.Options{}).State(name)
	if err != nil {
		t.Fatal(err)
	}
	return st.Disabled
}

// Adding by hand: a command (everything after -- taken as given, flags
// included) or a URL with headers; enabled at once; a token in a header
// stored as a secret. list shows both; remove trashes one.
func TestMCPAddListRemove(t *testing.T) {
	ws := t.TempDir()
	out := mustCLI(t, ws, "mcp", "add", "everything", "--env", "LOG_LEVEL=debug", "--", "npx", "-y", "@modelcontextprotocol/server-everything", "--json")
	if !strings.Contains(out, "Added everything, enabled. It runs: LOG_LEVEL=debug npx -y @modelcontextprotocol/server-everything --json") {
		t.Fatalf("add said:\n%s", out)
	}
	if disabledIn(t, ws, "everything") {
		t.Fatal("a server added by hand is switched off")
	}
	out = mustCLI(t, ws, "mcp", "add", "linear", "--url", "https://mcp.linear.app/mcp", "--header", "Authorization=Bearer lin_secret")
	if !strings.Contains(out, "https://mcp.linear.app/mcp (header Authorization: ${secret:mcp.linear.Authorization})") {
		t.Fatalf("add --url said:\n%s", out)
	}
	skill, err := os.ReadFile(filepath.Join(ws, "brain", "cerebellum", "linear", "SKILL.md"))
	if err != nil || strings.Contains(string(skill), "lin_secret") {
		t.Fatalf("SKILL.md holds the token or is missing (%v):\n%s", err, skill)
	}
	if out := mustCLI(t, ws, "secrets", "list"); !strings.Contains(out, "mcp.linear.Authorization") {
		t.Fatalf("secrets:\n%s", out)
	}

	out = mustCLI(t, ws, "mcp", "list")
	for _, want := range []string{"NAME", "everything", "LOG_LEVEL=debug npx -y", "linear", "https://mcp.linear.app/mcp"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	var rows []mcpRow
	if err := json.Unmarshal([]byte(mustCLI(t, ws, "mcp", "list", "--json")), &rows); err != nil || len(rows) != 2 || rows[0].Name != "everything" || rows[0].Known {
		t.Fatalf("list --json: %+v %v", rows, err)
	}

	out = mustCLI(t, ws, "mcp", "remove", "linear")
	if !strings.Contains(out, "Removed linear") || !strings.Contains(out, "mcp.linear.Authorization") {
		t.Fatalf("remove said:\n%s", out)
	}
	if out := mustCLI(t, ws, "mcp", "list"); strings.Contains(out, "linear") {
		t.Fatalf("removed server still listed:\n%s", out)
	}
}

// A server that signs in with a pre-registered OAuth client: the client
// secret typed on the command line is stored as a secret, the folder
// holds only its reference, and what it runs names the client; logout
// of a server never signed in says so.
func TestMCPAddOAuthClient(t *testing.T) {
	ws := t.TempDir()
	out := mustCLI(t, ws, "mcp", "add", "corp", "--url", "https://mcp.corp.example/mcp", "--oauth-client-id", "wrasse-desktop", "--oauth-client-secret", "cs-value-123")
	if !strings.Contains(out, "https://mcp.corp.example/mcp (OAuth client wrasse-desktop)") {
		t.Fatalf("add said:\n%s", out)
	}
	skill, err := os.ReadFile(filepath.Join(ws, "brain", "cerebellum", "corp", "SKILL.md"))
	if err != nil || strings.Contains(string(skill), "cs-value-123") || !strings.Contains(string(skill), "client_secret: ${secret:mcp.corp.oauth_client_secret}") {
		t.Fatalf("SKILL.md holds the client secret or no reference (%v):\n%s", err, skill)
	}
	if out := mustCLI(t, ws, "secrets", "list"); !strings.Contains(out, "mcp.corp.oauth_client_secret") || !strings.Contains(out, "assigned to corp") {
		t.Fatalf("secrets:\n%s", out)
	}
	if out := mustCLI(t, ws, "mcp", "logout", "corp"); !strings.Contains(out, "corp was not signed in") {
		t.Fatalf("logout said:\n%s", out)
	}
}

// What cannot be added is refused with one line saying why.
func TestMCPAddRefused(t *testing.T) {
	ws := workspaceWith(t)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mcp", "add", "x"}, exitUsage, "needs the command that starts the server"},
		{[]string{"mcp", "add", "x", "--url", "https://h.example/mcp", "--", "npx"}, exitUsage, "not both"},
		{[]string{"mcp", "add", "x", "--header", "A=b", "--", "npx"}, exitUsage, "--header is for a --url server"},
		{[]string{"mcp", "add", "x", "--url", "https://h.example/mcp", "--env", "A=b"}, exitUsage, "--env and --cwd are for a command"},
		{[]string{"mcp", "add", "x", "--header", "novalue", "--url", "https://h.example"}, exitUsage, `"novalue" is not K=V`},
		{[]string{"mcp", "add", "Bad Name", "--", "npx"}, exitFail, "is not a valid name"},
		{[]string{"mcp", "add", "x", "--url", "ftp://h.example"}, exitFail, "not an http or https address"},
		{[]string{"mcp", "add", "recipes", "--", "npx"}, exitFail, "a capability named recipes is installed"},
		{[]string{"mcp", "remove", "recipes"}, exitFail, "recipes is a guide capability"},
		{[]string{"mcp", "test", "recipes"}, exitFail, "not an MCP server"},
		{[]string{"mcp", "tools", "nosuch"}, exitFail, "no such capability"},
		// Every process can read a process's arguments.
		{[]string{"mcp", "add", "x", "--", "npx", "srv", "--token", "${secret:gh_token}"}, exitFail, "mcp.args[2]: a ${secret:…} cannot go in the command line"},
		{[]string{"mcp", "add", "x", "--", "npx", "--token=${secret:gh_token}"}, exitFail, "put it in env instead"},
		{[]string{"mcp", "add", "x", "--oauth-client-id", "id", "--", "npx"}, exitUsage, "--oauth-* flags are for a --url server"},
		{[]string{"mcp", "add", "x", "--url", "https://h.example/mcp", "--oauth-client-secret", "s"}, exitUsage, "--oauth-client-secret needs --oauth-client-id"},
		{[]string{"mcp", "add", "x", "--url", "https://h.example/mcp", "--oauth-client-metadata-url", "http://app.example/c.json"}, exitFail, "must be an https:// address with a path"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, ws, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d (want %d), stdout %q, stderr:\n%s", code, tt.code, out, errOut)
			}
		})
	}
}

// Import of each format installs what it takes switched off, says for
// every server taken or skipped why, and names the secrets to set.
func TestMCPImport(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		taken    []string
		skipped  []string
		secrets  []string
		contains []string
	}{
		{"claude", "claude/claude_desktop_config.json",
			[]string{"everything", "filesystem-mcp", "github-server", "github-server-2"},
			[]string{"broken-args", "port-number", "nothing", "everything"}, nil,
			[]string{"(Claude Desktop)", `github-server ("GitHub Server!" in the file)`, "GITHUB_PERSONAL_ACCESS_TOKEN='${secret:mcp.github-server.GITHUB_PERSONAL_ACCESS_TOKEN}'",
				"skipped  port-number: env.PORT must be text, not a number", "note: named filesystem-mcp: filesystem is the name of another capability", "note: the key \"disabled\" is not used", "wrasse caps enable NAME"}},
		{"cursor", "cursor/.cursor/mcp.json",
			[]string{"linear", "local-db", "berserver"},
			[]string{"legacy-sse", "ftp", "both", "injected", "asks"}, []string{"DB_PASSWORD", "LINEAR_API_KEY"},
			[]string{"(Cursor)", "https://mcp.linear.app/mcp (header Authorization: Bearer ${secret:LINEAR_API_KEY})", "wrasse secrets set LINEAR_API_KEY", "SSE transport"}},
		{"vscode", "vscode/.vscode/mcp.json",
			[]string{"github", "perplexity"},
			[]string{"undeclared", "missing-env-file", "http-without-url", "odd-type", "not-an-object"}, []string{"gh_token", "perplexity-key"},
			[]string{"(VS Code)", "wrasse secrets set perplexity-key   (Perplexity API Key; input:perplexity-key; used by perplexity)", "PERPLEXITY_MODEL=sonar"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			root := t.TempDir()
			copyTree(t, filepath.Join("..", "..", "brain", "mcpimport", "testdata", tt.name), filepath.Join(root, tt.name))
			file := filepath.Join(root, tt.file)
			out := mustCLI(t, ws, "mcp", "import", file)
			for _, want := range tt.contains {
				if !strings.Contains(out, want) {
					t.Errorf("import lacks %q:\n%s", want, out)
				}
			}
			for _, name := range tt.taken {
				if !disabledIn(t, ws, name) {
					t.Errorf("%s was imported switched on", name)
				}
			}
			// The JSON report lists every server once, taken or skipped.
			ws2 := t.TempDir()
			var rep importReport
			if err := json.Unmarshal([]byte(mustCLI(t, ws2, "mcp", "import", file, "--json")), &rep); err != nil {
				t.Fatal(err)
			}
			var taken, skipped, secrets []string
			for _, s := range rep.Servers {
				if s.Taken {
					taken = append(taken, s.Name)
				} else {
					skipped = append(skipped, s.Original)
					if s.Reason == "" {
						t.Errorf("%s skipped without a reason", s.Original)
					}
				}
			}
			for _, s := range rep.Secrets {
				secrets = append(secrets, s.Name)
			}
			if fmt.Sprint(taken) != fmt.Sprint(tt.taken) || fmt.Sprint(skipped) != fmt.Sprint(tt.skipped) || fmt.Sprint(secrets) != fmt.Sprint(orNil(tt.secrets)) {
				t.Errorf("taken %v skipped %v secrets %v; want %v %v %v", taken, skipped, secrets, tt.taken, tt.skipped, tt.secrets)
			}
			// A second import takes nothing twice.
			again := mustCLI(t, ws, "mcp", "import", file)
			if strings.Contains(again, "taken ") || !strings.Contains(again, "is installed already") {
				t.Errorf("second import:\n%s", again)
			}
		})
	}
}

func orNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// copyTree copies src (hidden folders included) into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An imported server stays off until what it runs is approved: refused
// without --yes (saying what it runs and how to approve), enabled with it.
func TestCapsEnableApprovesMCP(t *testing.T) {
	ws := t.TempDir()
	file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	write(t, file, `{"mcpServers": {"everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}}}`)
	mustCLI(t, ws, "mcp", "import", file)
	code, out, errOut := cli(t, ws, "caps", "enable", "everything")
	if code != exitFail || !strings.Contains(errOut, "enabling everything runs npx -y @modelcontextprotocol/server-everything") ||
		!strings.Contains(errOut, "→ wrasse caps enable everything --yes") {
		t.Fatalf("without --yes: exit %d\n%s%s", code, out, errOut)
	}
	if !disabledIn(t, ws, "everything") {
		t.Fatal("enabled without approval")
	}
	code, out, errOut = cli(t, ws, "caps", "enable", "everything", "--yes")
	if code != 0 || !strings.Contains(errOut, "Approved: everything runs npx -y @modelcontextprotocol/server-everything") {
		t.Fatalf("with --yes: exit %d\n%s%s", code, out, errOut)
	}
	if disabledIn(t, ws, "everything") {
		t.Fatal("still off after approval")
	}
	// Once on, enabling again asks nothing.
	mustCLI(t, ws, "caps", "enable", "everything")
}

// test connects to a real stdio server (this binary) and lists its tools
// with annotations; tools then shows them from the cache without a server;
// a server that fails shows its stderr.
func TestMCPTestAndTools(t *testing.T) {
	ws := t.TempDir()
	exe := testBinary(t)
	code, out, errOut := cli(t, ws, "mcp", "tools", "srv")
	if code != exitFail || !strings.Contains(errOut, "no such capability") {
		t.Fatalf("tools of nothing: %d %s%s", code, out, errOut)
	}
	mustCLI(t, ws, "mcp", "add", "srv", "--env", testServerEnv+"=ok", "--", exe)
	code, out, errOut = cli(t, ws, "mcp", "tools", "srv")
	if code != exitFail || !strings.Contains(errOut, "not known yet") || !strings.Contains(errOut, "→ wrasse mcp test srv") {
		t.Fatalf("tools before a test: %d %s%s", code, out, errOut)
	}
	out = mustCLI(t, ws, "mcp", "test", "srv")
	for _, want := range []string{"srv connected (wrasse-test-server", "2 tools", "srv__echo", "read-only", "allow (read-only)", "srv__write_note", "destructive", "ask once per chat", "Echo the message back."} {
		if !strings.Contains(out, want) {
			t.Errorf("test lacks %q:\n%s", want, out)
		}
	}
	out = mustCLI(t, ws, "mcp", "tools", "srv")
	if !strings.Contains(out, "srv: 2 tools, as listed") || !strings.Contains(out, "srv__write_note") {
		t.Errorf("tools from the cache:\n%s", out)
	}
	var tools []assistant.MCPTool
	if err := json.Unmarshal([]byte(mustCLI(t, ws, "mcp", "tools", "srv", "--json")), &tools); err != nil || len(tools) != 2 {
		t.Fatalf("tools --json: %v %v", tools, err)
	}
	if out := mustCLI(t, ws, "mcp", "list"); !strings.Contains(out, "srv") || !strings.Contains(out, " 2 ") {
		t.Errorf("list after a test shows no tool count:\n%s", out)
	}

	mustCLI(t, ws, "mcp", "add", "broken", "--env", testServerEnv+"=fail", "--", exe)
	code, out, errOut = cli(t, ws, "mcp", "test", "broken")
	if code != exitFail || !strings.Contains(errOut, "TEST_API_KEY is not set") {
		t.Fatalf("failing server: exit %d\n%s%s", code, out, errOut)
	}
}

// An imported server whose arguments carry a secret is skipped, saying to
// put it in env: in args any process could read it.
func TestMCPImportRefusesSecretInArgs(t *testing.T) {
	ws := t.TempDir()
	file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	cfg := `{"mcpServers": {
		"gh": {"command": "npx", "args": ["srv", "--token", "${env:GH_TOKEN}"]},
		"direct": {"command": "npx", "args": ["srv", "--token=${secret:gh_token}"]},
		"fine": {"command": "npx", "args": ["srv"], "env": {"GH_TOKEN": "${env:GH_TOKEN}"}}}}`
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var rep importReport
	if err := json.Unmarshal([]byte(mustCLI(t, ws, "mcp", "import", file, "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Servers {
		switch s.Original {
		case "gh", "direct":
			if s.Taken || !strings.Contains(s.Reason, "cannot go in the command line") || !strings.Contains(s.Reason, "put it in env") {
				t.Errorf("%s: taken=%v reason %q", s.Original, s.Taken, s.Reason)
			}
		case "fine":
			if !s.Taken {
				t.Errorf("fine was skipped: %s", s.Reason)
			}
		}
	}
}
