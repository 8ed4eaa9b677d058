package settings

//lint:file-ignore SA1019 MCP roots and logging are deprecated from protocol 2026-07-28 on and still what servers of earlier versions (most) use

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// serverEnv makes this test binary an MCP server on stdio: "ok" serves a
// read-only echo and a write tool, "fail" writes to stderr and exits as a
// misconfigured server does.
const serverEnv = "WRASSE_TEST_MCP_SERVER"

func init() {
	switch os.Getenv(serverEnv) {
	case "":
		return
	case "fail":
		fmt.Fprintln(os.Stderr, "fatal: DEMO_TOKEN is not set")
		os.Exit(3)
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "page-test-server", Version: "1.0"}, nil)
	type in struct {
		Message string `json:"message"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echo the message back.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest, v in) (*sdk.CallToolResult, any, error) {
			// What it logs goes to the page's log view (TestMCPPageLogView).
			_ = req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "debug", Data: "echo details: " + v.Message})
			_ = req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Logger: "echo", Data: "echoing " + v.Message})
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: v.Message}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "write_note", Description: "Write a note."},
		func(_ context.Context, _ *sdk.CallToolRequest, v in) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil, nil
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

func exe(t *testing.T) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The page follows the built-in mcp capability: switched off it says so
// and nothing can be added or tested; on again, it wakes.
func TestMCPPageDependsOnMCPCapability(t *testing.T) {
	h := newHarness(t, nil)
	h.s.Show(hint.PageCapability, "")
	p := h.s.mcp
	if p.State() != depOK || p.Headline() != "" || p.addShow.Disabled() {
		t.Fatalf("state %v, headline %q, add disabled %v", p.State(), p.Headline(), p.addShow.Disabled())
	}
	if err := h.core.Disable(mcpName); err != nil {
		t.Fatal(err)
	}
	if p.State() != depOff || !strings.Contains(p.Headline(), "mcp capability is switched off") || !p.addShow.Disabled() || !p.form.add.Disabled() {
		t.Fatalf("off: state %v, headline %q, add disabled %v", p.State(), p.Headline(), p.addShow.Disabled())
	}
	if err := h.core.Enable(mcpName, nil); err != nil {
		t.Fatal(err)
	}
	if p.State() != depOK || p.Headline() != "" || p.addShow.Disabled() {
		t.Fatalf("on again: state %v, headline %q", p.State(), p.Headline())
	}
}

// Adding through the form installs an enabled server; Test lists its
// tools with their annotations; a tool's rule goes to the core; Disable
// and Remove (confirmed) do what they say.
func TestMCPPageAddTestRulesRemove(t *testing.T) {
	h := newHarness(t, nil)
	p := h.s.mcp
	h.s.tabs.Select(h.s.tabOf[pageMCP])
	h.tap("Add server…")
	test.Type(p.form.name, "demo")
	test.Type(p.form.command, exe(t))
	test.Type(p.form.vars, serverEnv+"=ok\nDEMO_TOKEN=tok-123")
	h.tap("Add server")
	if p.Selected() != "demo" || h.state("demo") != string(cerebellum.StateOK) {
		t.Fatalf("selected %q, state %s; outcome %q", p.Selected(), h.state("demo"), p.form.outcome.Text())
	}
	if !strings.Contains(p.launch.Text(), "DEMO_TOKEN='${secret:mcp.demo.DEMO_TOKEN}'") || strings.Contains(p.launch.Text(), "tok-123") {
		t.Fatalf("launch %q", p.launch.Text())
	}
	if !strings.Contains(p.toolsHd.Text, "not known yet") {
		t.Fatalf("tools before a test: %q", p.toolsHd.Text)
	}

	h.tap("Test")
	if !strings.Contains(p.outcome.Text(), "demo connected") || !strings.Contains(p.outcome.Text(), "2 tools") {
		t.Fatalf("test said %q; failure %q", p.outcome.Text(), p.failure.Text())
	}
	text := h.screenText()
	for _, want := range []string{"Tools: 2", "demo__echo", "read-only", "runs without asking", "demo__write_note", "may change or delete things", "asks the first time in a chat"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
	// Each rule's select shows the longest rule's name whole: Fyne sizes a
	// select by its placeholder, so that must be the widest rule (the
	// default "(Select one)" cut "As annotated" short in the window).
	for tool, sel := range p.rules {
		for _, r := range sel.Options {
			have := fyne.MeasureText(sel.PlaceHolder, theme.TextSize(), fyne.TextStyle{}).Width
			if need := fyne.MeasureText(r, theme.TextSize(), fyne.TextStyle{}).Width; have < need || !slices.Contains(sel.Options, sel.PlaceHolder) {
				t.Errorf("%s: the select is sized for %q, not the widest rule (%q)", tool, sel.PlaceHolder, r)
			}
		}
	}
	p.rules["write_note"].SetSelected(ruleNever)
	tools, err := h.core.MCPTools("demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools {
		if tool.Name == "write_note" && (tool.Policy != cerebellum.PolicyNever || tool.Runs != "never") {
			t.Fatalf("write_note: policy %s runs %s", tool.Policy, tool.Runs)
		}
	}
	if !strings.Contains(h.screenText(), "never runs") {
		t.Error("the page does not show the rule")
	}

	h.tap("Disable")
	if h.state("demo") != string(cerebellum.StateDisabled) {
		t.Fatalf("after Disable: %s", h.state("demo"))
	}
	h.tap("Remove…")
	h.tap("Yes")
	if h.state("demo") != "missing" || p.Selected() != "" {
		t.Fatalf("after Remove: %s, selected %q", h.state("demo"), p.Selected())
	}
}

// An imported server is off; Enable shows exactly what it runs and
// enables it only once approved.
func TestMCPPageEnableShowsWhatRuns(t *testing.T) {
	h := newHarness(t, nil)
	s := assistant.MCPServer{Name: "imported", MCPServer: skillmd.MCPServer{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}}}
	if _, err := h.core.AddMCP(context.Background(), s, true); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageCapability, "imported")
	p := h.s.mcp
	if p.Selected() != "imported" || h.s.Page() != hint.PageCapability || !strings.Contains(p.status.Text, "Switched off") {
		t.Fatalf("selected %q, status %q", p.Selected(), p.status.Text)
	}
	h.tap("Enable…")
	found := false
	for _, o := range h.onScreen() {
		if b, ok := o.(*codeBlock); ok && b.Text() == "npx -y @modelcontextprotocol/server-everything" {
			found = true
		}
	}
	if !found {
		t.Fatal("the approval dialog does not show the command line")
	}
	h.tap("Cancel")
	if h.state("imported") != string(cerebellum.StateDisabled) {
		t.Fatal("enabled without approval")
	}
	h.tap("Enable…")
	h.tap("Approve and enable")
	if h.state("imported") != string(cerebellum.StateOK) || !strings.Contains(p.outcome.Text(), "Enabled imported") {
		t.Fatalf("after approval: %s, %q", h.state("imported"), p.outcome.Text())
	}
}

// A server that fails to start shows why, with the server's own words.
func TestMCPPageTestFailureShowsStderr(t *testing.T) {
	h := newHarness(t, nil)
	if _, err := h.core.AddMCP(context.Background(), assistant.MCPServer{Name: "broken", MCPServer: skillmd.MCPServer{Command: exe(t), Env: map[string]string{serverEnv: "fail"}}}, false); err != nil {
		t.Fatal(err)
	}
	h.s.Show(hint.PageCapability, "broken")
	h.tap("Test")
	p := h.s.mcp
	if !strings.Contains(p.outcome.Text(), "broken did not connect") || !p.failure.Visible() || !strings.Contains(p.failure.Text(), "DEMO_TOKEN is not set") {
		t.Fatalf("outcome %q, failure %q", p.outcome.Text(), p.failure.Text())
	}
}

// The form refuses what is not a server before the core sees it, and the
// core's refusal shows under the form.
func TestMCPFormRefuses(t *testing.T) {
	h := newHarness(t, nil)
	p := h.s.mcp
	h.s.tabs.Select(h.s.tabOf[pageMCP])
	h.tap("Add server…")
	test.Type(p.form.name, "x")
	test.Type(p.form.command, "npx")
	test.Type(p.form.vars, "no equals sign")
	h.tap("Add server")
	if !strings.Contains(p.form.outcome.Text(), "Environment, line 1: write NAME=value") {
		t.Fatalf("outcome %q", p.form.outcome.Text())
	}
	p.form.vars.SetText("")
	p.form.name.SetText("Not Valid")
	h.tap("Add server")
	if !strings.Contains(p.form.outcome.Text(), "is not a valid name") || h.state("Not Valid") != "missing" {
		t.Fatalf("outcome %q", p.form.outcome.Text())
	}
	p.form.via.SetSelected(mcpViaURL)
	p.form.name.SetText("remote")
	p.form.url.SetText("ftp://example.com")
	h.tap("Add server")
	if !strings.Contains(p.form.outcome.Text(), "not an http or https address") {
		t.Fatalf("outcome %q", p.form.outcome.Text())
	}
}
