package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

type stdio struct {
	in  io.Reader
	out io.Writer
	err io.Writer
}

// errUsage marks a command line that cannot be understood.
var errUsage = errors.New("usage")

const usage = `Wrasse — a desktop AI assistant you extend by dropping in capabilities.

Usage:
  wrasse                          open the desktop window
  wrasse caps list                list capabilities with kind, state and badge
  wrasse caps show NAME           everything about one capability
  wrasse caps index               the capability index as the model sees it
  wrasse caps search QUERY        what tool_search finds for QUERY
  wrasse caps validate PATH       check a capability folder, SKILL.md or .zip without installing
  wrasse caps install PATH [--replace]
  wrasse caps list [--no-check]    plugins are checked once per version (remembered), so broken ones show as failed
  wrasse caps index [-c ID]        -c shows it as conversation ID sees it
  wrasse caps remove NAME | restore NAME | enable NAME [--grant exec,network] | disable NAME | resync
  wrasse caps revoke NAME [--grant PERMS]   withdraw granted permissions (all, or those listed)
  wrasse caps watch [--apply]     report hand edits as they happen (applied at once with autoResync)
  wrasse chat [-c ID] "message"   one turn of a conversation, streamed
  wrasse conversations list | show ID | delete ID
  wrasse secrets set NAME | list | delete NAME
  wrasse config [show] | set KEY VALUE | unset KEY   settings in config.json (provider, model, baseURL, ...)

Flags (any command):
  --workspace DIR   workspace folder (default $WRASSE_HOME or the user data folder)
  --json            machine-readable output
`

// globalFlags are accepted by every command.
type globalFlags struct {
	workspace string
	json      bool
}

func (g *globalFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.workspace, "workspace", "", "workspace folder")
	fs.BoolVar(&g.json, "json", false, "machine-readable output")
}

// newFlagSet makes a FlagSet that reports errors instead of exiting.
func newFlagSet(name string, io stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.err)
	return fs
}

// parseInterleaved parses flags that may appear before or after positional
// arguments (`caps show NAME --json`).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func run(ctx context.Context, args []string, io stdio, getenv func(string) string) int {
	if len(args) == 0 {
		return runDesktop(ctx, nil, io, getenv)
	}
	var err error
	switch args[0] {
	case "help", "-h", "--help":
		fmt.Fprint(io.out, usage)
		return exitOK
	case "caps", "capabilities":
		err = runCaps(ctx, args[1:], io, getenv)
	case "chat":
		err = runChat(ctx, args[1:], io, getenv)
	case "conversations", "convs":
		err = runConversations(ctx, args[1:], io, getenv)
	case "secrets":
		err = runSecrets(ctx, args[1:], io, getenv)
	case "config":
		err = runConfig(ctx, args[1:], io, getenv)
	case pluginHostCommand:
		return runPluginHost(ctx, io)
	case sandboxCommand:
		return runSandboxExec(args[1:], io)
	default:
		if strings.HasPrefix(args[0], "-") {
			return runDesktop(ctx, args, io, getenv)
		}
		err = fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	return report(err, io)
}

// report prints err and picks the exit code.
func report(err error, io stdio) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(io.err, "wrasse: %v\n\n%s", strings.TrimPrefix(err.Error(), errUsage.Error()+": "), usage)
		return exitUsage
	case errors.Is(err, errSilent):
		return exitFail
	}
	fmt.Fprintf(io.err, "wrasse: %v\n", err)
	return exitFail
}

// errSilent is a failure whose explanation was already printed.
var errSilent = errors.New("failed")

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
