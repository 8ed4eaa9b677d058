package plugins

import (
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// baseEnvNames are the harmless variables every plugin environment starts
// from, so that commands it runs find their tools and home folder, and
// desktop helpers (xdg-open) find the user's session.
var baseEnvNames = []string{"PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TZ",
	// The whole locale, so that programs a plugin runs speak the user's
	// language (messages) and formats (dates, numbers), as in a terminal.
	"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_COLLATE", "LC_NUMERIC", "LC_TIME", "LC_MONETARY",
	"DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"}

// secretWords mark a variable name as secret when they appear as a word
// (split on _ - .); secretParts when they appear anywhere.
var (
	secretWords = setOf("KEY", "KEYS", "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS",
		"PWD", "PAT", "AUTH", "CREDENTIAL", "CREDENTIALS", "PRIVATE", "SESSION", "COOKIE", "SIGNATURE")
	secretParts = []string{"APIKEY", "API_KEY", "PASSWORD", "PASSWD", "SECRET", "TOKEN", "CREDENTIAL", "PRIVATEKEY", "ACCESSKEY"}
)

// looksSecret reports whether an environment variable name looks like it
// holds a credential (OPENAI_API_KEY, GITHUB_TOKEN, DB_PASSWORD, ...).
// Such variables never reach a plugin; it asks env.Secret instead.
func looksSecret(name string) bool {
	u := strings.ToUpper(name)
	for _, part := range secretParts {
		if strings.Contains(u, part) {
			return true
		}
	}
	for _, w := range strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if secretWords[w] {
			return true
		}
	}
	return false
}

// virtualEnv is a plugin's environment: what os.Getenv sees inside the
// interpreter and what commands it starts inherit. It never holds the
// process environment, only named variables that do not look secret.
type virtualEnv struct {
	mu   sync.Mutex
	vars map[string]string
}

// newVirtualEnv builds the environment of one plugin: the base variables
// and those its SKILL.md names under permissions.env (exact names or
// PREFIX_* patterns), read from lookup. withheld lists named variables
// that were set but look secret.
func newVirtualEnv(scope []string, withEnv bool, lookup func(string) (string, bool), environ func() []string) (venv *virtualEnv, withheld []string) {
	venv = &virtualEnv{vars: map[string]string{}}
	for _, n := range baseEnvNames {
		if v, ok := lookup(n); ok {
			venv.vars[n] = v
		}
	}
	if !withEnv {
		return venv, nil
	}
	var names []string
	for _, pat := range scope {
		pat = strings.TrimSpace(pat)
		if pat == "" {
			continue
		}
		if !strings.ContainsAny(pat, "*?[") {
			names = append(names, pat)
			continue
		}
		for _, kv := range environ() {
			n, _, _ := strings.Cut(kv, "=")
			if ok, _ := path.Match(pat, n); ok {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	for _, n := range names {
		v, ok := lookup(n)
		if !ok {
			continue
		}
		if looksSecret(n) {
			if len(withheld) == 0 || withheld[len(withheld)-1] != n {
				withheld = append(withheld, n)
			}
			continue
		}
		venv.vars[n] = v
	}
	return venv, withheld
}

func (e *virtualEnv) get(k string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.vars[k]
	return v, ok
}

// list is the environment as KEY=value lines, sorted.
func (e *virtualEnv) list() []string {
	if e == nil {
		return []string{}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, 0, len(e.vars))
	for k, v := range e.vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// symbols are the os functions that work on the virtual environment.
func (e *virtualEnv) symbols() map[string]reflect.Value {
	getenv := func(k string) string { v, _ := e.get(k); return v }
	return map[string]reflect.Value{
		"Getenv":    reflect.ValueOf(getenv),
		"LookupEnv": reflect.ValueOf(e.get),
		"Environ":   reflect.ValueOf(e.list),
		"ExpandEnv": reflect.ValueOf(func(s string) string { return os.Expand(s, getenv) }),
		"Setenv": reflect.ValueOf(func(k, v string) error {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return fmt.Errorf("setenv: invalid variable name %q", k)
			}
			e.mu.Lock()
			defer e.mu.Unlock()
			e.vars[k] = v
			return nil
		}),
		"Unsetenv": reflect.ValueOf(func(k string) error {
			e.mu.Lock()
			defer e.mu.Unlock()
			delete(e.vars, k)
			return nil
		}),
		"Clearenv": reflect.ValueOf(func() {
			e.mu.Lock()
			defer e.mu.Unlock()
			clear(e.vars)
		}),
	}
}

// envSpec is everything sdk.Env is made from; fixed for the life of a
// runtime so a rebuilt instance gets the same authority.
type envSpec struct {
	name      string
	pluginDir string
	workspace string
	roots     []string
	hosts     []string
	secrets   func(name string) (string, error)
	log       *slog.Logger
	// noAccess and readOnly are the workspace's protected paths; runnable
	// what its commands may run there (sandbox.Protected).
	noAccess, readOnly, runnable []string
	// credentials are the person's credential files and folders
	// (sandbox.Protected.Credentials), for the file API's hard-link check.
	credentials []string
	// repoMemory is where commands' launchers keep the repositories they
	// found beneath the grants (sandbox.Protected.RepoMemory).
	repoMemory string
	// temps are the temporary folders of the commands sandboxFn confined
	// that have not ended yet.
	temps commandTemps
	// launcher confines commands (Options.Sandbox); nil: none.
	launcher []string
	// settings are the capability's settings in force (LoadRequest.Settings).
	settings map[string]string
	// unixSockets lets the commands it starts create Unix sockets: a
	// capability that ships with Wrasse whose UnixSocketsSetting the
	// person turned on. A plugin from elsewhere never gets them, whatever
	// its settings say (its SKILL.md chooses their defaults).
	unixSockets bool
}

// UnixSocketsSetting is the setting of a capability that ships with
// Wrasse (the shell's) that lets the commands it starts create Unix
// sockets; off unless "true".
const UnixSocketsSetting = "unixSockets"

// fileScope is what the egress checks a unix socket against: the
// plugin's folders and the protected paths, with the files permission
// (nil without).
func (s *envSpec) fileScope(pol policy) *sdk.Env {
	if !pol.allows(skillmd.PermFiles) {
		return nil
	}
	return &sdk.Env{Roots: append([]string(nil), s.roots...), NoAccess: append([]string(nil), s.noAccess...),
		ReadOnly: append([]string(nil), s.readOnly...), Credentials: slices.Clone(s.credentials)}
}

// sdkEnv makes the Env handed to Init. Slices are copied so the plugin
// cannot change the host's view.
func (s *envSpec) sdkEnv() *sdk.Env {
	l := s.log
	return &sdk.Env{
		Name:      s.name,
		PluginDir: s.pluginDir,
		Workspace: s.workspace,
		Roots:     append([]string(nil), s.roots...),
		Hosts:     append([]string(nil), s.hosts...),
		Log: &sdk.Logger{
			InfoFn:  func(msg string, kv ...any) { l.Info(msg, kv...) },
			WarnFn:  func(msg string, kv ...any) { l.Warn(msg, kv...) },
			ErrorFn: func(msg string, kv ...any) { l.Error(msg, kv...) },
		},
		SecretFn:      s.secrets,
		Settings:      maps.Collect(maps.All(s.settings)), // a copy, never nil
		NoAccess:      append([]string(nil), s.noAccess...),
		ReadOnly:      append([]string(nil), s.readOnly...),
		Credentials:   slices.Clone(s.credentials),
		SandboxFn:     s.sandboxFn(),
		SandboxDoneFn: s.temps.release,
	}
}

// sandboxFn confines a command a plugin starts to the command sandbox:
// its roots, a temporary folder of its own (TMPDIR, sandbox.CommandTemp,
// removed by sdk.Env.SandboxDone once it ends), the workspace's
// protected paths.
func (s *envSpec) sandboxFn() func(*exec.Cmd, bool) error {
	if len(s.launcher) == 0 {
		return nil
	}
	launcher := append([]string(nil), s.launcher...)
	roots := append([]string(nil), s.roots...)
	protected, unixSockets, log, temps := s.protected(), s.unixSockets, s.log, &s.temps
	return func(cmd *exec.Cmd, network bool) error {
		home, _ := os.UserHomeDir()
		if cmd.Env == nil {
			cmd.Env = os.Environ()
		}
		// A temporary folder of its own: the shared one is not the
		// command's to read or write, so it neither reads what another
		// command (or the person) left there nor plants what they run.
		temp, err := sandbox.CommandTemp()
		if err != nil {
			if log != nil {
				log.Warn("a command runs with the shared temporary folder", "error", err)
			}
		} else {
			cmd.Env = append(slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") }),
				"TMPDIR="+temp)
			temps.add(temp)
		}
		p := sandbox.ForCommand(sandbox.CommandOptions{Roots: roots, Protected: protected, Home: home, Temp: temp,
			Network: network, UnixSockets: unixSockets})
		// Build tools write the commands' own cache home, not the
		// person's caches (read-only to commands).
		if c := sandbox.CommandCache(home); c != "" && os.MkdirAll(c, 0o700) == nil {
			cmd.Env = append(cmd.Env, sandbox.CommandCacheEnv(c)...)
		}
		if err := sandbox.Command(cmd, launcher, p); err != nil {
			temps.release(cmd)
			return err
		}
		return nil
	}
}

// protected are the workspace's protected paths as the sandbox takes them.
func (s *envSpec) protected() sandbox.Protected {
	return sandbox.Protected{NoAccess: slices.Clone(s.noAccess), ReadOnly: slices.Clone(s.readOnly),
		Runnable: slices.Clone(s.runnable), Credentials: slices.Clone(s.credentials), RepoMemory: s.repoMemory}
}

// setProtected sets the protected paths of s.
func (s *envSpec) setProtected(p sandbox.Protected) {
	s.noAccess, s.readOnly, s.runnable, s.credentials, s.repoMemory = p.NoAccess, p.ReadOnly, p.Runnable, p.Credentials, p.RepoMemory
}

// protectedPaths are workspace ws's paths no tool may read (noAccess),
// write (readOnly) or, for commands, that they may run (runnable), as
// Options.Protected says. Without it, the whole workspace is out of
// reach: the plugin host does not know the workspace's layout.
func (o Options) protectedPaths(ws string) sandbox.Protected {
	if ws == "" {
		return sandbox.Protected{}
	}
	if abs, err := filepath.Abs(ws); err == nil {
		ws = abs
	}
	if o.Protected == nil {
		return sandbox.Protected{NoAccess: []string{ws}}
	}
	return o.Protected(ws)
}

// newEnvSpec decides a plugin's authority from the host's settings and
// the request: roots, hosts and which secrets it may ask for.
func (h *Host) newEnvSpec(req cerebellum.LoadRequest, pol policy, log *slog.Logger) *envSpec {
	c := req.Capability
	granted := append([]string(nil), req.Granted...)
	s := &envSpec{name: c.Name, workspace: req.Workspace, log: log, launcher: h.opts.sandboxLauncher(), settings: req.Settings,
		unixSockets: req.Trusted && strings.EqualFold(strings.TrimSpace(req.Settings[UnixSocketsSetting]), "true")}
	s.setProtected(h.opts.protectedPaths(req.Workspace))
	if c.Dir != "" {
		s.pluginDir = filepath.Join(c.Dir, pluginDir)
	}
	if h.opts.Roots != nil {
		s.roots = cleanRoots(h.opts.Roots(c.Name, granted))
	} else if req.Trusted && req.Workspace != "" {
		s.roots = cleanRoots([]string{req.Workspace})
	}
	perms := c.Manifest.Permissions
	if h.opts.Hosts != nil {
		s.hosts = h.opts.Hosts(c.Name, granted)
	} else if pol.allows(skillmd.PermNetwork) {
		s.hosts = append([]string(nil), perms[skillmd.PermNetwork]...)
		if len(s.hosts) == 0 {
			s.hosts = []string{"*"}
		}
	}
	s.secrets = h.secretFn(c.Name, pol, perms, log)
	return s
}

func cleanRoots(in []string) []string {
	var out []string
	for _, r := range in {
		if strings.TrimSpace(r) == "" {
			continue
		}
		if abs, err := filepath.Abs(r); err == nil {
			r = abs
		}
		out = append(out, filepath.Clean(r))
	}
	return out
}

// secretFn is the plugin's path to the host's secret service. Plugins
// that ship with the app may ask for any secret; others only for names
// their SKILL.md lists under permissions.env, with env granted, so an
// installed plugin cannot quietly read the user's API keys.
func (h *Host) secretFn(name string, pol policy, perms skillmd.Permissions, log *slog.Logger) func(string) (string, error) {
	declared := map[string]bool{}
	for _, n := range perms[skillmd.PermEnv] {
		declared[n] = true
	}
	return func(secret string) (string, error) {
		if h.opts.Secrets == nil {
			return "", fmt.Errorf("secret %q: Wrasse has no secret service configured", secret)
		}
		if !pol.trusted && (!pol.granted[skillmd.PermEnv] || !declared[secret]) {
			log.Warn("plugin asked for a secret it may not read", "secret", secret)
			return "", fmt.Errorf("secret %q: capability %s may read only secrets its SKILL.md lists under permissions.env, with the env permission granted (ask the user to grant env to %s in Settings → Capabilities)", secret, name, name)
		}
		if !pol.trusted && h.opts.SecretAllowed != nil {
			if err := h.opts.SecretAllowed(name, secret); err != nil {
				log.Warn("plugin asked for a secret not assigned to it", "secret", secret)
				return "", err
			}
		}
		log.Info("plugin reads a secret", "secret", secret)
		return h.opts.Secrets(secret)
	}
}

// commandTemps are commands' own temporary folders (sandbox.CommandTemp)
// not yet removed.
type commandTemps struct {
	mu   sync.Mutex
	dirs map[string]bool
}

func (t *commandTemps) add(dir string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dirs == nil {
		t.dirs = map[string]bool{}
	}
	t.dirs[dir] = true
}

// release removes the temporary folder sandboxFn gave cmd (its TMPDIR),
// once: a folder it did not make is left alone.
func (t *commandTemps) release(cmd *exec.Cmd) {
	var dir string
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			dir = v
		}
	}
	t.mu.Lock()
	ours := t.dirs[dir]
	delete(t.dirs, dir)
	t.mu.Unlock()
	if ours {
		_ = os.RemoveAll(dir)
	}
}
