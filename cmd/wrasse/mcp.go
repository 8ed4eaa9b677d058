package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// mcpCommands are `wrasse mcp ...`: MCP servers as capabilities.
func mcpCommands() []*command {
	name := [][2]string{{"NAME", "the MCP server's capability name (see wrasse mcp list)"}}
	return []*command{
		{path: "mcp add", widens: always, args: "NAME [-- COMMAND [ARGS...]]",
			argHelp: [][2]string{{"NAME", "the capability's name: lowercase letters, digits and single hyphens"},
				{"COMMAND", "what starts the server (stdio), after --, e.g. -- npx -y @modelcontextprotocol/server-everything"},
				{"ARGS", "its arguments, passed exactly as given"}},
			summary: "Add an MCP server you trust: a command Wrasse runs, or --url of a streamable HTTP server. It is enabled at once; values of variables and headers named like a token, key or password are stored as secrets, never in the folder.",
			minArgs: 1, maxArgs: -1, check: checkMCPAdd,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				o := &mcpAddOptions{}
				fs.StringVar(&o.url, "url", "", "reach the server at `URL` (streamable HTTP) instead of running a command")
				fs.Var(&o.headers, "header", "an HTTP header `K=V` sent to a --url server (repeatable)")
				fs.Var(&o.env, "env", "an environment variable `K=V` for the command (repeatable; ${secret:NAME} references a stored secret)")
				fs.StringVar(&o.cwd, "cwd", "", "the command's working folder `DIR`")
				fs.StringVar(&o.oauth.ClientID, "oauth-client-id", "", "sign in to a --url server as the OAuth client `ID` registered with its authorization server (default: Wrasse registers itself when the server asks for sign-in)")
				fs.StringVar(&o.oauth.ClientSecret, "oauth-client-secret", "", "that client's secret, best as '${secret:NAME}' (`SECRET`; a value is stored as a secret)")
				fs.StringVar(&o.oauth.ClientMetadataURL, "oauth-client-metadata-url", "", "the https `URL` of a client metadata document to sign in with, where the authorization server takes one")
				c.opts = o
				return func(ctx context.Context, app *assistant.App, c *call) error { return mcpAdd(ctx, app, c, o) }
			}},
		{path: "mcp list", aliases: []string{"ls"}, summary: "The MCP servers: state, tools known (from the last connection, no server started) and what each runs.", maxArgs: 0,
			setup: plain(mcpList)},
		{path: "mcp test", widens: always, args: "NAME", argHelp: name, summary: "Connect to the server now and list its tools with their annotations; on failure, the server's last lines of output. Exits 1 when it cannot connect. A server that is off shows the command line or URL it runs and asks first.",
			minArgs: 1, maxArgs: 1, setup: func(fs *flag.FlagSet, c *call) runFunc {
				yes := fs.Bool("yes", false, "approve running what a server that is off runs, without asking (for scripts)")
				return func(ctx context.Context, app *assistant.App, c *call) error { return mcpTest(ctx, app, c, *yes) }
			}},
		{path: "mcp tools", args: "NAME", argHelp: name, summary: "The server's tools as last listed (no server started), with the names the model sees and the user's rule for each.",
			minArgs: 1, maxArgs: 1, setup: plain(mcpTools)},
		{path: "mcp remove", aliases: []string{"rm"}, args: "NAME", argHelp: name, summary: "Move an MCP server's capability to the trash (restorable for 7 days with wrasse caps restore).",
			minArgs: 1, maxArgs: 1, setup: plain(mcpRemove)},
		{path: "mcp logout", args: "NAME", argHelp: name, summary: "Sign out of a server reached by URL: forget the OAuth tokens stored for it. The next connection asks to sign in again in the browser.",
			minArgs: 1, maxArgs: 1, setup: plain(mcpLogout)},
		{path: "mcp import", widens: always, args: "FILE", argHelp: [][2]string{{"FILE", "claude_desktop_config.json (Claude Desktop), mcp.json (Cursor) or .vscode/mcp.json (VS Code)"}},
			summary: "Bring in the MCP servers another app is configured with. Each is installed switched off: enable it with wrasse caps enable NAME after reading what it runs. Reports every server taken or skipped and why, and the secrets to set.",
			minArgs: 1, maxArgs: 1,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				dry := fs.Bool("dry-run", false, "install nothing; report what would be taken and skipped")
				return func(ctx context.Context, app *assistant.App, c *call) error { return mcpImport(ctx, app, c, *dry) }
			}},
	}
}

// pairs is a repeatable K=V flag.
type pairs map[string]string

func (p *pairs) String() string { return "" }

func (p *pairs) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("%q is not K=V", v)
	}
	if *p == nil {
		*p = pairs{}
	}
	(*p)[strings.TrimSpace(k)] = val
	return nil
}

type mcpAddOptions struct {
	url     string
	headers pairs
	env     pairs
	cwd     string
	oauth   skillmd.MCPOAuth
}

func checkMCPAdd(c *call) error {
	o := c.opts.(*mcpAddOptions)
	switch {
	case o.url == "" && len(c.args) < 2:
		return usagef(c.cmd.path, "mcp add needs the command that starts the server (wrasse mcp add NAME -- COMMAND [ARGS...]) or --url URL")
	case o.url != "" && len(c.args) > 1:
		return usagef(c.cmd.path, "mcp add takes a command or --url, not both (%q follows the name)", c.args[1])
	case o.url != "" && (len(o.env) > 0 || o.cwd != ""):
		return usagef(c.cmd.path, "--env and --cwd are for a command; a --url server takes --header")
	case o.url == "" && len(o.headers) > 0:
		return usagef(c.cmd.path, "--header is for a --url server; a command takes --env")
	case o.url == "" && o.oauth != (skillmd.MCPOAuth{}):
		return usagef(c.cmd.path, "--oauth-* flags are for a --url server")
	case o.oauth.ClientSecret != "" && o.oauth.ClientID == "":
		return usagef(c.cmd.path, "--oauth-client-secret needs --oauth-client-id")
	}
	return nil
}

func mcpAdd(ctx context.Context, app *assistant.App, c *call, o *mcpAddOptions) error {
	s := assistant.MCPServer{Name: c.args[0], MCPServer: skillmd.MCPServer{URL: o.url, Headers: o.headers, Env: o.env, Cwd: o.cwd}}
	if o.oauth != (skillmd.MCPOAuth{}) {
		s.OAuth = &o.oauth
	}
	if len(c.args) > 1 {
		s.Command, s.Args = c.args[1], c.args[2:]
	}
	res, err := app.AddMCP(ctx, s, false)
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, res)
	}
	added, _ := app.MCPServerOf(res.Name)
	fmt.Fprintf(c.io.out, "Added %s, enabled. It runs: %s\n", res.Name, added.Launch())
	printMissingSecrets(c, app, added.Secrets())
	printUnassigned(c, app, res.Name)
	printWarnings(c.io.out, res.Report.Warnings)
	fmt.Fprintf(c.io.out, "Check it with: wrasse mcp test %s\n", res.Name)
	return nil
}

// printMissingSecrets names the referenced secrets not stored yet.
func printMissingSecrets(c *call, app *assistant.App, names []string) {
	for _, n := range names {
		if !app.HasSecret(n) {
			fmt.Fprintf(c.io.out, "It needs the secret %s: wrasse secrets set %s\n", n, n)
		}
	}
}

// printUnassigned names the secrets a server references but may not use
// (a provider key typed in mcp add is not given without saying so).
func printUnassigned(c *call, app *assistant.App, capName string) {
	uses, err := app.SecretsOf(capName)
	if err != nil {
		return
	}
	for _, u := range uses {
		switch {
		case !u.Referenced || u.Assigned:
		case u.ProviderKey:
			fmt.Fprintf(c.io.out, "note: %s is a provider's API key and was not given to %s; only if %s must have it: wrasse secrets assign %s %s --provider-key\n",
				u.Name, capName, capName, u.Name, capName)
		default:
			fmt.Fprintf(c.io.out, "note: %s may not use %s until you assign it: wrasse secrets assign %s %s\n", capName, u.Name, u.Name, capName)
		}
	}
}

// mcpServers lists the MCP capabilities, by name.
func mcpServers(app *assistant.App) []*cerebellum.Capability {
	var out []*cerebellum.Capability
	for _, c := range app.Capabilities().List() {
		if c.Kind == cerebellum.KindMCP {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

type mcpRow struct {
	Name   string `json:"name"`
	State  string `json:"state"`
	Tools  int    `json:"tools"`
	Known  bool   `json:"toolsKnown"`
	Launch string `json:"launch"`
	Error  string `json:"error,omitempty"`
}

func mcpList(_ context.Context, app *assistant.App, c *call) error {
	var rows []mcpRow
	for _, capability := range mcpServers(app) {
		r := mcpRow{Name: capability.Name, State: string(capability.State), Launch: capability.Launch(), Error: capability.Error}
		if cat, ok, _ := app.Capabilities().Catalog(capability.Name); ok {
			r.Tools, r.Known = len(cat.Tools), true
		}
		rows = append(rows, r)
	}
	if c.g.json {
		if rows == nil {
			rows = []mcpRow{}
		}
		return writeJSON(c.io.out, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(c.io.out, "No MCP servers. Add one with: wrasse mcp add NAME -- COMMAND [ARGS...], or bring in another app's with: wrasse mcp import FILE")
		return nil
	}
	tw := tabwriter.NewWriter(c.io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tTOOLS\tRUNS")
	for _, r := range rows {
		tools := "?"
		if r.Known {
			tools = fmt.Sprint(r.Tools)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.State, tools, cerebellum.OneLine(r.Launch, 90))
		if r.Error != "" {
			fmt.Fprintf(tw, "\terror: %s\t\t\n", cerebellum.OneLine(r.Error, 100))
		}
	}
	return tw.Flush()
}

// mcpCapability is the MCP capability name, or an error saying what it is
// instead.
func mcpCapability(app *assistant.App, name string) (*cerebellum.Capability, error) {
	c, err := app.Capabilities().Get(name)
	if err != nil {
		return nil, err
	}
	if c.Kind != cerebellum.KindMCP {
		return nil, fmt.Errorf("%w: %s is a %s capability; see wrasse caps show %s", assistant.ErrNotMCP, c.Name, c.Kind, c.Name)
	}
	return c, nil
}

func mcpRemove(ctx context.Context, app *assistant.App, c *call) error {
	capability, err := mcpCapability(app, c.args[0])
	if err != nil {
		return err
	}
	server, _ := app.MCPServerOf(capability.Name)
	if err := app.Remove(ctx, capability.Name); err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]string{"removed": capability.Name})
	}
	fmt.Fprintf(c.io.out, "Removed %s. It stays restorable for 7 days: wrasse caps restore %s\n", capability.Name, capability.Name)
	var kept []string
	for _, n := range server.Secrets() {
		if app.HasSecret(n) {
			kept = append(kept, n)
		}
	}
	if len(kept) > 0 {
		fmt.Fprintf(c.io.out, "Its secrets stay stored for a restore: %s (wrasse secrets delete NAME removes one).\n", strings.Join(kept, ", "))
	}
	return nil
}

// errNotApproved: enabling an MCP server was not approved.
var errNotApproved = errors.New("not approved")

// isTerminal reports whether r is this process's terminal (a forwarded
// command's input never is).
func isTerminal(c *call) bool {
	return !c.forwarded && interactive(c.io.in) && c.io.in == os.Stdin
}

// mcpLogout forgets a server's stored sign-in. A server removed since
// can still be signed out of by its name.
func mcpLogout(_ context.Context, app *assistant.App, c *call) error {
	name := c.args[0]
	if _, err := mcpCapability(app, name); err != nil && !errors.Is(err, cerebellum.ErrNotFound) {
		return err
	}
	forgot, err := app.SignOutMCP(name)
	if err != nil {
		return err
	}
	if c.g.json {
		return writeJSON(c.io.out, map[string]any{"server": name, "signedOut": forgot})
	}
	if !forgot {
		fmt.Fprintf(c.io.out, "%s was not signed in.\n", name)
		return nil
	}
	fmt.Fprintf(c.io.out, "Signed out of %s: its tokens are forgotten. It asks to sign in again when it next connects.\n", name)
	return nil
}
