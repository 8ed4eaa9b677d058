package sandbox

import (
	"os"
	"path/filepath"

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
	"/etc/protocols", "/etc/ssl/certs", "/etc/ca-certificates", "/etc/pki/tls/certs", "/etc/mime.types",
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

// protect adds the workspace's protected paths.
func (p *Policy) protect(ws string) {
	if ws == "" {
		return
	}
	noAccess, readOnly := workspace.Workspace{Root: ws}.Protected()
	p.NoAccess = append(p.NoAccess, noAccess...)
	p.ReadOnly = append(p.ReadOnly, readOnly...)
}
