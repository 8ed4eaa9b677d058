package assistant

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// headerServer is a real streamable HTTP MCP server that records the
// headers it receives.
func headerServer(t *testing.T) (url string, seen func() []http.Header) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "headers", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "ping", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var mu sync.Mutex
	var got []http.Header
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp", func() []http.Header {
		mu.Lock()
		defer mu.Unlock()
		return append([]http.Header(nil), got...)
	}
}

// writeMCPFolder writes a capability by hand, as a person or a planted
// file would: nobody assigned its secrets.
func writeMCPFolder(t *testing.T, a *App, name, block string) {
	t.Helper()
	dir := filepath.Join(a.Workspace().Capabilities(), name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: " + name + "\ndescription: A server written by hand.\nmcp:\n" + block + "---\n# " + name + "\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := a.reg.Get(name); err != nil {
		t.Fatal(err)
	}
}

// An MCP configuration may name only the secrets the person assigned to
// that capability: a hand-written one naming gh_token and the OpenAI key
// is refused before anything is sent, with the name and the fix; after
// assigning (the provider key only explicitly) the server gets both.
func TestMCPSecretsOnlyWhenAssigned(t *testing.T) {
	const gh, key = "ghp-secret-0123456789", "sk-openai-0123456789"
	a := openTest(t)
	if err := a.SetSecret("gh_token", gh); err != nil {
		t.Fatal(err)
	}
	if err := a.SetAPIKey("openai", key); err != nil {
		t.Fatal(err)
	}
	url, seen := headerServer(t)
	writeMCPFolder(t, a, "remote", "  url: "+url+"\n  headers: {Authorization: 'Bearer ${secret:gh_token}', X-Api-Key: '${secret:openai_api_key}'}\n")

	_, err := a.TestMCP(context.Background(), "remote")
	h, _ := hint.Of(err)
	if !errors.Is(err, ErrSecretNotAssigned) || !strings.Contains(err.Error(), "gh_token") ||
		h.CommandLine() != "wrasse secrets assign gh_token remote" || h.Page != hint.PageCapability || h.Target != "remote" {
		t.Fatalf("unassigned gh_token: %v, hint %+v", err, h)
	}
	if n := len(seen()); n != 0 {
		t.Fatalf("the server was reached %d times before any secret was assigned", n)
	}
	if err := a.AssignSecret("gh_token", "remote", false); err != nil {
		t.Fatal(err)
	}
	_, err = a.TestMCP(context.Background(), "remote")
	h, _ = hint.Of(err)
	if !errors.Is(err, ErrSecretNotAssigned) || !strings.Contains(err.Error(), "openai_api_key, your OpenAI API key") ||
		h.CommandLine() != "wrasse secrets assign openai_api_key remote --provider-key" {
		t.Fatalf("unassigned provider key: %v, hint %+v", err, h)
	}
	if n := len(seen()); n != 0 {
		t.Fatalf("the server was reached %d times with the provider key unassigned", n)
	}
	// The provider key is assigned only when the person says so explicitly.
	err = a.AssignSecret(SecretOpenAI, "remote", false)
	if h, _ := hint.Of(err); !errors.Is(err, ErrProviderKey) || !strings.Contains(h.CommandLine(), "--provider-key") {
		t.Fatalf("assigning the provider key without saying so: %v", err)
	}
	if err := a.AssignSecret(SecretOpenAI, "remote", true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.TestMCP(context.Background(), "remote"); err != nil {
		t.Fatal(err)
	}
	hs := seen()
	if len(hs) == 0 || hs[0].Get("Authorization") != "Bearer "+gh || hs[0].Get("X-Api-Key") != key {
		t.Fatalf("after assigning, the server got %v", hs)
	}
	uses, err := a.SecretsOf("remote")
	if err != nil || len(uses) != 2 || !uses[0].Assigned || !uses[0].Referenced || !uses[1].ProviderKey || !uses[1].Stored {
		t.Errorf("SecretsOf = %+v, %v", uses, err)
	}
	// Withdrawn: refused again.
	if err := a.UnassignSecret("gh_token", "remote"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.TestMCP(context.Background(), "remote"); !errors.Is(err, ErrSecretNotAssigned) {
		t.Fatalf("after unassigning: %v", err)
	}
	if err := a.AssignSecret("gh_token", "nosuch", false); err == nil {
		t.Error("assigned to a capability that does not exist")
	}
}

// A stdio server's env is held to the same rule, before the process starts.
func TestMCPEnvSecretNotAssigned(t *testing.T) {
	a := openTest(t)
	if err := a.SetAPIKey("openai", "sk-openai-0123456789"); err != nil {
		t.Fatal(err)
	}
	exe, _ := mcptest.ServerExecutable(t)
	writeMCPFolder(t, a, "local", "  command: "+exe+"\n  env: {"+testServerEnv+": '1', OPENAI_API_KEY: '${secret:openai_api_key}'}\n")
	_, err := a.TestMCP(context.Background(), "local")
	if !errors.Is(err, ErrSecretNotAssigned) || !strings.Contains(err.Error(), "openai_api_key") {
		t.Fatalf("stdio server with the unassigned provider key: %v", err)
	}
}

// A ${secret:…} the person typed in `mcp add` (or the window's form) is
// theirs to give: assigned. A provider key typed there is not, without
// saying so; an imported server's references wait for the person, while
// the secrets made from its own literal values are its own.
func TestAddMCPAssigns(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	url, _ := headerServer(t)
	if _, err := a.AddMCP(ctx, MCPServer{Name: "typed", MCPServer: skillmd.MCPServer{URL: url, Headers: map[string]string{
		"X-Token": "${secret:gh_token}", "X-Key": "${secret:openai_api_key}", "Authorization": "Bearer literal-0123"}}}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AddMCP(ctx, MCPServer{Name: "imported", MCPServer: skillmd.MCPServer{URL: url, Headers: map[string]string{
		"X-Token": "${secret:gh_token}", "Authorization": "Bearer literal-4567"}}}, true); err != nil {
		t.Fatal(err)
	}
	for capName, want := range map[string]string{
		"typed":    "gh_token:assigned mcp.typed.Authorization:assigned openai_api_key:",
		"imported": "gh_token: mcp.imported.Authorization:assigned",
	} {
		uses, err := a.SecretsOf(capName)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range uses {
			s := u.Name + ":"
			if u.Assigned {
				s += "assigned"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %s, want %s", capName, strings.Join(got, " "), want)
		}
	}
}

// env.Secret in a plugin that does not ship with Wrasse: declared in its
// SKILL.md and env granted is not enough, the person must assign it.
func TestPluginSecretOnlyWhenAssigned(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	if _, err := a.Install(ctx, filepath.Join("..", "..", "plugins", "testdata", "secret"), false); err != nil {
		t.Fatal(err)
	}
	if err := a.Enable("secret", []string{"env"}); err != nil {
		t.Fatal(err)
	}
	if err := a.SetSecret("demo-token", "abc-0123456789"); err != nil {
		t.Fatal(err)
	}
	out, err := a.CallTool(ctx, "token", nil, nil)
	if err == nil && !out.Result.IsError {
		t.Fatalf("an unassigned secret was read: %+v", out)
	}
	if got := out.Result.Content + errString(err); !strings.Contains(got, "you did not assign it to secret") || !strings.Contains(got, "demo-token") {
		t.Fatalf("unassigned: %q", got)
	}
	if err := a.AssignSecret("demo-token", "secret", false); err != nil {
		t.Fatal(err)
	}
	out, err = a.CallTool(ctx, "token", nil, nil)
	if err != nil || !strings.Contains(out.Result.Content, "secret has 14 characters") {
		t.Fatalf("after assigning: %+v, %v", out, err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
