package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/mcpbundle"
	"github.com/wrasse-app/wrasse/brain/mcpbundle/mcpbundletest"
	"github.com/wrasse-app/wrasse/cerebellum"
)

// openBundleTest opens a workspace whose MCP servers run in the sandbox,
// with this test binary as the launcher (TestMain).
func openBundleTest(t *testing.T) *App {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Open(Options{Workspace: t.TempDir(), Retries: -1, PluginChild: []string{exe, "__plugin"},
		Clock: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// A .mcpb built from a small Node server installs switched off, with its
// sensitive setting stored as a secret and referenced, its dependencies
// kept; once enabled (the command shown) its server starts in the MCP
// sandbox, lists its tools and answers calls with the settings given.
func TestInstallBundleRunsItsServerSandboxed(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if ci := os.Getenv("CI"); ci != "" && ci != "false" {
			t.Fatalf("node is not installed: %v", err)
		}
		t.Skipf("node is not installed: %v", err)
	}
	ctx := context.Background()
	a := openBundleTest(t)
	path := mcpbundletest.Pack(t, mcpbundletest.Echo(), "echo.mcpb", nil)

	b, err := a.OpenBundle(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "echo-bundle" {
		t.Fatalf("name %q; want echo-bundle", b.Name)
	}
	if _, err := a.InstallBundle(ctx, b, nil, false); !errors.Is(err, mcpbundle.ErrAnswer) || !strings.Contains(err.Error(), "API key (api_key): required") {
		t.Fatalf("without the required key: %v; want ErrAnswer naming it", err)
	}
	if _, err := a.reg.Get("echo-bundle"); !errors.Is(err, cerebellum.ErrNotFound) {
		t.Fatalf("a refused install left %v", err)
	}

	const key = "sk-bundle-test-1234"
	res, err := a.InstallBundle(ctx, b, mcpbundle.Answers{"api_key": {key}, "limit": {"25"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Disabled || slices.Contains(res.Ignored, "node_modules/") {
		t.Fatalf("%+v; want it installed switched off, node_modules kept", res)
	}
	c, err := a.reg.Get("echo-bundle")
	if err != nil {
		t.Fatal(err)
	}
	if c.State != cerebellum.StateDisabled || c.Kind != cerebellum.KindMCP {
		t.Fatalf("state %s kind %s; want a disabled MCP capability", c.State, c.Kind)
	}
	// The key is nowhere in the folder; the block references it.
	err = filepath.WalkDir(c.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(data), key) {
			t.Errorf("%s holds the secret", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := a.db.Secret("mcp.echo-bundle.api_key"); err != nil || v != key {
		t.Fatalf("stored secret %q, %v", v, err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "node_modules", "greet", "index.js")); err != nil {
		t.Fatalf("the bundled dependency is missing: %v", err)
	}
	s, err := a.MCPServerOf("echo-bundle")
	if err != nil {
		t.Fatal(err)
	}
	launch := s.Launch()
	for _, want := range []string{"node server/index.js --limit 25", "API_KEY='${secret:mcp.echo-bundle.api_key}'", "GREETING_STYLE=warm"} {
		if !strings.Contains(launch, want) {
			t.Errorf("launch %q does not show %q", launch, want)
		}
	}

	// Enabled as the person was shown it.
	if err := a.EnableShown("echo-bundle", nil, c.ApprovalKey()); err != nil {
		t.Fatal(err)
	}
	info, err := a.Sandbox("echo-bundle")
	if err != nil {
		t.Fatal(err)
	}
	if !info.Sandboxed {
		t.Fatalf("sandbox %+v; want the bundled server sandboxed", info)
	}
	t.Logf("sandbox: %s; enforced: %q", info.Summary, info.Enforced)
	rep, err := a.TestMCP(ctx, "echo-bundle")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range rep.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if strings.Join(names, ",") != "check_key,greet,read_file" {
		t.Fatalf("tools %q; want check_key,greet,read_file", names)
	}
	if err := a.reg.Start(ctx, "echo-bundle"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tool, args, want string }{
		{"greet", `{"who":"Ada"}`, "Hello, Ada! (greeting warm)"},
		{"check_key", `{}`, "key ok"},
	} {
		out, err := a.CallTool(ctx, "echo-bundle__"+tc.tool, json.RawMessage(tc.args), nil)
		if err != nil || out.Result.Content != tc.want {
			t.Errorf("%s: %+v, %v; want %q", tc.tool, out.Result, err, tc.want)
		}
	}
	// The sandbox holds: Wrasse's database is out of the server's reach.
	if st := info.Enforced; len(st) > 0 && strings.Contains(strings.Join(st, " "), "database") {
		db := a.Workspace().Database()
		if _, err := os.Stat(db); err == nil {
			out, err := a.CallTool(ctx, "echo-bundle__read_file", json.RawMessage(`{"path":`+jsonString(db)+`}`), nil)
			t.Logf("reading the database from the server: %s", out.Result.Content)
			if err != nil || !strings.HasPrefix(out.Result.Content, "refused") {
				t.Errorf("reading the database from the server: %+v, %v; want it refused", out.Result, err)
			}
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
