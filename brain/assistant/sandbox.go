package assistant

import (
	"fmt"
	"os"
	"strings"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/mcp"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// SandboxInfo says, in plain words, whether a capability's code runs
// confined by the operating system, what the kernel enforces and what it
// does not. The capability's page and `wrasse caps show` show it.
type SandboxInfo struct {
	Capability string `json:"capability"`
	// Code is false for a guide: it runs no code of its own.
	Code bool `json:"code"`
	// InProcess is true when the code runs inside Wrasse: capabilities
	// that ship with Wrasse (reviewed, not sandboxed), and others when no
	// plugin process is configured.
	InProcess bool `json:"inProcess"`
	// Sandboxed is true when the code runs in a process of its own that
	// the operating system confines.
	Sandboxed bool `json:"sandboxed"`
	// Commands is true when the commands it runs (the shell's) are
	// confined by the operating system.
	Commands bool `json:"commands,omitempty"`
	// Enforced lists what the kernel enforces; Gaps what it does not.
	Enforced []string `json:"enforced,omitempty"`
	Gaps     []string `json:"gaps,omitempty"`
	// Summary is all of it in one line.
	Summary string `json:"summary"`
}

// commandRunners are the built-in capabilities whose tools run commands
// through the command sandbox (sdk.Env.Sandbox).
var commandRunners = map[string]bool{"shell": true}

// Sandbox describes how the named capability's code runs.
func (a *App) Sandbox(name string) (SandboxInfo, error) {
	c, err := a.reg.Get(name)
	if err != nil {
		return SandboxInfo{}, err
	}
	if c.Kind == cerebellum.KindMCP {
		l, _ := a.reg.Loader(cerebellum.KindMCP).(*mcp.Loader)
		return mcpSandboxInfo(c, l != nil && l.Sandboxed(), sandbox.ExpectCommand, sandbox.UnixSocketsRefusable()), nil
	}
	return sandboxInfo(c, a.host), nil
}

// sandboxLauncher is the command line prefix that runs a program confined
// (sandbox.Main): this executable with its hidden subcommand, when the app
// has one (nil in a build without a plugin process, as in tests).
func (a *App) sandboxLauncher() []string {
	if len(a.opts.PluginChild) == 0 {
		return nil
	}
	return []string{a.opts.PluginChild[0], plugins.SandboxCommand}
}

// ProtectedPaths are workspace ws's protected paths as every sandbox
// takes them (plugins.Options.Protected, mcp.Options.Protected): the
// sandbox does not know the workspace's layout.
func ProtectedPaths(ws string) sandbox.Protected {
	w := workspace.Workspace{Root: ws}
	noAccess, readOnly := w.Protected()
	// Wrasse's own executable starts every plugin process and sandbox
	// before they are confined: replaced, the next one would run
	// unconfined (and the person's next start of Wrasse would run it).
	// (Commands and MCP servers may still run it where a grant reaches it,
	// as any installed program: sandbox.Command.)
	if exe, err := os.Executable(); err == nil {
		readOnly = append(readOnly, sandbox.LauncherPaths(exe)...)
	}
	return sandbox.Protected{NoAccess: noAccess, ReadOnly: readOnly, Runnable: []string{w.Capabilities()}, RepoMemory: w.RepoMemory()}
}

// pluginProtected are ProtectedPaths with the person's credential files
// and folders, for the plugins' file API: it refuses a file in a granted
// folder that is another name (a hard link) of one of them (a sandbox
// reads none of them by its own rules, but the built-in file tools run
// in Wrasse's process).
func (a *App) pluginProtected(ws string) sandbox.Protected {
	p := ProtectedPaths(ws)
	p.Credentials = a.credentialPaths(a.homes())
	return p
}

// mcpSandboxInfo says how an MCP capability's server runs: a remote one
// runs nothing here; a stdio one runs in sandbox.ForMCP when the app has
// the launcher, as far as the kernel goes (expect, unixRefusable).
func mcpSandboxInfo(c *cerebellum.Capability, launcher bool, expect func(network bool) sandbox.Status, unixRefusable bool) SandboxInfo {
	info := SandboxInfo{Capability: c.Name}
	if c.Manifest != nil && c.Manifest.MCP != nil && c.Manifest.MCP.URL != "" {
		info.Summary = "a remote server: nothing of it runs on this computer; Wrasse sends it requests at " + c.Manifest.MCP.URL
		return info
	}
	info.Code = true
	if !launcher {
		info.Gaps = []string{"the server runs as a program of its own with your account's rights: this build has no sandbox launcher"}
		info.Summary = "not sandboxed: " + info.Gaps[0]
		return info
	}
	network := !c.NoNetwork
	st := expect(network)
	info.Sandboxed = st.Files
	if st.Files {
		info.Enforced = append(info.Enforced, "files: read and write only the folders granted to the assistant (its MCP roots), its own temporary folder and the MCP package cache; "+
			"read its runtime, the runtimes and packages in your home folder, its capability folder and the paths its command names; never Wrasse's database, config.json, caches or logs; brain/cerebellum read-only")
	}
	info.Gaps = append(info.Gaps, st.Gaps()...)
	if unixRefusable {
		info.Enforced = append(info.Enforced, "no unix sockets but a connected pair between its own processes: it cannot reach Wrasse's control socket or other local services through their socket files, nor send datagrams to them",
			"no typing into your terminal: it has none (a session of its own) and TIOCSTI is refused")
	} else {
		info.Gaps = append(info.Gaps, "unix sockets are not refused on this system: it can connect to local services (Wrasse's control socket among them) through their socket files")
	}
	parts := []string{"runs in a process of its own; " + st.String()}
	switch {
	case network:
		parts = append(parts, "network on: it may reach any host (switch it off on its page if it needs none)")
	case st.Network:
		tcp := "network: no TCP connections (switched off on its page)"
		if unixRefusable {
			tcp += ", TCP fast open included" // the same seccomp filter refuses it
		}
		info.Enforced = append(info.Enforced, tcp)
		info.Gaps = append(info.Gaps, "UDP is not blocked by the kernel (name lookups, and datagrams to any host)")
		parts = append(parts, "network off")
	}
	info.Summary = strings.Join(parts, "; ")
	return info
}

func sandboxInfo(c *cerebellum.Capability, host *plugins.Host) SandboxInfo {
	info := SandboxInfo{Capability: c.Name}
	switch {
	case c.Kind == cerebellum.KindGuide:
		info.Summary = "no code: a guide runs nothing of its own"
		return info
	}
	info.Code = true
	trusted := c.Source == cerebellum.SourceBuiltin
	conf := host.Confinement(trusted, c.Granted)
	var parts []string
	switch {
	case trusted:
		info.InProcess = true
		parts = append(parts, "runs inside Wrasse, not sandboxed: it ships with Wrasse and its code is reviewed")
	case !conf.Sandboxed:
		info.InProcess = true
		info.Gaps = append(info.Gaps, "its code runs inside Wrasse with no operating-system sandbox (no plugin process is configured)")
		parts = append(parts, "not sandboxed: runs inside Wrasse (no plugin process is configured)")
	default:
		info.Sandboxed = true
		info.Enforced = append(info.Enforced, enforced(conf.Status)...)
		info.Gaps = append(info.Gaps, conf.Status.Gaps()...)
		parts = append(parts, "runs in a process of its own; "+conf.Status.String())
	}
	if trusted && commandRunners[c.Name] {
		if conf.Commands {
			info.Commands = true
			st := conf.CommandStatus
			info.Enforced = append(info.Enforced, commandEnforced(st)...)
			for _, g := range st.Gaps() {
				info.Gaps = append(info.Gaps, "commands: "+g)
			}
			parts = append(parts, "commands it runs: "+commandSummary(st))
		} else {
			info.Gaps = append(info.Gaps, "the commands it runs are not sandboxed (this build has no sandbox launcher)")
			parts = append(parts, "commands it runs are not sandboxed")
		}
	}
	info.Summary = strings.Join(parts, "; ")
	return info
}

// enforced says what a plugin process's Status holds, for a person.
func enforced(st sandbox.Status) []string {
	var out []string
	if st.Files {
		out = append(out, "files: only the folders granted to it (none without the files permission), its own folder and what the Go runtime reads; never Wrasse's database, config.json, caches or logs")
	}
	if st.Network {
		out = append(out, "network: no TCP connections (it has no network permission)")
	}
	return out
}

func commandEnforced(st sandbox.Status) []string {
	if !st.Files {
		return nil
	}
	return []string{"commands: write only beneath the granted folders and the temporary folder; Wrasse's database, config.json, secrets and logs neither readable nor writable; brain/cerebellum read-only"}
}

func commandSummary(st sandbox.Status) string {
	if !st.Files {
		return "not confined (" + strings.Join(st.Gaps(), "; ") + ")"
	}
	return fmt.Sprintf("sandboxed by Landlock ABI %d (network and Unix sockets per the Shell's settings)", st.ABI)
}
