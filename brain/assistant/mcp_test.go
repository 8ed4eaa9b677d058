package assistant

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/mcp/mcptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// testServerEnv makes this test binary an MCP server over stdio (see
// TestMain), so the core is tested against a real process.
const testServerEnv = "WRASSE_TEST_MCP_SERVER"

func TestMain(m *testing.M) {
	// This test binary is also the sandbox launcher, as the app's hidden
	// `wrasse __sandbox-exec` subcommand is (bundle tests).
	if len(os.Args) > 1 && os.Args[1] == plugins.SandboxCommand {
		os.Exit(sandbox.Main(os.Args[2:], os.Stderr))
	}
	if os.Getenv(testServerEnv) == "1" {
		serveTestMCP()
		return
	}
	os.Exit(m.Run())
}

func serveTestMCP() {
	s := sdk.NewServer(&sdk.Implementation{Name: "assistant-test", Version: "1.0"}, nil)
	no := false
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echoes.", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var a struct{ Message string }
			_ = json.Unmarshal(req.Params.Arguments, &a)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + a.Message}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "save", Description: "Saves.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &no}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "saved"}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "hello", Description: "Greets."},
		func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{}, nil
		})
	_ = s.Run(context.Background(), &sdk.StdioTransport{})
}

func addTestServer(t *testing.T, a *App, imported bool) {
	t.Helper()
	exe, err := mcptest.ServerExecutable(t)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.AddMCP(context.Background(), MCPServer{Name: "gosrv", MCPServer: skillmd.MCPServer{Command: exe, Env: map[string]string{testServerEnv: "1"}}}, imported); err != nil {
		t.Fatal(err)
	}
}

func TestMCPCore(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	addTestServer(t, a, false)
	if tools, err := a.MCPTools("gosrv"); err != nil || len(tools) != 0 {
		t.Fatalf("MCPTools before any connection = %v, %v; want none", tools, err)
	}
	rep, err := a.TestMCP(ctx, "gosrv")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Server != "assistant-test 1.0" || len(rep.Tools) != 2 || len(rep.Prompts) != 1 || !strings.Contains(rep.Launch, testServerEnv+"=1") {
		t.Fatalf("report = %+v", rep)
	}
	if st, _ := a.MCPStatus("gosrv"); st.State != cerebellum.RuntimeStopped {
		t.Errorf("Test left the server %s", st.State)
	}
	tools, err := a.MCPTools("gosrv")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]MCPTool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	if e := byName["echo"]; e.ModelName != "gosrv__echo" || !e.ReadOnly || e.Runs != "allow" {
		t.Errorf("echo = %+v", e)
	}
	if s := byName["save"]; s.Destructive || s.Runs != "ask" || s.Policy != cerebellum.PolicyAsk {
		t.Errorf("save = %+v", s)
	}
	// The cache makes the tools callable and searchable now.
	if v := a.Check("gosrv__save", nil); v.Decision != gate.Confirm {
		t.Errorf("save: %s; want confirm", v.Decision)
	}
	out, err := a.CallTool(ctx, "gosrv__echo", json.RawMessage(`{"message":"hi"}`), nil)
	if err != nil || !out.Ran || out.Result.Content != "Echo: hi" {
		t.Fatalf("CallTool echo = %+v, %v", out, err)
	}
	if err := a.SetMCPToolPolicy("gosrv", "save", cerebellum.PolicyNever); err != nil {
		t.Fatal(err)
	}
	if v := a.Check("gosrv__save", nil); v.Decision != gate.Block {
		t.Errorf("save after never: %s; want block", v.Decision)
	}
	tools, _ = a.MCPTools("gosrv")
	for _, tl := range tools {
		if tl.Name == "save" && (tl.Policy != cerebellum.PolicyNever || tl.Runs != "never") {
			t.Errorf("save after never = %+v", tl)
		}
	}
	if err := a.SetMCPToolPolicy("gosrv", "save", "sometimes"); err == nil {
		t.Error("an unknown policy was accepted")
	}
	if _, err := a.MCPTools("history"); err == nil {
		t.Error("MCPTools of a capability that is not an MCP server succeeded")
	}
}

func TestMCPImportedShowsLaunchAndStaysOff(t *testing.T) {
	a := openTest(t)
	addTestServer(t, a, true)
	c, err := a.reg.Get("gosrv")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := a.MCPCatalog("gosrv")
	if err != nil {
		t.Fatal(err)
	}
	if c.State != cerebellum.StateDisabled || rep.Launch == "" || rep.Launch != c.Launch() {
		t.Fatalf("imported: state %s, launch %q (capability %q)", c.State, rep.Launch, c.Launch())
	}
	if st, _ := a.MCPStatus("gosrv"); st.State != cerebellum.RuntimeStopped {
		t.Errorf("an imported server runs: %s", st.State)
	}
}

// Unloading an MCP capability from the only conversation that had it
// loaded stops its server at once; so does deleting the conversation.
func TestUnloadStopsTheServerNoConversationNeeds(t *testing.T) {
	ctx := context.Background()
	a := openTest(t)
	addTestServer(t, a, false)
	if _, err := a.TestMCP(ctx, "gosrv"); err != nil {
		t.Fatal(err)
	}
	m := providertest.NewModel(t, providertest.OpenAI)
	useModel(t, a, m, "m")
	for i := 0; i < 2; i++ {
		m.Reply(providertest.ToolCall("gosrv__echo", `{"message":"hi"}`))
		m.Reply(providertest.Text("done"))
	}
	id, err := a.Turn(ctx, 0, "echo hi", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := a.MCPStatus("gosrv"); st.State != cerebellum.RuntimeRunning {
		t.Fatalf("after a call the server is %s, want running", st.State)
	}
	if err := a.Unload(id, "gosrv"); err != nil {
		t.Fatal(err)
	}
	if st, _ := a.MCPStatus("gosrv"); st.State != cerebellum.RuntimeStopped {
		t.Fatalf("after unloading the server is %s, want stopped", st.State)
	}
	id2, err := a.Turn(ctx, 0, "echo again", TurnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteConversation(ctx, id2); err != nil {
		t.Fatal(err)
	}
	if st, _ := a.MCPStatus("gosrv"); st.State != cerebellum.RuntimeStopped {
		t.Fatalf("after deleting the conversation the server is %s, want stopped", st.State)
	}
}
