package assistant

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp"
)

// MCPToolPolicy is the user's rule for one tool of an MCP server:
// cerebellum.PolicyAsk (the default: a read-only tool runs, any other asks
// the first time in a conversation), PolicyAlways or PolicyNever.
type MCPToolPolicy = cerebellum.ToolPolicy

// MCPTool is one tool of an MCP server as its capability page shows it.
type MCPTool struct {
	// Name is the server's name of the tool; ModelName the name the model
	// calls it by (<capability>__<tool>, shortened to 64 characters).
	Name        string          `json:"name"`
	ModelName   string          `json:"modelName"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// The server's annotations (Destructive with the protocol's default).
	ReadOnly    bool `json:"readOnly,omitempty"`
	Destructive bool `json:"destructive,omitempty"`
	Idempotent  bool `json:"idempotent,omitempty"`
	OpenWorld   bool `json:"openWorld,omitempty"`
	// Policy is the user's rule; Runs says what the gate does with a
	// call: "allow", "ask" (the first time in a conversation) or "never".
	Policy MCPToolPolicy `json:"policy"`
	Runs   string        `json:"runs"`
}

// MCPReport is what an MCP server offers: from a fresh connection
// (TestMCP) or as last listed (MCPCatalog).
type MCPReport struct {
	Name string `json:"name"`
	// Launch is exactly what enabling the capability runs (the command
	// line or URL), secrets as ${secret:NAME}: show it for approval.
	Launch string `json:"launch"`
	// Server is the name and version the server gave (TestMCP only).
	Server    string                  `json:"server,omitempty"`
	Tools     []MCPTool               `json:"tools"`
	Prompts   []cerebellum.RemoteItem `json:"prompts,omitempty"`
	Resources []cerebellum.RemoteItem `json:"resources,omitempty"`
	// Listed is when the list was taken; Elapsed how long connecting and
	// listing took (TestMCP only).
	Listed  time.Time     `json:"listed,omitzero"`
	Elapsed time.Duration `json:"elapsed,omitempty"`
}

// mcpCapability returns MCP capability name.
func (a *App) mcpCapability(name string) (*cerebellum.Capability, error) {
	c, err := a.reg.Get(name)
	if err != nil {
		return nil, err
	}
	if c.Kind != cerebellum.KindMCP || c.Manifest == nil || c.Manifest.MCP == nil {
		return nil, fmt.Errorf("%w: %s is not an MCP server (kind %s)", ErrNotMCP, name, c.Kind)
	}
	return c, nil
}

// TestMCP starts a server of its own for MCP capability name (whatever
// its state: the user asked), lists its tools with their annotations, its
// prompts and resources, stores the list (so the index and tool_search
// know the tools) and stops it. A failure says why, with the last lines
// the server wrote. It runs the capability's command: for one installed
// disabled, show Launch and let the user approve first.
func (a *App) TestMCP(ctx context.Context, name string) (MCPReport, error) {
	return a.testMCP(ctx, name, "")
}

// TestMCPShown is TestMCP for a server whose command the person was just
// shown and agreed to run once: shown is its ApprovalKey as shown. When
// its block is not the one shown, nothing runs (cerebellum.ErrLaunchChanged);
// when a file its command runs changed, the MCP client refuses to start it.
func (a *App) TestMCPShown(ctx context.Context, name, shown string) (MCPReport, error) {
	return a.testMCP(ctx, name, shown)
}

func (a *App) testMCP(ctx context.Context, name, shown string) (MCPReport, error) {
	c, err := a.mcpCapability(name)
	if err != nil {
		return MCPReport{}, err
	}
	if shown != "" {
		if launch, _, _ := cerebellum.SplitApproval(shown); launch != cerebellum.LaunchKey(c.Manifest.MCP) {
			return MCPReport{Name: c.Name, Launch: c.Launch()}, fmt.Errorf("%w: %s: its mcp: block is not what you were shown; look at what it runs now", cerebellum.ErrLaunchChanged, c.Name)
		}
		// The probe holds to what was shown: its files are checked
		// against it when the server starts.
		shownCap := *c
		shownCap.Approved = shown
		c = &shownCap
	}
	l, ok := a.reg.Loader(cerebellum.KindMCP).(*mcp.Loader)
	if !ok {
		return MCPReport{}, fmt.Errorf("%w: this build has no MCP client", cerebellum.ErrNoRuntime)
	}
	req := cerebellum.LoadRequest{Capability: c, Workspace: a.ws.Root, Learn: func(cat cerebellum.Catalog) {
		if err := a.reg.Learn(c.Name, cat); err != nil {
			a.log.Warn("storing an MCP server's tools", "capability", c.Name, "error", err)
		}
	}}
	rep, err := l.Probe(ctx, req)
	if err != nil {
		return MCPReport{Name: c.Name, Launch: c.Launch()}, err
	}
	out := a.mcpReport(c.Name, c.Launch(), rep.Catalog)
	out.Server, out.Elapsed = rep.Server, rep.Elapsed
	return out, nil
}

// MCPCatalog is what MCP capability name's server offered when last
// listed (its tools, prompts and resources), without starting it; a
// server never listed gives an empty report.
func (a *App) MCPCatalog(name string) (MCPReport, error) {
	c, err := a.mcpCapability(name)
	if err != nil {
		return MCPReport{}, err
	}
	cat, _, err := a.reg.Catalog(c.Name)
	if err != nil {
		return MCPReport{}, err
	}
	return a.mcpReport(c.Name, c.Launch(), cat), nil
}

// MCPTools lists MCP capability name's tools as last listed (from the
// workspace database; no server is started), with the user's policy.
func (a *App) MCPTools(name string) ([]MCPTool, error) {
	rep, err := a.MCPCatalog(name)
	if err != nil {
		return nil, err
	}
	return rep.Tools, nil
}

// SetMCPToolPolicy sets the user's rule for tool (the server's name or
// the model's) of MCP capability name; it is kept with the capability's
// settings and applies to the next call.
func (a *App) SetMCPToolPolicy(name, tool string, policy MCPToolPolicy) error {
	p, err := cerebellum.ParseToolPolicy(string(policy))
	if err != nil {
		return err
	}
	if _, err := a.mcpCapability(name); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mgr.SetToolPolicy(name, tool, p)
}

// MCPStatus says whether MCP capability name's server runs, and its last
// failure (a crash, a failed start) with the server's last output.
func (a *App) MCPStatus(name string) (cerebellum.RuntimeStatus, error) {
	c, err := a.mcpCapability(name)
	if err != nil {
		return cerebellum.RuntimeStatus{}, err
	}
	st, _ := a.reg.RuntimeStatus(c.Name)
	return st, nil
}

// mcpReport joins a catalog with the names, policies and gate decisions
// of the current snapshot.
func (a *App) mcpReport(name, launch string, cat cerebellum.Catalog) MCPReport {
	out := MCPReport{Name: name, Launch: launch, Prompts: cat.Prompts, Resources: cat.Resources, Listed: cat.Updated, Tools: []MCPTool{}}
	snap := a.reg.Snapshot()
	remote := make([]string, len(cat.Tools))
	for i, t := range cat.Tools {
		remote[i] = t.Name
	}
	names := cerebellum.Names(name, remote)
	for _, t := range cat.Tools {
		mt := MCPTool{Name: t.Name, ModelName: names[t.Name], Title: t.Title, Description: t.Description, InputSchema: t.InputSchema,
			ReadOnly: t.ReadOnlyHint, Destructive: t.Destructive(), Idempotent: t.IdempotentHint,
			OpenWorld: t.OpenWorldHint == nil || *t.OpenWorldHint, Policy: snap.ToolPolicy(names[t.Name])}
		switch {
		case mt.Policy == cerebellum.PolicyNever:
			mt.Runs = "never"
		case mt.Policy == cerebellum.PolicyAlways || mt.ReadOnly:
			mt.Runs = "allow"
		default:
			mt.Runs = "ask"
		}
		out.Tools = append(out.Tools, mt)
	}
	return out
}

// SetMCPNetwork lets MCP capability name's server reach the network (the
// default) or keeps it off; a running server stops and starts again with
// the new setting on its next use.
func (a *App) SetMCPNetwork(name string, on bool) error {
	if _, err := a.mcpCapability(name); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mgr.SetNetwork(name, on)
}

// SignOutMCP forgets the sign-in tokens of MCP server name, so it asks to
// sign in again when it next connects. It reports whether any were kept.
func (a *App) SignOutMCP(name string) (bool, error) {
	forgot, err := signin.Forget(a.db, name)
	if l, ok := a.reg.Loader(cerebellum.KindMCP).(*mcp.Loader); ok && err == nil {
		// Its running session holds the tokens too.
		l.SignedOut(name)
	}
	return forgot, err
}

// mcpLoader is the loader of MCP servers (nil in a registry without one).
func (a *App) mcpLoader() *mcp.Loader {
	l, _ := a.reg.Loader(cerebellum.KindMCP).(*mcp.Loader)
	return l
}

// MCPLogs are the log messages MCP server name sent since Wrasse started
// (the newest mcp.LogKeep), for its page's log view.
func (a *App) MCPLogs(name string) []mcp.LogLine {
	if l := a.mcpLoader(); l != nil {
		return l.Logs(name)
	}
	return nil
}

// MCPLogLevel is the level MCP server name is asked to log at.
func (a *App) MCPLogLevel(name string) string {
	if l := a.mcpLoader(); l != nil {
		return l.LogLevel(name)
	}
	return mcp.DefaultLogLevel
}

// SetMCPLogLevel asks MCP server name to log at level (one of
// mcp.LogLevels) from now on, while Wrasse runs.
func (a *App) SetMCPLogLevel(ctx context.Context, name, level string) error {
	if _, err := a.mcpCapability(name); err != nil {
		return err
	}
	if l := a.mcpLoader(); l != nil {
		return l.SetLogLevel(ctx, name, level)
	}
	return nil
}

// foldersChanged follows a change of the granted folders. Plugins learn
// their folders when they load, and a sandboxed MCP server's reach is
// fixed when it starts: those restart (and a server starting gets the
// folders as its roots). MCP servers that run unconfined keep running
// and are told their new roots (roots/list_changed).
func (a *App) foldersChanged() {
	l := a.mcpLoader()
	if l == nil || l.Sandboxed() {
		a.reg.ReloadRuntimes()
		return
	}
	var names []string
	for _, c := range a.reg.List() {
		if c.Kind != cerebellum.KindMCP {
			names = append(names, c.Name)
		}
	}
	if len(names) > 0 {
		a.reg.ReloadRuntimes(names...)
	}
	l.RootsChanged()
}
