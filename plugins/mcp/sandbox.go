package mcp

//lint:file-ignore SA1019 MCP roots and logging are deprecated from protocol 2026-07-28 on and still what servers of earlier versions (most) use

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// A stdio server runs in the sandbox family of plugins and commands
// (plugins/sandbox): it starts through the sandbox launcher
// (Options.Sandbox), which confines itself to sandbox.ForMCP and then
// becomes the server's command. The folders granted to the assistant are
// its to read and write (and are its MCP roots when its command names no
// folder of its own), its own temporary folder and its own package cache
// too (another server's it may read, never write: code one server put
// there would run in the other, with its secrets); its runtime's installation,
// the runtimes and packages kept in the home folder, its capability folder
// and the paths its arguments name are readable; the workspace's database,
// config.json, caches and logs never; unix sockets not at all; TCP unless
// its page keeps it off the network.

// box is one start's sandbox: what to undo once the server is gone.
type box struct {
	temp string
}

// cleanup removes the server's temporary folder.
func (b *box) cleanup() {
	if b != nil && b.temp != "" {
		_ = os.RemoveAll(b.temp)
	}
}

// confine rewrites cmd, not yet started, to run the server confined: its
// own temporary folder (also its working folder when it has none), its own
// package cache, and the sandbox launcher in front.
func (l *Loader) confine(cfg config, cmd *exec.Cmd) (*box, error) {
	// Not in the shared temporary folder, which shell commands write.
	temp, err := sandbox.ServerTemp(cfg.name)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrConnect, cfg.name, err)
	}
	b := &box{temp: temp}
	if cmd.Dir == "" {
		cmd.Dir = temp
	}
	home, _ := os.UserHomeDir()
	// npx finds the person's registries and proxies, never their tokens.
	npmrc, err := sandbox.NpmrcWithoutCredentials(home, temp)
	if err != nil {
		l.log.Warn("an MCP server starts without npm's settings", "capability", cfg.name, "error", err)
	}
	if npmrc != "" {
		cmd.Env = setDefault(cmd.Env, "NPM_CONFIG_USERCONFIG", npmrc)
	}
	cache, err := l.serverCache(cfg)
	if err != nil {
		b.cleanup()
		return nil, err
	}
	// Its own temporary folder; npx and uvx cache what they download in
	// its own cache, since the user's own caches are read-only here.
	cmd.Env = setDefault(cmd.Env, "TMPDIR", temp)
	// Python would write __pycache__ into a project in a granted folder at
	// the first start, which then no longer holds what was approved
	// (cerebellum.LaunchFiles hashes .pyc files: Python loads a planted one
	// in place of its source).
	cmd.Env = setDefault(cmd.Env, "PYTHONDONTWRITEBYTECODE", "1")
	if cache != "" {
		cmd.Env = setDefault(cmd.Env, "npm_config_cache", filepath.Join(cache, "npm"))
		cmd.Env = setDefault(cmd.Env, "UV_CACHE_DIR", filepath.Join(cache, "uv"))
	}
	if err := l.buildOutside(cfg, cmd, func() (string, error) { return cache, nil }); err != nil {
		b.cleanup()
		return nil, err
	}
	p := sandbox.ForMCP(sandbox.MCPOptions{
		Roots:     l.roots(),
		Protected: l.protected(cfg.workspace),
		Home:      home,
		Program:   lookPath(cfg.block.Command, envValue(cmd.Env, "PATH"), cmd.Dir),
		Dir:       cfg.dir,
		Paths:     argPaths(cmd.Args[1:], home),
		Temp:      temp,
		Cache:     cache,
		Network:   cfg.network,
	})
	if err := sandbox.Command(cmd, l.opts.Sandbox, p); err != nil {
		b.cleanup()
		return nil, fmt.Errorf("%w: %s: %v", ErrConnect, cfg.name, err)
	}
	return b, nil
}

// buildDirName is the folder, in a server's own cache (serverCache), that
// its build-and-run runner builds into.
const buildDirName = "build"

// buildOutside points the build output of cfg's build-and-run runner
// (cargo run, dotnet run: cerebellum.BuildOutputOf) at the build folder of
// the server's own cache, through the runner's variable: built in its
// project, it would change the code the approval covers at the first
// start and undo it. A folder the block names for it is never kept (a42):
// inside the project it would undo the approval, and anywhere else cargo
// runs the program it finds built there without checking its content,
// while the approval hashes none of it, so a command that can write that
// folder would choose what the next start runs. One named in the block's
// environment is replaced, with a warning in the log; one on the command
// line (cargo --target-dir, env VAR=…) cannot be
// (cerebellum.BuildOutput.Refused), and the server does not start, saying
// to remove it. cache gives the server's own cache folder (serverCache),
// asked only for such a runner; without one nothing changes.
func (l *Loader) buildOutside(cfg config, cmd *exec.Cmd, cache func() (string, error)) error {
	b := cerebellum.BuildOutputOf(&cfg.block, cfg.dir)
	switch {
	case b.Var == "":
		return nil
	case b.Refused() && b.Inside:
		return hint.With(fmt.Errorf("%w: MCP server %s does not start: its command line builds into %s, inside the project whose code you approved, so its first build would change that code and undo the approval; remove that setting from its mcp: block (Wrasse then builds into a folder of the server's own) and enable it again", ErrBuildsInProject, cfg.name, b.Set),
			hint.Hint{Action: "Edit its mcp: block", Page: hint.PageCapability, Target: cfg.name})
	case b.Refused():
		return hint.With(fmt.Errorf("%w: MCP server %s does not start: its command line builds into %s, a folder outside the server's own cache that other commands can write, and the runner would start whatever program it finds built there, which your approval does not cover; remove that setting from its mcp: block (Wrasse then builds into a folder of the server's own) and enable it again", ErrBuildsOutsideOwnCache, cfg.name, b.Set),
			hint.Hint{Action: "Edit its mcp: block", Page: hint.PageCapability, Target: cfg.name})
	}
	root, err := cache()
	if err != nil || root == "" {
		return err
	}
	dir := filepath.Join(root, buildDirName)
	switch {
	case b.Set != "" && b.Inside:
		l.log.Warn("an MCP server's build folder lies in its approved project; it builds into its own cache instead", "capability", cfg.name, "variable", b.Var, "folder", b.Set, "instead", dir)
	case b.Set != "":
		l.log.Warn("an MCP server's build folder lies outside its own cache, where other commands can replace what it runs; it builds into its own cache instead", "capability", cfg.name, "variable", b.Var, "folder", b.Set, "instead", dir)
	}
	cmd.Env = setEnv(cmd.Env, b.Var, dir)
	return nil
}

// serverCache is the package cache of cfg's server (npx's and uvx's
// downloads, which its next start runs): a folder of its own in
// Options.CacheDir, named after the capability and what its block runs,
// so that no other server, and no other command line of this capability,
// writes code this one runs. The caches of the capability's earlier
// command lines, and the one cache servers shared before, are removed.
// "" when there is no cache folder.
func (l *Loader) serverCache(cfg config) (string, error) {
	root := l.opts.CacheDir
	if root == "" {
		return "", nil
	}
	name := cfg.name + "." + cerebellum.LaunchKey(&cfg.block)[:16]
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("%w: %s: its package cache %s: %v", ErrConnect, cfg.name, dir, err)
	}
	// Capability names hold no dots: "npm" and "uv" in Wrasse's own cache
	// folder are the shared cache of earlier versions.
	legacy := filepath.Base(root) == sandbox.MCPCacheName
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		n := e.Name()
		if n != name && (strings.HasPrefix(n, cfg.name+".") || legacy && (n == "npm" || n == "uv")) {
			if err := os.RemoveAll(filepath.Join(root, n)); err != nil {
				l.log.Warn("removing an MCP server's old package cache", "capability", cfg.name, "folder", n, "error", err)
			}
		}
	}
	return dir, nil
}

// roots are the folders granted to the assistant, absolute and clean.
func (l *Loader) roots() []string {
	if l.opts.Folders == nil {
		return nil
	}
	var out []string
	for _, f := range l.opts.Folders() {
		if abs, err := filepath.Abs(f); err == nil && strings.TrimSpace(f) != "" {
			out = append(out, filepath.Clean(abs))
		}
	}
	return out
}

// mcpRoots are the folders granted to the assistant as MCP roots.
func (l *Loader) mcpRoots() []*sdk.Root {
	var out []*sdk.Root
	for _, r := range l.roots() {
		out = append(out, &sdk.Root{Name: filepath.Base(r), URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(r)}).String()})
	}
	return out
}

// lookPath finds command as the launcher will: a path with a separator
// relative to dir, else the first executable file of that name on path.
// "" when there is none (the launcher then says so).
func lookPath(command, path, dir string) string {
	if command == "" {
		return ""
	}
	if strings.ContainsRune(command, filepath.Separator) {
		if !filepath.IsAbs(command) {
			command = filepath.Join(dir, command)
		}
		return command
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, command)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// argPaths are the existing absolute paths an approved command line names
// (as an argument, or after an '=' in one): a script with its project (the
// outermost folder above it with a project marker) or else its folder,
// and folders. The home folder and what holds it are left out: naming a
// file there does not open the whole home.
func argPaths(args []string, home string) []string {
	var out []string
	for _, a := range args {
		for _, v := range []string{a, afterEquals(a)} {
			if v == "" || !filepath.IsAbs(v) {
				continue
			}
			fi, err := os.Stat(v)
			if err != nil {
				continue
			}
			v = filepath.Clean(v)
			out = append(out, v)
			if fi.Mode().IsRegular() {
				if dir := cerebellum.ProjectOf(filepath.Dir(v), home); dir != "" {
					out = append(out, dir)
				}
			}
		}
	}
	return out
}

// namesFolder reports whether a command line names an existing folder
// by its absolute path (the folder a server is configured to work in).
func namesFolder(args []string) bool {
	for _, a := range args {
		for _, v := range []string{a, afterEquals(a)} {
			if fi, err := os.Stat(v); err == nil && filepath.IsAbs(v) && fi.IsDir() {
				return true
			}
		}
	}
	return false
}

func afterEquals(a string) string {
	if _, v, ok := strings.Cut(a, "="); ok {
		return v
	}
	return ""
}

// setDefault sets key in env unless the server's block set it.
func setDefault(env []string, key, value string) []string {
	if envValue(env, key) != "" {
		return env
	}
	return append(env, key+"="+value)
}

// setEnv sets key in env, replacing any value it had.
func setEnv(env []string, key, value string) []string {
	env = slices.DeleteFunc(env, func(kv string) bool { k, _, _ := strings.Cut(kv, "="); return k == key })
	return append(env, key+"="+value)
}

// envValue is key's value in env.
func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// protected are workspace ws's protected paths (Options.Protected); the
// whole workspace when they are not given.
func (l *Loader) protected(ws string) sandbox.Protected {
	if ws == "" {
		return sandbox.Protected{}
	}
	if l.opts.Protected == nil {
		return sandbox.Protected{NoAccess: []string{ws}}
	}
	return l.opts.Protected(ws)
}
