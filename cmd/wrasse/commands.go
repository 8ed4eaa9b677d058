package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// runFunc runs a command against an opened workspace: the one this process
// opened, or the running Wrasse's when the command was forwarded to it.
type runFunc func(ctx context.Context, app *assistant.App, c *call) error

// command is one leaf of the command line.
type command struct {
	path    string   // "caps show"
	aliases []string // other names of the last word ("ls")
	args    string   // "NAME", shown in the usage line
	argHelp [][2]string
	summary string
	minArgs int
	maxArgs int // negative: any number
	// emptyLast allows the last argument to be "" (a value that resets).
	emptyLast bool
	// setup registers the command's own flags (binding them to c where the
	// opener needs them) and returns what runs it.
	setup func(fs *flag.FlagSet, c *call) runFunc
	// check, when set, finds usage errors in the parsed call before the
	// workspace is opened (or the command forwarded).
	check func(c *call) error
	// local says, when the command cannot run inside a running Wrasse as
	// given (it must ask on this terminal, or runs until stopped), what to
	// do instead; "" means it can.
	local func(c *call) string
	// stdin reports whether the command reads standard input as given, so
	// a forwarded request carries it.
	stdin func(c *call) bool
	// serve: the command runs long, so other wrasse commands run through it
	// meanwhile.
	serve bool
	// widens reports whether the command, as given, widens what the
	// assistant may do: adds, enables or runs a capability or MCP server,
	// grants permissions or folders, changes the provider or the host the
	// model (and its key) is reached at, stores a secret, approves a call.
	// Sent to the window from outside it, such a command runs only once
	// the person in the window confirms it (remoteconfirm). nil: never.
	widens func(c *call) bool
	// closed, when set, runs the command when no Wrasse has the workspace
	// open, without opening it (wrasse doctor: the database may not open).
	closed func(ctx context.Context, ws workspace.Workspace, c *call) error
	// examples are printed at the end of the command's help.
	examples string
}

// always marks a command that widens what the assistant may do however it
// is given.
func always(*call) bool { return true }

// withFlag marks a command that widens what the assistant may do when one
// of the flags is given.
func withFlag(names ...string) func(*call) bool {
	return func(c *call) bool {
		return slices.ContainsFunc(names, func(n string) bool { return c.flags[n] })
	}
}

// widensConfig marks a config set or unset of a key that widens what the
// assistant may do: the provider and base URL (where the model, and the
// API key with it, go; --send-key too), the folders its tools reach, and
// autoResync (capability folders edited on disk apply without the
// person).
func widensConfig(c *call) bool {
	return len(c.args) > 0 && slices.Contains([]string{"provider", "baseURL", "folders", "autoResync"}, c.args[0])
}

// group is a command word with subcommands.
type group struct {
	name    string
	aliases []string
	summary string
	// def is the subcommand run when none is given ("" = one is needed).
	def string
}

var groups = []group{
	{name: "caps", aliases: []string{"capabilities"}, summary: "capabilities: list, inspect, install, switch on and off, call"},
	{name: "conversations", aliases: []string{"convs"}, summary: "stored conversations", def: "list"},
	{name: "secrets", summary: "API keys and other secrets, stored in the workspace and redacted everywhere", def: "list"},
	{name: "config", summary: "settings in config.json (provider, model, baseURL, ...)", def: "show"},
	{name: "mcp", summary: "MCP servers as capabilities: add, list, test, tools, logout, remove, import", def: "list"},
	{name: "models", summary: "the model server's models: what each can do, its window; download one into Ollama", def: "list"},
	tasksGroup,
	usageGroup,
}

// commands returns every command, in the order help lists them. It is a
// function so the table holds no state between runs.
func commands() []*command {
	name := [][2]string{{"NAME", "the capability's name (see wrasse caps list)"}}
	conv := [][2]string{{"ID", "a conversation id, e.g. c12 (see wrasse conversations list)"}}
	cmds := []*command{
		{path: "caps list", aliases: []string{"ls"}, summary: "Every capability with its kind, state and badge.", maxArgs: 0,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				noCheck := fs.Bool("no-check", false, "skip checking plugins (they are checked once per version, then remembered)")
				return func(ctx context.Context, app *assistant.App, c *call) error { return capsList(ctx, app, c, !*noCheck) }
			}},
		{path: "caps show", args: "NAME", argHelp: name, summary: "Everything about one capability: state, tools, permissions, patterns, its SKILL.md instructions, files.", minArgs: 1, maxArgs: 1,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				noCheck := fs.Bool("no-check", false, "skip checking plugins (they are checked once per version, then remembered)")
				body := fs.Bool("body", false, "print only the SKILL.md instructions (the body after the frontmatter)")
				return func(ctx context.Context, app *assistant.App, c *call) error {
					if *body {
						return capsShowBody(app, c)
					}
					return capsShow(ctx, app, c, !*noCheck)
				}
			}},
		{path: "caps index", summary: "The capability index as the model sees it.", maxArgs: 0,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				id := fs.String("c", "", "show the index as conversation `ID` sees it (e.g. c12)")
				return func(ctx context.Context, app *assistant.App, c *call) error { return capsIndex(app, c, *id) }
			}},
		{path: "caps search", args: "QUERY...", argHelp: [][2]string{{"QUERY", "words describing what you want done"}},
			summary: "What tool_search finds for QUERY.", minArgs: 1, maxArgs: -1,
			setup: plain(capsSearch)},
		{path: "caps validate", args: "PATH", argHelp: [][2]string{{"PATH", "a capability folder, a SKILL.md, or a .zip/.skill archive"}},
			summary: "Check a capability without installing it, exactly as an install would.", minArgs: 1, maxArgs: 1,
			setup: plain(capsValidate)},
		{path: "caps install", widens: always, args: "PATH", argHelp: [][2]string{{"PATH", "a capability folder, a SKILL.md, or a .zip/.skill archive; or a collection of skills (an archive or folder with several skill folders) with --all or --only"}},
			summary: "Install a capability, validated completely before anything is written.", minArgs: 1, maxArgs: 1,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				replace := fs.Bool("replace", false, "replace an installed capability of the same name")
				all := fs.Bool("all", false, "PATH is a collection: install every skill in it, each on its own")
				only := fs.String("only", "", "PATH is a collection: install these skills (`NAMES`, comma-separated), each on its own")
				return func(ctx context.Context, app *assistant.App, c *call) error {
					if *all || *only != "" {
						return capsInstallCollection(ctx, app, c, *all, *only, *replace)
					}
					return capsInstall(ctx, app, c, *replace)
				}
			}},
		{path: "caps remove", aliases: []string{"rm"}, args: "NAME", argHelp: name, summary: "Move a capability to the trash (restorable for 7 days).", minArgs: 1, maxArgs: 1,
			setup: plain(capsRemove)},
		{path: "caps restore", widens: always, args: "NAME", argHelp: name, summary: "Bring back a removed capability.", minArgs: 1, maxArgs: 1,
			setup: plain(capsRestore)},
		{path: "caps enable", widens: always, args: "NAME", argHelp: name, summary: "Switch a capability on, optionally granting its plugin permissions. An MCP server shows the command line or URL it runs and asks first.", minArgs: 1, maxArgs: 1,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				grant := fs.String("grant", "", "permissions to grant, comma-separated (`PERMS`, e.g. exec,network)")
				yes := fs.Bool("yes", false, "approve what an MCP server runs without asking (for scripts)")
				return func(ctx context.Context, app *assistant.App, c *call) error {
					shown, err := approveLaunch(app, c, *yes)
					if err != nil {
						return err
					}
					return capsEnable(app, c, *grant, shown)
				}
			}},
		{path: "caps disable", args: "NAME", argHelp: name, summary: "Switch a capability off.", minArgs: 1, maxArgs: 1,
			setup: plain(capsDisable)},
		{path: "caps revoke", args: "NAME", argHelp: name, summary: "Withdraw permissions granted to a capability's plugin.", minArgs: 1, maxArgs: 1,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				grant := fs.String("grant", "", "withdraw only these permissions (`PERMS`, comma-separated); default all")
				return func(ctx context.Context, app *assistant.App, c *call) error { return capsRevoke(app, c, *grant) }
			}},
		{path: "caps settings", args: "NAME", argHelp: name, summary: "The settings a capability declares, with their values.", minArgs: 1, maxArgs: 1,
			setup: plain(capsSettings)},
		{path: "caps set", widens: always, args: "NAME KEY VALUE", argHelp: [][2]string{name[0], {"KEY", "one of its settings (see wrasse caps settings NAME)"},
			{"VALUE", "the value, checked against the setting's type (wrasse caps unset NAME KEY restores the default)"}},
			summary: "Set one setting of a capability; it reloads, so its next call sees it.", minArgs: 3, maxArgs: 3, emptyLast: true,
			setup: plain(capsSet)},
		{path: "caps unset", widens: always, args: "NAME KEY", argHelp: [][2]string{name[0], {"KEY", "one of its settings"}},
			summary: "Put one setting of a capability back to its default.", minArgs: 2, maxArgs: 2,
			setup: plain(capsUnset)},
		{path: "caps resync", widens: always, summary: "Apply what changed in the capability folders on disk.", maxArgs: 0,
			setup: plain(capsResync)},
		{path: "caps watch", summary: "Report hand edits of the capability folders as they happen, until Ctrl+C.", maxArgs: 0, serve: true,
			local: func(*call) string {
				return "It already watches the capability folders (and applies changes with autoResync); close it to watch from here."
			},
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				apply := fs.Bool("apply", false, "apply changes at once (as autoResync does)")
				return func(ctx context.Context, app *assistant.App, c *call) error { return capsWatch(ctx, app, c, *apply) }
			}},
		{path: "caps call", widens: withFlag("yes"), args: "NAME TOOL [JSON]", argHelp: [][2]string{{"NAME", "the capability"}, {"TOOL", "one of its tools (see wrasse caps show NAME)"},
			{"JSON", "the tool's arguments as a JSON object (default {})"}},
			summary: "Run one tool through the registry and the safety gate, without a model. A call that needs confirmation is denied unless --yes is given; a blocked call never runs. Exits 1 when the call fails or is refused.",
			minArgs: 2, maxArgs: 3, check: checkCallArgs,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				yes := fs.Bool("yes", false, "approve a call that needs confirmation (a blocked call stays blocked)")
				dry := fs.Bool("dry-run", false, "run nothing; print the gate's decision (allow, ask, ask-always or block) and why")
				return func(ctx context.Context, app *assistant.App, c *call) error { return capsCall(ctx, app, c, *yes, *dry) }
			}},

		{path: "chat", widens: withFlag("provider", "base-url", "send-key"), args: "[MESSAGE...]", argHelp: [][2]string{{"MESSAGE", "what to say; read from standard input when piped and not given"}},
			summary: "One turn of a conversation, streamed. On a terminal, calls that need approval are asked about; otherwise they are denied.",
			maxArgs: -1, serve: true,
			local: func(c *call) string {
				if interactive(c.io.in) {
					return "Chat in its window, or close it to chat here (or pipe the message in: calls that need approval are then denied)."
				}
				return ""
			},
			stdin: func(c *call) bool { return len(c.args) == 0 },
			check: checkChat, setup: setupChat},

		{path: "conversations list", aliases: []string{"ls"}, summary: "Stored conversations, pinned first, then newest first; archived ones apart.", maxArgs: 0,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				archived := fs.Bool("archived", false, "list the archived conversations instead")
				return func(ctx context.Context, app *assistant.App, c *call) error {
					return conversationsList(ctx, app, c, *archived)
				}
			}},
		{path: "conversations show", args: "ID", argHelp: conv, summary: "One conversation, event by event.", minArgs: 1, maxArgs: 1,
			check: checkConversationID, setup: plain(conversationsShow)},
		{path: "conversations delete", aliases: []string{"rm"}, args: "ID", argHelp: conv, summary: "Delete a conversation and its events.", minArgs: 1, maxArgs: 1,
			check: checkConversationID, setup: plain(conversationsDelete)},

		{path: "secrets set", widens: always, args: "NAME", argHelp: [][2]string{{"NAME", "the secret's name, e.g. openai_api_key or anthropic_api_key"}},
			summary: "Store a secret. The value is typed without echo or piped in, never given on the command line.", minArgs: 1, maxArgs: 1,
			local: func(c *call) string {
				if interactive(c.io.in) {
					name := "NAME"
					if len(c.args) == 1 {
						name = c.args[0]
					}
					return fmt.Sprintf("A secret cannot be typed through it: pipe the value in (printf %%s \"$KEY\" | wrasse secrets set %s), or save it in the window.", name)
				}
				return ""
			},
			stdin: func(*call) bool { return true },
			setup: plain(secretsSet)},
		{path: "secrets list", aliases: []string{"ls"}, summary: "The names of the stored secrets (never their values).", maxArgs: 0,
			setup: plain(secretsList)},
		{path: "secrets delete", aliases: []string{"rm"}, args: "NAME", argHelp: [][2]string{{"NAME", "the secret's name"}}, summary: "Delete a stored secret.", minArgs: 1, maxArgs: 1,
			setup: plain(secretsDelete)},
		{path: "secrets assign", widens: always, args: "NAME CAPABILITY", argHelp: [][2]string{{"NAME", "the secret's name"}, {"CAPABILITY", "the MCP server or plugin that may use it"}},
			summary: "Let a capability use a secret (${secret:NAME} in an MCP server's env or headers, env.Secret in a plugin). A capability gets only the secrets assigned to it.",
			minArgs: 2, maxArgs: 2,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				pk := fs.Bool("provider-key", false, "allow giving it a provider's API key (openai_api_key, anthropic_api_key), which then leaves the host it is kept for")
				return func(ctx context.Context, app *assistant.App, c *call) error { return secretsAssign(ctx, app, c, *pk) }
			}},
		{path: "secrets unassign", args: "NAME CAPABILITY", argHelp: [][2]string{{"NAME", "the secret's name"}, {"CAPABILITY", "the capability"}},
			summary: "Withdraw a capability's use of a secret (a running MCP server keeps it until it restarts).", minArgs: 2, maxArgs: 2,
			setup: plain(secretsUnassign)},

		{path: "config show", summary: "config.json with defaults filled in, and any problems in it.", maxArgs: 0,
			setup: plain(configShow)},
		{path: "config set", widens: widensConfig, args: "KEY VALUE", argHelp: [][2]string{{"KEY", "one of " + strings.Join(configKeys(), ", ")},
			{"VALUE", "its value; lists are comma-separated"}},
			summary: "Set one key of config.json (validated; the next turn uses it). When the change would send the provider's API key to another host, it is asked on a terminal; elsewhere the key stays with its host unless --send-key is given. A config.json with parts that cannot be read is replaced only when you agree (on a terminal) or with --replace.",
			minArgs: 2, maxArgs: 2, emptyLast: true,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				send := fs.Bool("send-key", false, "send the provider's API key to the new base URL's host (asked on a terminal otherwise)")
				replace := fs.Bool("replace", false, replaceUsage)
				return func(_ context.Context, app *assistant.App, c *call) error {
					return saveConfig(app, c, c.args[0], c.args[1], *send, *replace)
				}
			}},
		{path: "config unset", widens: widensConfig, args: "KEY", argHelp: [][2]string{{"KEY", "one of " + strings.Join(configKeys(), ", ")}},
			summary: "Reset one key of config.json to its default.", minArgs: 1, maxArgs: 1,
			setup: func(fs *flag.FlagSet, c *call) runFunc {
				replace := fs.Bool("replace", false, replaceUsage)
				return func(ctx context.Context, app *assistant.App, c *call) error {
					return saveConfig(app, c, c.args[0], "", false, *replace)
				}
			}},
	}
	cmds = append(append(append(cmds, mcpCommands()...), modelsCommands()...), tasksCommands()...)
	cmds = append(cmds, mcpContextCommands()...)
	cmds = append(append(cmds, organiseCommands(conv)...), usageCommands()...)
	return append(cmds, doctorCommand())
}

// plain is the setup of a command with no flags of its own.
func plain(fn runFunc) func(*flag.FlagSet, *call) runFunc {
	return func(*flag.FlagSet, *call) runFunc { return fn }
}

// call is one parsed invocation of a command.
type call struct {
	cmd  *command
	run  runFunc
	io   stdio
	g    globalFlags
	args []string // positional arguments
	raw  []string // the whole command line, as forwarded
	// dir is the folder relative paths are relative to: the forwarding
	// client's; "" means this process's own.
	dir string
	// forwarded is set when the command runs inside the Wrasse that holds
	// the workspace on behalf of another process.
	forwarded bool
	// opts holds a command's own flags when its check needs them.
	opts any
	// retries is chat's --retries (assistant.Options.Retries), used when
	// this process opens the workspace itself; nil keeps the default.
	retries func() int
	// flags are the command's own flags that were given.
	flags map[string]bool
}

// path makes p absolute against the folder the command was typed in.
func (c *call) path(p string) string {
	if c.dir != "" && !filepath.IsAbs(p) {
		return filepath.Join(c.dir, p)
	}
	return p
}

// parsed is a command line resolved to a command (or a group, for help).
type parsed struct {
	cmd   *command
	group *group
	rest  []string // flags and arguments of cmd
	help  bool
}

func findGroup(word string) *group {
	for i := range groups {
		g := &groups[i]
		if g.name == word || slices.Contains(g.aliases, word) {
			return g
		}
	}
	return nil
}

func findCommand(path string) *command {
	for _, c := range commands() {
		if c.path == path {
			return c
		}
	}
	return nil
}

// subcommand finds word among the subcommands of g.
func subcommand(g *group, word string) *command {
	for _, c := range commands() {
		head, last, _ := strings.Cut(c.path, " ")
		if head == g.name && (last == word || slices.Contains(c.aliases, word)) {
			return c
		}
	}
	return nil
}

func subcommandNames(g *group) []string {
	var out []string
	for _, c := range commands() {
		if head, last, ok := strings.Cut(c.path, " "); ok && head == g.name {
			out = append(out, last)
		}
	}
	return out
}

// parseLine finds the command in args, wherever the global flags are:
// `wrasse --workspace X caps remove foo` and `wrasse caps --workspace X
// remove foo` are the same command. -h and --help anywhere before `--` ask
// for the help of the command named so far.
func parseLine(args []string) (*parsed, error) {
	p := &parsed{}
	if args[0] == "help" {
		p.help = true
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.rest = append(p.rest, args[i:]...)
			i = len(args)
		case a == "-h" || a == "--help" || a == "-help":
			p.help = true
		case a == "--workspace" || a == "-workspace":
			p.rest = append(p.rest, a)
			if i+1 < len(args) {
				p.rest = append(p.rest, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-") && a != "-":
			p.rest = append(p.rest, a)
		case p.cmd != nil:
			p.rest = append(p.rest, a)
		case p.group != nil:
			c := subcommand(p.group, a)
			if c == nil {
				if p.help {
					return p, nil // help for the group
				}
				return nil, unknownWord(p.group.name, a, subcommandNames(p.group))
			}
			p.cmd = c
		default:
			if a == "chat" || a == "doctor" {
				p.cmd = findCommand(a)
				continue
			}
			if g := findGroup(a); g != nil {
				p.group = g
				continue
			}
			if p.help {
				return p, nil // wrasse's own help
			}
			words := []string{"chat", "doctor", "help"}
			for _, g := range groups {
				words = append(words, g.name)
			}
			return nil, unknownWord("", a, words)
		}
	}
	if p.cmd == nil && p.group != nil && !p.help {
		if p.group.def == "" {
			return nil, usagef(p.group.name, "%s needs a subcommand: %s", p.group.name, strings.Join(subcommandNames(p.group), ", "))
		}
		p.cmd = findCommand(p.group.name + " " + p.group.def)
	}
	return p, nil
}

func unknownWord(path, word string, known []string) error {
	what := "command"
	if path != "" {
		what = path + " subcommand"
	}
	if near := hint.Closest(word, known, 1); len(near) == 1 {
		return usagef(path, "unknown %s %q; did you mean %s?", what, word, near[0])
	}
	return usagef(path, "unknown %s %q (%s)", what, word, strings.Join(known, ", "))
}

// flagSet is the FlagSet of command cmd, with the global flags.
func (cmd *command) flagSet(c *call) (*flag.FlagSet, runFunc) {
	fs := newFlagSet(cmd.path)
	c.g.register(fs)
	return fs, cmd.setup(fs, c)
}

// call parses the command's flags and checks its arguments.
func (p *parsed) call(io stdio) (*call, error) {
	cmd := p.cmd
	c := &call{cmd: cmd, io: io}
	fs, runner := cmd.flagSet(c)
	pos, err := parseInterleaved(fs, p.rest)
	if err != nil {
		return nil, usagef(cmd.path, "%v", err)
	}
	c.run, c.args = runner, pos
	c.flags = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.flags[f.Name] = true })
	for i, a := range pos {
		if cmd.emptyLast && i == len(pos)-1 && i == cmd.maxArgs-1 {
			continue
		}
		if cmd.maxArgs != 0 && strings.TrimSpace(a) == "" {
			return nil, usagef(cmd.path, "%s needs %s, not an empty string", cmd.path, cmd.args)
		}
	}
	switch {
	case len(pos) < cmd.minArgs:
		return nil, usagef(cmd.path, "%s needs %s", cmd.path, cmd.args)
	case cmd.maxArgs == 0 && len(pos) > 0:
		return nil, usagef(cmd.path, "%s takes no arguments (got %q)", cmd.path, pos[0])
	case cmd.maxArgs > 0 && len(pos) > cmd.maxArgs:
		return nil, usagef(cmd.path, "%s takes %s; %q is one too many", cmd.path, cmd.args, pos[cmd.maxArgs])
	}
	if cmd.check != nil {
		if err := cmd.check(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

const overview = `Wrasse — a desktop AI assistant you extend by dropping in capabilities.

Usage:
  wrasse                     open the desktop window
  wrasse COMMAND [flags]     run one command (through the window when it is open)

Commands:
`

// printHelp prints the help of what p names: a command, a group (its
// default subcommand is only named by default when help is not asked for,
// so `config --help` is the group's), or wrasse itself.
func printHelp(w io.Writer, p *parsed) {
	switch {
	case p.cmd != nil:
		printCommandHelp(w, p.cmd)
	case p.group != nil:
		printGroupHelp(w, p.group)
	default:
		fmt.Fprint(w, overview)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, c := range commands() {
			line := "wrasse " + c.path
			if c.args != "" {
				line += " " + c.args
			}
			fmt.Fprintf(tw, "  %s\t%s\n", line, firstSentence(c.summary))
		}
		tw.Flush()
		fmt.Fprint(w, "\nFlags (any command, anywhere on the line):\n")
		printFlags(w, globalFlagSet())
		fmt.Fprint(w, "\nRun 'wrasse COMMAND --help' for a command's arguments and flags.\n")
	}
}

func globalFlagSet() *flag.FlagSet {
	fs := newFlagSet("wrasse")
	var g globalFlags
	g.register(fs)
	return fs
}

func printGroupHelp(w io.Writer, g *group) {
	fmt.Fprintf(w, "Usage: wrasse %s COMMAND [flags]\n\n%s.\n\nCommands:\n", g.name, upperFirst(g.summary))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range commands() {
		head, last, ok := strings.Cut(c.path, " ")
		if !ok || head != g.name {
			continue
		}
		line := last
		if c.args != "" {
			line += " " + c.args
		}
		if last == g.def {
			line += " (default)"
		}
		fmt.Fprintf(tw, "  %s\t%s\n", line, firstSentence(c.summary))
	}
	tw.Flush()
	fmt.Fprint(w, "\nFlags (any command):\n")
	printFlags(w, globalFlagSet())
	fmt.Fprintf(w, "\nRun 'wrasse %s COMMAND --help' for a command's arguments and flags.\n", g.name)
}

func printCommandHelp(w io.Writer, cmd *command) {
	var c call
	fs, _ := cmd.flagSet(&c)
	line := "wrasse " + cmd.path
	if cmd.args != "" {
		line += " " + cmd.args
	}
	fmt.Fprintf(w, "Usage: %s [flags]\n\n%s\n", line, cmd.summary)
	if len(cmd.argHelp) > 0 {
		fmt.Fprint(w, "\nArguments:\n")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, a := range cmd.argHelp {
			fmt.Fprintf(tw, "  %s\t%s\n", a[0], a[1])
		}
		tw.Flush()
	}
	fmt.Fprint(w, "\nFlags:\n")
	printFlags(w, fs)
	if cmd.examples != "" {
		fmt.Fprintf(w, "\nExamples:\n%s\n", cmd.examples)
	}
}

// printFlags lists a FlagSet's flags as --name VALUE, the command's own
// first and the global ones last.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	var own, global []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "workspace" || f.Name == "json" {
			global = append(global, f)
		} else {
			own = append(own, f)
		}
	})
	for _, f := range append(own, global...) {
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		left := dash + f.Name
		if name != "" {
			left += " " + name
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(tw, "  %s\t%s\n", left, usage)
	}
	fmt.Fprintf(tw, "  -h, --help\tthis help\n")
	tw.Flush()
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
