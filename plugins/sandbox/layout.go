package sandbox

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// systemExec are the folders programs and their libraries live in.
var systemExec = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix/store", "/snap",
	"/etc/alternatives"}

// etcFiles are the files in /etc that libraries read to work: name
// resolution, certificates, time zones, the dynamic linker, locales.
// /etc/passwd, shadow, sudoers and SSH host keys are not among them.
var etcFiles = []string{"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/timezone",
	"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf", "/etc/host.conf", "/etc/services",
	"/etc/protocols", "/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/tls/certs", "/etc/mime.types",
	"/etc/locale.alias", "/etc/gitconfig", "/etc/inputrc", "/etc/magic", "/etc/papersize", "/usr/share/zoneinfo"}

// devFiles are the device files ordinary programs use.
var devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// homeTools are folders under the home folder that build tools read and
// write (caches, installed toolchains), relative to it.
var homeTools = []string{".cache", "go", ".cargo", ".rustup", ".npm", ".local/bin", ".local/lib", ".nvm", ".pyenv",
	".gradle", ".m2"}

// homeConfig are configuration files under the home folder that common
// tools need to read to work at all (git refuses to run when it cannot
// read its configuration).
var homeConfig = []string{".gitconfig", ".config/git", ".gitignore_global", ".npmrc", ".config/go"}

// CommandOptions describe one shell command's sandbox.
type CommandOptions struct {
	// Roots are the folders the user granted.
	Roots []string
	// Workspace is Wrasse's workspace, whose protected paths stay
	// protected even inside a granted folder.
	Workspace string
	// Home is the user's home folder ("" for none); its tool caches and
	// configuration files become usable.
	Home string
	// Temp is the temporary folder (default os.TempDir()).
	Temp string
	// Network allows TCP.
	Network bool
}

// ForCommand is the policy of a shell command: read and write the granted
// folders, the temporary folder and build tools' caches; read and execute
// the system's programs; read the configuration files libraries and git
// need; never touch the workspace's database, config.json, caches and
// logs; read and execute, never write, the capability folder (skills ship
// scripts their instructions run from there).
func ForCommand(o CommandOptions) Policy {
	temp := o.Temp
	if temp == "" {
		temp = os.TempDir()
	}
	p := Policy{
		ReadWrite: append(append([]string(nil), o.Roots...), temp, "/dev/shm"),
		Exec:      append([]string(nil), systemExec...),
		ReadOnly:  append([]string{"/proc"}, etcFiles...),
		Network:   o.Network,
	}
	p.ReadWrite = append(p.ReadWrite, devFiles...)
	if o.Home != "" {
		for _, t := range homeTools {
			p.ReadWrite = append(p.ReadWrite, filepath.Join(o.Home, t))
		}
		for _, c := range homeConfig {
			p.ReadOnly = append(p.ReadOnly, filepath.Join(o.Home, c))
		}
	}
	if o.Workspace != "" {
		p.Exec = append(p.Exec, workspace.Workspace{Root: o.Workspace}.Capabilities())
	}
	p.protect(o.Workspace)
	return p
}

// PluginOptions describe one plugin process's sandbox.
type PluginOptions struct {
	// Roots are the folders the plugin may use (only with Files).
	Roots     []string
	Workspace string
	// PluginDir is the plugin's own folder, readable.
	PluginDir string
	// Files, Exec and Network are the granted permissions.
	Files, Exec, Network bool
}

// ForPlugin is the policy of a plugin process: read and write beneath its
// roots (nothing without the files permission), read its own folder and
// what the Go runtime and libraries read (time zones; name resolution and
// certificates with network; system programs with exec), no TCP without
// network, and the workspace's protected paths as for commands.
func ForPlugin(o PluginOptions) Policy {
	p := Policy{Network: o.Network, ReadWrite: []string{"/dev/null"}}
	p.ReadOnly = append(p.ReadOnly, "/etc/localtime", "/usr/share/zoneinfo", "/dev/urandom")
	if o.PluginDir != "" {
		p.ReadOnly = append(p.ReadOnly, o.PluginDir)
	}
	if o.Files {
		p.ReadWrite = append(p.ReadWrite, o.Roots...)
	}
	if o.Network {
		p.ReadOnly = append(p.ReadOnly, etcFiles...)
	}
	if o.Exec {
		p.Exec = append(p.Exec, systemExec...)
		p.ReadOnly = append(p.ReadOnly, etcFiles...)
		p.ReadWrite = append(p.ReadWrite, devFiles...)
	}
	p.protect(o.Workspace)
	return p
}

// protect adds the workspace's protected paths. A read-only one limits a
// grant; it is no grant itself: it is added (and so made readable) only
// where the policy reaches it already, or where a writable grant lies
// inside it and must be carved around. Else the workspace, read-only for
// every tool, would become readable to every plugin and server.
func (p *Policy) protect(ws string) {
	if ws == "" {
		return
	}
	noAccess, readOnly := workspace.Workspace{Root: ws}.Protected()
	p.NoAccess = append(p.NoAccess, noAccess...)
	granted := cleanAll(slices.Concat(p.ReadWrite, p.Exec, p.ReadOnly))
	writable := cleanAll(p.ReadWrite)
	for _, r := range readOnly {
		c := Clean(r)
		if slices.ContainsFunc(granted, func(g string) bool { return g == c || within(g, c) }) ||
			slices.ContainsFunc(writable, func(g string) bool { return within(c, g) }) {
			p.ReadOnly = append(p.ReadOnly, r)
		}
	}
}

// runtimeHome are folders under the home folder where language runtimes
// and package managers keep installed interpreters and packages (nvm,
// pyenv, pipx, uv, cargo, go install…), relative to it: an MCP server
// started with npx, uvx or a runtime installed there reads and runs them.
var runtimeHome = []string{".cache", ".npm", ".local/bin", ".local/lib", ".local/share/uv", ".local/share/pnpm",
	".local/pipx", ".nvm", ".pyenv", ".volta", ".bun", ".deno", ".asdf", ".cargo/bin", ".rustup", "go/bin", ".yarn"}

// systemInfo are the files in /proc and /sys that runtimes read to size
// themselves (processors, memory, cgroup limits), and the process's own
// /proc entry (/proc/self names the launcher's, which becomes the
// server's). Other processes' entries (command lines, environments) are
// not among them.
var systemInfo = []string{"/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime",
	"/proc/version", "/proc/filesystems", "/proc/sys/kernel/osrelease", "/proc/sys/vm/overcommit_memory",
	"/sys/fs/cgroup", "/sys/devices/system/cpu"}

// MCPOptions describe one stdio MCP server's sandbox.
type MCPOptions struct {
	// Roots are the folders granted to the assistant: read and write.
	Roots []string
	// Workspace is Wrasse's workspace, whose protected paths stay
	// protected even inside a granted folder.
	Workspace string
	// Home is the user's home folder ("" for none).
	Home string
	// Program is the server's command as found on PATH; the installation
	// it belongs to becomes readable and executable (RuntimePrefix).
	Program string
	// Dir is the capability's folder: read and execute (its working
	// folder, and what it ships).
	Dir string
	// Paths are the existing absolute paths its arguments name (a script,
	// a project folder): read and execute, as the person approved them.
	Paths []string
	// Temp and Cache are the server's own temporary folder and the package
	// cache MCP servers share (npx, uvx): read and write.
	Temp, Cache string
	// Network allows TCP.
	Network bool
}

// ForMCP is the policy of a stdio MCP server: read and write the folders
// granted to the assistant, its own temporary folder and the MCP package
// cache; read and execute the system's programs, its runtime's
// installation, runtimes and packages kept in the home folder, its
// capability folder and the paths its arguments name; read the
// configuration files libraries read; never the workspace's protected
// paths; no unix sockets (the kernel cannot otherwise keep it from
// Wrasse's control socket); TCP per Network.
func ForMCP(o MCPOptions) Policy {
	p := Policy{
		ReadWrite:     append(append([]string(nil), o.Roots...), devFiles...),
		Exec:          append([]string(nil), systemExec...),
		ReadOnly:      append(append([]string(nil), etcFiles...), systemInfo...),
		Network:       o.Network,
		NoUnixSockets: true,
	}
	for _, d := range []string{o.Temp, o.Cache} {
		if d != "" {
			p.ReadWrite = append(p.ReadWrite, d)
		}
	}
	if prefix := RuntimePrefix(o.Program); prefix != "" {
		p.Exec = append(p.Exec, prefix)
	}
	if o.Dir != "" {
		p.Exec = append(p.Exec, o.Dir)
	}
	p.Exec = append(p.Exec, o.Paths...)
	if o.Home != "" {
		for _, r := range runtimeHome {
			p.Exec = append(p.Exec, filepath.Join(o.Home, r))
		}
		for _, c := range homeConfig {
			p.ReadOnly = append(p.ReadOnly, filepath.Join(o.Home, c))
		}
	}
	p.protect(o.Workspace)
	return p
}

// RuntimePrefix is the installation a program belongs to, with symbolic
// links resolved: the folder holding its bin/ (or a version manager's
// shims/) folder, e.g. /usr for /usr/bin/node or ~/.nvm/versions/node/v22
// for nvm's node; its own folder otherwise. "" when program is not an
// absolute path to an existing file, or the prefix would be the root.
func RuntimePrefix(program string) string {
	if !filepath.IsAbs(program) {
		return ""
	}
	real, err := filepath.EvalSymlinks(program)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(real)
	switch filepath.Base(dir) {
	case "bin", "sbin", "shims", "libexec":
		dir = filepath.Dir(dir)
	}
	if dir == string(filepath.Separator) || dir == "." {
		return ""
	}
	return dir
}
