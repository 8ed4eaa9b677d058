package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/agent"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/brain/provider"
	"github.com/wrasse-app/wrasse/brain/provider/anthropic"
	"github.com/wrasse-app/wrasse/brain/provider/openai"
	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// The server: 1,400 tools with 10,000-character descriptions.
const hugeTools, hugeDescription = 1400, 10000

// hugeRegistry is a workspace with one MCP capability, huge, whose
// in-process server lists hugeTools tools of hugeDescription characters,
// under the tool budget a default config.json gives.
// hugeConnectTimeout: listing 1,400 tools under -race on a loaded machine
// took over the default 30 s; this test is about budgets, not timeouts.
const hugeConnectTimeout = 10 * time.Minute

func hugeRegistry(t *testing.T) (*cerebellum.Registry, *store.DB, int) {
	t.Helper()
	ws := t.TempDir()
	dir := filepath.Join(cerebellum.CapabilitiesDir(ws), "huge")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	skill := "---\nname: huge\ndescription: A server with a great many tools.\nmcp:\n  command: huge-server\n---\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("It takes an id and does its one job carefully. ", hugeDescription/47+1)
	dial := func(ctx context.Context, _ string) (sdk.Transport, error) {
		srv := sdk.NewServer(&sdk.Implementation{Name: "huge", Version: "1.0"}, nil)
		for i := range hugeTools {
			desc := fmt.Sprintf("Operation %d. ", i)
			if i == 777 {
				desc = "Create an invoice for a customer. "
			}
			srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("op_%04d", i), Description: (desc + filler)[:hugeDescription],
				InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`),
				Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
				})
		}
		st, ct := sdk.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			return nil, err
		}
		return ct, nil
	}
	db, err := store.Open(filepath.Join(ws, "wrasse.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	budget := workspace.Config{}.WithDefaults().EffectiveToolBudget()
	fsys := fstest.MapFS{"tool-discovery/SKILL.md": {Data: builtinFile(t, "tool-discovery/SKILL.md")}}
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: fsys, Workspace: ws, States: db, Catalogs: db, ToolBudget: budget,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: mcp.NewLoader(mcp.Options{Dial: dial, ConnectTimeout: hugeConnectTimeout})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	// Written by hand, the server is off until the person enables it.
	if err := manage.New(reg, manage.Options{}).Enable("huge", nil); err != nil {
		t.Fatal(err)
	}
	return reg, db, budget
}

// One MCP server whose tools are far bigger than the tool budget, loaded
// with tool_activate and then called: every request stays within the
// budget (on main the first request after the load carried all 1,400
// tools, 14 MB), the tools most relevant to the query are the ones
// loaded, a tool not loaded runs when called and joins the request after
// the others, and the activation result names what was left out.
func TestHugeMCPServerStaysWithinTheToolBudget(t *testing.T) {
	tests := []struct {
		name   string
		format providertest.Format
		model  string
		build  func(url, model string) (provider.Provider, error)
		// activate is tool_activate's arguments; first the tool the
		// server's run of the next request starts with.
		activate, first string
	}{
		{"OpenAI-compatible, no query", providertest.OpenAI, "llama3.1", func(url, model string) (provider.Provider, error) {
			return openai.New(openai.Config{BaseURL: url, Model: model})
		}, `{"capability":"huge"}`, "huge__op_0000"},
		{"OpenAI-compatible, a query", providertest.OpenAI, "llama3.1", func(url, model string) (provider.Provider, error) {
			return openai.New(openai.Config{BaseURL: url, Model: model})
		}, `{"capability":"huge","query":"create an invoice"}`, "huge__op_0777"},
		{"Anthropic with deferred tools", providertest.Anthropic, "claude-sonnet-4-5", func(url, model string) (provider.Provider, error) {
			return anthropic.New(anthropic.Config{BaseURL: url, APIKey: "k", Model: model})
		}, `{"capability":"huge","query":"create an invoice"}`, "huge__op_0777"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, db, budget := hugeRegistry(t)
			srv := providertest.NewModel(t, tt.format)
			srv.Reply(providertest.ToolCall("tool_activate", tt.activate).WithID("call_load"))
			srv.Reply(providertest.ToolCall("huge__op_0042", `{"id":"7"}`).WithID("call_op"))
			srv.Reply(providertest.Text("Done."))
			prov, err := tt.build(srv.BaseURL(), tt.model)
			if err != nil {
				t.Fatal(err)
			}
			a, err := agent.New(agent.Options{Registry: reg, Store: db, Provider: prov, Approver: gate.DenyAll{}, Model: tt.model,
				ContextWindow: workspace.DefaultContextWindow})
			if err != nil {
				t.Fatal(err)
			}
			id, err := a.Turn(t.Context(), newConv(t, db), "Bill customer 7.", &sink{})
			if err != nil {
				t.Fatal(err)
			}
			if got := reg.Snapshot().SchemaTokens("huge"); got < 50*budget {
				t.Fatalf("the server's tools count %d tokens; the test wants them far over the budget of %d", got, budget)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests; want 3", len(reqs))
			}
			for i, r := range reqs {
				var huge []string
				tokens := 0
				for _, tl := range r.Tools {
					if strings.HasPrefix(tl.Name, "huge__") {
						huge = append(huge, tl.Name)
						tokens += schemaTokens(tl)
					}
				}
				if tokens > budget || len(r.Body) > 256<<10 {
					t.Errorf("request %d: the server's %d tools count %d tokens (budget %d), the body is %d bytes", i+1, len(huge), tokens, budget, len(r.Body))
				}
				switch i {
				case 1:
					if len(huge) == 0 || huge[0] != tt.first {
						t.Errorf("request 2 carries %v; want %s first", huge, tt.first)
					}
				case 2:
					if len(huge) == 0 || huge[len(huge)-1] != "huge__op_0042" || huge[0] != tt.first {
						t.Errorf("request 3 carries %v; want op_0042 added last, %s kept first", huge, tt.first)
					}
				}
			}
			var activation, op string
			for _, e := range events(t, db, id) {
				if e.Type == store.EventToolResult && e.ToolCallID == "call_load" {
					activation = e.Text
				}
				if e.Type == store.EventToolResult && e.ToolCallID == "call_op" {
					op = e.Text
				}
			}
			for _, want := range []string{"Loaded huge partly: its 1400 tools exceed the tool budget", tt.first, "Not loaded (", "huge__op_0001", "tool_search"} {
				if !strings.Contains(activation, want) {
					t.Errorf("the activation result lacks %q:\n%.1500s", want, activation)
				}
			}
			if op != "done" {
				t.Errorf("the call of a tool not loaded answered %q", op)
			}
		})
	}
}

// schemaTokens counts a tool as the tool budget does: its OpenAI-style
// wrapper at one token per 3.5 bytes.
func schemaTokens(tl providertest.Tool) int {
	desc, _ := json.Marshal(tl.Description)
	s := `{"type":"function","function":{"name":"` + tl.Name + `","description":` + string(desc) + `,"parameters":` + string(tl.Parameters) + "}}"
	return (2*len(s) + 6) / 7
}
