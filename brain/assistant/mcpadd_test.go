package assistant

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// skillOf reads the installed capability's SKILL.md.
func skillOf(t *testing.T, a *App, folder string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(a.Workspace().Capabilities(), folder, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A server added by hand is enabled at once, an imported one is installed
// switched off; both are MCP capabilities whose SKILL.md says what runs.
func TestAddMCPEnabledByHandDisabledByImport(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		imported bool
	}{
		{"by-hand", false},
		{"imported", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := openTest(t)
			s := MCPServer{Name: "everything", MCPServer: skillmd.MCPServer{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}, Env: map[string]string{"LOG_LEVEL": "info"}}}
			res, err := a.AddMCP(ctx, s, tt.imported)
			if err != nil {
				t.Fatal(err)
			}
			if res.Name != "everything" || res.Report.Kind != cerebellum.KindMCP || res.Disabled != tt.imported {
				t.Fatalf("result %+v (kind %s), want everything, mcp, disabled=%v", res, res.Report.Kind, tt.imported)
			}
			st, err := a.mgr.State("everything")
			if err != nil {
				t.Fatal(err)
			}
			if st.Disabled != tt.imported {
				t.Fatalf("stored state disabled=%v, want %v", st.Disabled, tt.imported)
			}
			got, err := a.MCPServerOf("everything")
			if err != nil {
				t.Fatal(err)
			}
			if got.Launch() != "LOG_LEVEL=info npx -y @modelcontextprotocol/server-everything" || got.Env["LOG_LEVEL"] != "info" {
				t.Fatalf("read back %+v", got)
			}
			md := skillOf(t, a, res.Folder)
			for _, want := range []string{"name: everything", "mcp:", "command: npx", "@modelcontextprotocol/server-everything"} {
				if !strings.Contains(md, want) {
					t.Errorf("SKILL.md lacks %q:\n%s", want, md)
				}
			}
		})
	}
}

// A literal token, key or password is stored as a secret and referenced;
// its value is nowhere in the capability's folder.
func TestAddMCPStoresSecretsNotValues(t *testing.T) {
	a := openTest(t)
	s := MCPServer{Name: "github", MCPServer: skillmd.MCPServer{Command: "docker", Args: []string{"run", "-i", "ghcr.io/github/github-mcp-server"}, Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_verysecretvalue", "LOG_LEVEL": "debug",
		"OTHER": "${secret:already_there}"}}}
	res, err := a.AddMCP(context.Background(), s, true)
	if err != nil {
		t.Fatal(err)
	}
	name := "mcp.github.GITHUB_PERSONAL_ACCESS_TOKEN"
	if v, err := a.db.Secret(name); err != nil || v != "ghp_verysecretvalue" {
		t.Fatalf("secret %s = %q, %v", name, v, err)
	}
	if a.HasSecret("already_there") {
		t.Error("a referenced secret was created")
	}
	md := skillOf(t, a, res.Folder)
	if strings.Contains(md, "ghp_verysecretvalue") {
		t.Fatalf("the token is in SKILL.md:\n%s", md)
	}
	got, err := a.MCPServerOf("github")
	if err != nil {
		t.Fatal(err)
	}
	if got.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "${secret:"+name+"}" || got.Env["LOG_LEVEL"] != "debug" {
		t.Fatalf("env %v", got.Env)
	}
	if want := []string{"already_there", name}; strings.Join(got.Secrets(), ",") != strings.Join(want, ",") {
		t.Fatalf("Secrets() = %v, want %v", got.Secrets(), want)
	}
	if ap := got.Launch(); !strings.Contains(ap, " docker run -i ghcr.io/github/github-mcp-server") ||
		!strings.Contains(ap, "GITHUB_PERSONAL_ACCESS_TOKEN='${secret:"+name+"}'") || strings.Contains(ap, "ghp_") {
		t.Fatalf("approval text:\n%s", ap)
	}
}

// What cannot be a server is refused before anything is written: no
// folder, no secret.
func TestAddMCPRefusesInvalid(t *testing.T) {
	tests := []struct {
		name string
		s    MCPServer
		want error
	}{
		{"bad name", MCPServer{Name: "My Server", MCPServer: skillmd.MCPServer{Command: "x"}}, ErrInvalidMCP},
		{"empty name", MCPServer{MCPServer: skillmd.MCPServer{Command: "x"}}, ErrInvalidMCP},
		{"nothing to run", MCPServer{Name: "a"}, ErrInvalidMCP},
		{"blank command", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "  "}}, ErrInvalidMCP},
		{"both", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "x", URL: "https://h.example/mcp"}}, ErrInvalidMCP},
		{"not http", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{URL: "file:///etc/passwd"}}, ErrInvalidMCP},
		{"no host", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{URL: "https:///mcp"}}, ErrInvalidMCP},
		{"args with url", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{URL: "https://h.example/mcp", Args: []string{"x"}}}, ErrInvalidMCP},
		{"headers with command", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "x", Headers: map[string]string{"A": "b"}}}, ErrInvalidMCP},
		{"env name", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "x", Env: map[string]string{"A=B": "c", "API_TOKEN": "t"}}}, ErrInvalidMCP},
		{"nul", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "x\x00y"}}, ErrInvalidMCP},
		{"header injection", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{URL: "https://h.example/mcp", Headers: map[string]string{"X-Key": "a\r\nHost: evil"}}}, ErrInvalidMCP},
		{"header name", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{URL: "https://h.example/mcp", Headers: map[string]string{"Bad Name": "x"}}}, ErrInvalidMCP},
		{"secret name", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "x", Env: map[string]string{"K": "${secret:not valid}"}}}, ErrInvalidMCP},
		// A process's arguments are readable by every process.
		{"secret in args", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "x", Args: []string{"--token", "${secret:gh_token}"}}}, ErrInvalidMCP},
		{"secret inside an arg", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "x", Args: []string{"--token=${secret:gh_token}"}}}, ErrInvalidMCP},
		{"secret in command", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{Command: "${secret:gh_token}"}}, ErrInvalidMCP},
		{"secret in url host", MCPServer{Name: "a", MCPServer: skillmd.MCPServer{URL: "https://${secret:gh_token}.h.example/mcp"}}, ErrInvalidMCP},
	}
	for _, tt := range tests {
		for _, imported := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/imported=%v", tt.name, imported), func(t *testing.T) {
				a := openTest(t)
				_, err := a.AddMCP(context.Background(), tt.s, imported)
				if !errors.Is(err, tt.want) {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
				if slices.ContainsFunc(tt.s.Args, skillmd.HasSecretRef) && !strings.Contains(err.Error(), "put it in env") {
					t.Errorf("the error does not point to env: %v", err)
				}
				entries, _ := os.ReadDir(a.Workspace().Capabilities())
				if len(entries) != 0 {
					t.Errorf("the capability folder holds %v", entries)
				}
				if names, _ := a.SecretNames(); len(names) != 0 {
					t.Errorf("secrets stored: %v", names)
				}
			})
		}
	}
}

// A name in use is refused, and the installed server's secrets stay as
// they were.
func TestAddMCPExistingName(t *testing.T) {
	a := openTest(t)
	ctx := context.Background()
	first := MCPServer{Name: "svc", MCPServer: skillmd.MCPServer{Command: "one", Env: map[string]string{"API_KEY": "first"}}}
	if _, err := a.AddMCP(ctx, first, false); err != nil {
		t.Fatal(err)
	}
	second := MCPServer{Name: "svc", MCPServer: skillmd.MCPServer{Command: "two", Env: map[string]string{"API_KEY": "second"}}}
	if _, err := a.AddMCP(ctx, second, false); !errors.Is(err, cerebellum.ErrExists) {
		t.Fatalf("got %v, want ErrExists", err)
	}
	if v, _ := a.db.Secret("mcp.svc.API_KEY"); v != "first" {
		t.Fatalf("the installed server's secret is now %q", v)
	}
	if s, _ := a.MCPServerOf("svc"); s.Command != "one" {
		t.Fatalf("the installed server now runs %q", s.Command)
	}
}

// An install refused after the secrets went in takes them out again.
func TestAddMCPRefusedInstallRestoresSecrets(t *testing.T) {
	a := openTest(t)
	if err := a.SetSecret("mcp.blocked.API_TOKEN", "before"); err != nil {
		t.Fatal(err)
	}
	// A stray file where the folder would go stops the install at the end.
	dir := a.Workspace().Capabilities()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "blocked"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := MCPServer{Name: "blocked", MCPServer: skillmd.MCPServer{Command: "x", Env: map[string]string{"API_TOKEN": "after", "DB_PASSWORD": "pw"}}}
	if _, err := a.AddMCP(context.Background(), s, false); err == nil {
		t.Fatal("installed over a stray file")
	}
	if v, _ := a.db.Secret("mcp.blocked.API_TOKEN"); v != "before" {
		t.Errorf("API_TOKEN = %q, want the value from before", v)
	}
	if a.HasSecret("mcp.blocked.DB_PASSWORD") {
		t.Error("a secret of the refused install stayed")
	}
}

// Headers and a working folder are kept in SKILL.md; a header's token is
// stored as a secret.
func TestAddMCPKeepsHeadersAndFolder(t *testing.T) {
	a := openTest(t)
	ctx := context.Background()
	s := MCPServer{Name: "remote", MCPServer: skillmd.MCPServer{URL: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer abc123", "Accept": "application/json"}}}
	res, err := a.AddMCP(ctx, s, false)
	if err != nil {
		t.Fatal(err)
	}
	md := skillOf(t, a, res.Folder)
	if !strings.Contains(md, "headers:") || !strings.Contains(md, "${secret:mcp.remote.Authorization}") || strings.Contains(md, "abc123") {
		t.Fatalf("SKILL.md:\n%s", md)
	}
	got, err := a.MCPServerOf("remote")
	if err != nil || got.Headers["Accept"] != "application/json" || got.Headers["Authorization"] != "${secret:mcp.remote.Authorization}" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if _, err := a.AddMCP(ctx, MCPServer{Name: "local", MCPServer: skillmd.MCPServer{Command: "srv", Cwd: "/srv/data"}}, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.MCPServerOf("local"); got.Cwd != "/srv/data" {
		t.Fatalf("cwd %q", got.Cwd)
	}
}

func TestLooksSecret(t *testing.T) {
	tests := []struct {
		kind, name string
		want       bool
	}{
		{"env", "GITHUB_PERSONAL_ACCESS_TOKEN", true},
		{"env", "OPENAI_API_KEY", true},
		{"env", "DB_PASSWORD", true},
		{"env", "AWS_SECRET_ACCESS_KEY", true},
		{"env", "GITLAB_PAT", true},
		{"env", "STRIPE_KEY", true},
		{"env", "LOG_LEVEL", false},
		{"env", "KEYBOARD_LAYOUT", false},
		{"env", "ALLOWED_PATHS", false},
		{"env", "PORT", false},
		{"header", "Authorization", true},
		{"header", "X-API-Key", true},
		{"header", "Cookie", true},
		{"header", "Accept", false},
		{"header", "X-Trace-Id", false},
	}
	for _, tt := range tests {
		if got := looksSecret(tt.kind, tt.name); got != tt.want {
			t.Errorf("looksSecret(%s, %s) = %v, want %v", tt.kind, tt.name, got, tt.want)
		}
	}
}

func TestMCPSecretNameFits(t *testing.T) {
	long := strings.Repeat("a", 64)
	n1, n2 := mcpSecretName(long, "API_TOKEN"), mcpSecretName(long, "API_TOKEN2")
	if !store.ValidName(n1) || !store.ValidName(n2) || n1 == n2 {
		t.Fatalf("names %q %q", n1, n2)
	}
	if got := mcpSecretName("svc", "x-api key"); got != "mcp.svc.x-api_key" {
		t.Fatalf("got %q", got)
	}
}

// Launch is the engine's rendering of what runs: what caps enable and the
// capability's page show.
func TestLaunchIsTheEnginesLine(t *testing.T) {
	s := MCPServer{MCPServer: skillmd.MCPServer{Command: "/opt/My Tools/srv", Args: []string{"--root", "/tmp/a b", "it's"}, Cwd: "/srv", Env: map[string]string{"K": "v"}}}
	want := `cd /srv && K=v '/opt/My Tools/srv' --root '/tmp/a b' 'it'\''s'`
	if got := s.Launch(); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	u := MCPServer{MCPServer: skillmd.MCPServer{URL: "https://h.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${secret:t}"}}}
	if got := u.Launch(); got != "https://h.example/mcp (header Authorization: Bearer ${secret:t})" {
		t.Fatalf("url: %s", got)
	}
}
