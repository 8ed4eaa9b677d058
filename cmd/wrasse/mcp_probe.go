package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// mcpTest connects to the server now and lists what it offers. A server
// that is off (never approved, changed since, or switched off) runs only
// once the person approved what it runs, as caps enable asks: shown on a
// terminal and asked, else --yes; and then only that.
func mcpTest(ctx context.Context, app *assistant.App, c *call, yes bool) error {
	shown, err := approveRun(app, c, yes, "Testing", "test")
	if err != nil {
		return err
	}
	var rep assistant.MCPReport
	if shown != "" {
		rep, err = app.TestMCPShown(ctx, c.args[0], shown)
	} else {
		rep, err = app.TestMCP(ctx, c.args[0])
	}
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, rep)
	}
	server := rep.Server
	if server == "" {
		server = "the server"
	}
	fmt.Fprintf(c.io.out, "%s connected (%s) in %s: %d tools, %d prompts, %d resources.\n", rep.Name, server,
		rep.Elapsed.Round(time.Millisecond), len(rep.Tools), len(rep.Prompts), len(rep.Resources))
	printMCPTools(c.io.out, rep.Tools)
	for _, p := range rep.Prompts {
		fmt.Fprintf(c.io.out, "prompt    %s  %s\n", p.Name, cerebellum.OneLine(p.Description, 80))
	}
	for _, r := range rep.Resources {
		fmt.Fprintf(c.io.out, "resource  %s  %s\n", r.URI, cerebellum.OneLine(r.Name, 60))
	}
	return nil
}

// mcpTools lists the tools as last listed, without starting the server.
func mcpTools(_ context.Context, app *assistant.App, c *call) error {
	rep, err := app.MCPCatalog(c.args[0])
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, rep.Tools)
	}
	if rep.Listed.IsZero() {
		return hint.With(fmt.Errorf("the tools of %s are not known yet: they are learnt when its server first connects", rep.Name),
			hint.Hint{Action: "Test the server", Command: []string{"mcp", "test", rep.Name}})
	}
	fmt.Fprintf(c.io.out, "%s: %d tools, as listed %s.\n", rep.Name, len(rep.Tools), rep.Listed.Local().Format("2006-01-02 15:04"))
	printMCPTools(c.io.out, rep.Tools)
	return nil
}

// printMCPTools is one line per tool: the model's name, its annotations,
// what the gate does with a call, and its description.
func printMCPTools(w io.Writer, tools []assistant.MCPTool) {
	if len(tools) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tANNOTATIONS\tRUNS\tDESCRIPTION")
	for _, t := range tools {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ModelName, annotationsText(t), runsText(t), cerebellum.OneLine(t.Description, 70))
	}
	tw.Flush()
}

// annotationsText names the hints a tool gives.
func annotationsText(t assistant.MCPTool) string {
	if h := t.Hints(); len(h) > 0 {
		return strings.Join(h, ",")
	}
	return "-"
}

// runsText says what the gate does with a call, and why.
func runsText(t assistant.MCPTool) string {
	switch {
	case t.Runs == "never":
		return "never (your rule)"
	case t.Policy == cerebellum.PolicyAlways:
		return "allow (your rule)"
	case t.Runs == "allow":
		return "allow (read-only)"
	}
	return "ask once per chat"
}

// approveLaunch is `caps enable` for an MCP server that is off (switched
// off, or its command was never approved or changed since) or whose files
// changed since its approval: it shows exactly what enabling runs and
// goes on only when the user approves, on the terminal or with --yes. It
// returns the ApprovalKey of what it showed, for App.EnableShown ("" when
// no approval was needed: other capabilities, a server on and approved).
func approveLaunch(app *assistant.App, c *call, yes bool) (string, error) {
	return approveRun(app, c, yes, "Enabling", "enable")
}

// approveRun shows what MCP capability c.args[0] runs and asks the person
// to approve it (doing says what approving does, verb the flag's command),
// when it is off or its files changed since it was approved.
func approveRun(app *assistant.App, c *call, yes bool, doing, verb string) (string, error) {
	capability, err := app.Capabilities().Get(c.args[0])
	if err != nil || capability.Kind != cerebellum.KindMCP || capability.Manifest == nil || capability.Manifest.MCP == nil ||
		capability.Source != cerebellum.SourceWorkspace {
		return "", nil // the command reports a missing capability itself; one that ships with Wrasse needs no approval
	}
	if capability.Manifest.MCP.URL != "" && capability.State != cerebellum.StateDisabled {
		return "", nil
	}
	// What it shows is what is approved: the key is taken before the
	// command line is printed, and EnableShown refuses another.
	shown := capability.ApprovalKey()
	if capability.State != cerebellum.StateDisabled && (verb == "test" || capability.Approved == shown) {
		return "", nil // on and approved; a test of it holds to its approval
	}
	launch := capability.Launch()
	if !c.g.json {
		switch {
		case capability.Unapproved != "":
			fmt.Fprintf(c.io.err, "%s is off: %s.\n", capability.Name, capability.Unapproved)
		case capability.State != cerebellum.StateDisabled:
			fmt.Fprintf(c.io.err, "%s does not start: the files its command runs changed since it was approved.\n", capability.Name)
		}
	}
	if yes {
		if !c.g.json {
			fmt.Fprintf(c.io.err, "Approved: %s runs %s\n", capability.Name, launch)
		}
		return shown, nil
	}
	if isTerminal(c) {
		fmt.Fprintf(c.io.err, "%s %s runs this on your computer:\n  %s\nApprove? [y/N] ", doing, capability.Name, launch)
		line, _ := bufio.NewReader(c.io.in).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
			return shown, nil
		}
		return "", fmt.Errorf("%s was not run: %w", capability.Name, errNotApproved)
	}
	page := hint.Hint{Action: "Approve and " + verb, Command: []string{"caps", "enable", capability.Name, "--yes"}, Page: hint.PageCapability, Target: capability.Name}
	if verb == "test" {
		page.Command = []string{"mcp", "test", capability.Name, "--yes"}
	}
	return "", hint.With(fmt.Errorf("%w: %s %s runs %s; read it, then approve with --yes (or in the window: Settings, MCP servers)",
		errNotApproved, strings.ToLower(doing), capability.Name, launch), page)
}
