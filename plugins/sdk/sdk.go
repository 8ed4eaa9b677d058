package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Handler serves one tool call. Args have already been validated against the
// tool's JSON Schema by the host. Return a *Result for success; return an
// error (ideally from Errorf) for a failure the model should read.
type Handler func(ctx context.Context, req *Request) (*Result, error)

// Plugin is what a plugin's Init function returns: the handlers for the tools
// its SKILL.md declares, and an optional cleanup.
type Plugin struct {
	handlers map[string]Handler
	closeFn  func() error
}

// NewPlugin returns an empty plugin to register handlers on.
func NewPlugin() *Plugin { return &Plugin{handlers: map[string]Handler{}} }

// Handle registers the handler of one tool. Registering a name twice keeps
// the last handler; the host compares the final set with SKILL.md.
func (p *Plugin) Handle(tool string, h Handler) { p.handlers[tool] = h }

// OnClose sets the cleanup the host runs on reload and shutdown.
func (p *Plugin) OnClose(fn func() error) { p.closeFn = fn }

// ToolNames lists the registered tools in sorted order.
func (p *Plugin) ToolNames() []string {
	names := make([]string, 0, len(p.handlers))
	for n := range p.handlers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Handler returns the handler of a tool, or nil.
func (p *Plugin) Handler(tool string) Handler { return p.handlers[tool] }

// Close runs the plugin's cleanup, if any.
func (p *Plugin) Close() error {
	if p.closeFn == nil {
		return nil
	}
	return p.closeFn()
}

// Request is one validated tool call.
type Request struct {
	Tool string
	// Args is the decoded argument object (never nil).
	Args map[string]any
	// Raw is the argument object as JSON.
	Raw []byte
}

// NewRequest decodes raw JSON arguments into a Request.
func NewRequest(tool string, raw []byte) (*Request, error) {
	args := map[string]any{}
	if len(strings.TrimSpace(string(raw))) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, fmt.Errorf("arguments of %s are not a JSON object: %w", tool, err)
		}
	}
	if args == nil {
		args = map[string]any{}
	}
	return &Request{Tool: tool, Args: args, Raw: raw}, nil
}

// Decode unmarshals the arguments into v (a pointer to a struct).
func (r *Request) Decode(v any) error {
	raw := r.Raw
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("decode arguments of %s: %w", r.Tool, err)
	}
	return nil
}

// String returns a string argument, or def when absent or not a string.
func (r *Request) String(name, def string) string {
	if v, ok := r.Args[name].(string); ok {
		return v
	}
	return def
}

// Int returns an integer argument, or def when absent or not a number.
func (r *Request) Int(name string, def int) int {
	if v, ok := r.Args[name].(float64); ok {
		return int(v)
	}
	return def
}

// Float returns a number argument, or def.
func (r *Request) Float(name string, def float64) float64 {
	if v, ok := r.Args[name].(float64); ok {
		return v
	}
	return def
}

// Bool returns a boolean argument, or def.
func (r *Request) Bool(name string, def bool) bool {
	if v, ok := r.Args[name].(bool); ok {
		return v
	}
	return def
}

// Has reports whether the argument is present.
func (r *Request) Has(name string) bool { _, ok := r.Args[name]; return ok }

// Result is a tool's successful output: text, or a JSON value.
type Result struct {
	Text string
	// JSON, when set, is marshalled and returned instead of Text.
	JSON any
}

// Text returns a text result.
func Text(s string) *Result { return &Result{Text: s} }

// Textf returns a formatted text result.
func Textf(format string, args ...any) *Result { return &Result{Text: fmt.Sprintf(format, args...)} }

// JSON returns a structured result.
func JSON(v any) *Result { return &Result{JSON: v} }

// ToolError is a failure meant for the model: the message says what went wrong
// and what to do instead.
type ToolError struct {
	Msg string
	// err is what the message was written for (ErrProtected, say), so
	// that errors.Is still sees it.
	err error
}

func (e *ToolError) Error() string { return e.Msg }

// Unwrap returns the error the message was written for, if any.
func (e *ToolError) Unwrap() error { return e.err }

// Errorf returns a *ToolError.
func Errorf(format string, args ...any) error {
	return &ToolError{Msg: fmt.Sprintf(format, args...)}
}

// ErrOutsideRoots is returned by Env.Resolve for a path outside the allowed roots.
var ErrOutsideRoots = errors.New("path is outside the folders this capability may use")

// ErrNoSandbox is returned by Env.Sandbox when the host cannot confine
// commands (it runs without its sandbox launcher).
var ErrNoSandbox = errors.New("the host offers no sandbox for commands")

// ErrHostNotAllowed is returned by CheckHost when the call may not reach a
// host: the person denied it, no one could be asked (a headless run), or
// no check was installed for the call.
var ErrHostNotAllowed = errors.New("network host not allowed")

// Logger writes to the host's log, tagged with the plugin's name. Its
// functions are set by the host; a zero Logger discards.
type Logger struct {
	InfoFn  func(msg string, kv ...any)
	WarnFn  func(msg string, kv ...any)
	ErrorFn func(msg string, kv ...any)
}

func (l *Logger) Info(msg string, kv ...any) {
	if l != nil && l.InfoFn != nil {
		l.InfoFn(msg, kv...)
	}
}

func (l *Logger) Warn(msg string, kv ...any) {
	if l != nil && l.WarnFn != nil {
		l.WarnFn(msg, kv...)
	}
}

func (l *Logger) Error(msg string, kv ...any) {
	if l != nil && l.ErrorFn != nil {
		l.ErrorFn(msg, kv...)
	}
}

// Env is what the host hands a plugin's Init: where it lives, what it may
// touch, and the host's services. Authority comes from here (settings and
// granted permissions), never from a model's arguments.
type Env struct {
	// Name is the capability's name.
	Name string
	// PluginDir is the plugin folder on disk ("" for a plugin embedded in the app).
	PluginDir string
	// Workspace is the workspace root.
	Workspace string
	// Roots are the folders the plugin may read and write, absolute and clean.
	// An empty list means "no file access beyond PluginDir".
	Roots []string
	// Hosts are the network hosts the plugin may reach; "*" means any.
	Hosts []string
	// Log is the plugin's logger.
	Log *Logger
	// SecretFn looks a secret up by name through the host's secret service.
	SecretFn func(name string) (string, error)
	// Settings are plain, non-secret settings for this capability.
	Settings map[string]string
	// NoAccess are paths no tool may read or write, with everything
	// beneath them (the workspace's database, config.json, caches, logs);
	// ReadOnly are paths tools may read but not write (the whole
	// workspace, the capability folder among it). Set by the host; Permit
	// and the file API enforce them.
	NoAccess []string
	ReadOnly []string
	// Credentials are the files and folders holding the person's keys,
	// tokens and passwords: a file with other names (hard links) that is
	// one of them, or one at any depth beneath such a folder, is refused as if it
	// were NoAccess, whatever name it is reached by. Set by the host.
	Credentials []string
	// SandboxFn confines a command to the plugin's sandbox (see Sandbox);
	// nil when the host offers none.
	SandboxFn func(cmd *exec.Cmd, network bool) error
	// SandboxDoneFn frees what SandboxFn set up for a command that has
	// ended (see SandboxDone); nil when there is nothing to free.
	SandboxDoneFn func(cmd *exec.Cmd)

	// credentials remembers the files with other names found to be no
	// credential file (credmemo.go).
	credentials memoOnce
}

// Sandbox rewrites cmd, before it starts, so that it runs in the operating
// system's sandbox: it may write only beneath the roots and the temporary
// folder, never touch the workspace's protected paths, and reach the
// network only when network is true. The command gets a temporary folder
// of its own (TMPDIR), the only one it may use: call SandboxDone once it
// has ended. It fails with ErrNoSandbox when the host offers no sandbox.
func (e *Env) Sandbox(cmd *exec.Cmd, network bool) error {
	if e == nil || e.SandboxFn == nil {
		return ErrNoSandbox
	}
	return e.SandboxFn(cmd, network)
}

// SandboxDone frees what Sandbox set up for cmd, which has ended: its own
// temporary folder goes, with what it left there.
func (e *Env) SandboxDone(cmd *exec.Cmd) {
	if e != nil && e.SandboxDoneFn != nil {
		e.SandboxDoneFn(cmd)
	}
}

// Secret returns a named secret from the host's secret service.
func (e *Env) Secret(name string) (string, error) {
	if e == nil || e.SecretFn == nil {
		return "", fmt.Errorf("secret %q: the host offers no secret service", name)
	}
	return e.SecretFn(name)
}

// Resolve turns path (absolute, or relative to base) into a clean absolute
// path the plugin may read: inside one of the allowed roots, following
// symlinks of the part that exists, and outside the protected paths (see
// Permit). base is usually a working folder chosen within the roots; ""
// means DefaultFolder. Use ResolveWrite for a path that will be written.
//
// A resolved path is a decision about that moment only: open what a tool
// reads or writes with the file API (OpenArg, OpenDirArg, ParentArg …),
// which checks what it actually opens.
func (e *Env) Resolve(base, path string) (string, error) {
	return e.resolve(base, path, false)
}

func (e *Env) resolve(base, path string, write bool) (string, error) {
	if len(e.Roots) == 0 {
		return "", fmt.Errorf("%w: no folders are allowed (%s)", ErrOutsideRoots, path)
	}
	p := path
	if !filepath.IsAbs(p) {
		if base == "" {
			base = e.DefaultFolder()
		}
		if base == "" {
			return "", fmt.Errorf("%w: %w (%s)", ErrOutsideRoots, errNoFolder, path)
		}
		p = filepath.Join(base, p)
	}
	return e.Permit(p, write)
}

// ResolveArg resolves a path a model passed as a tool argument: relative
// paths start in DefaultFolder (the first granted folder, never the
// workspace), and the result must lie inside the roots and outside the
// protected paths. Its errors are ToolErrors written for the model: they
// name the folders it may use, say none were granted, or say the path is
// protected.
func (e *Env) ResolveArg(arg string) (string, error) {
	return e.resolveArg(arg, false)
}

func (e *Env) resolveArg(arg string, write bool) (string, error) {
	if strings.TrimSpace(arg) == "" {
		arg = "."
	}
	p, err := e.resolve("", arg, write)
	if err != nil {
		return "", e.toolError(arg, err)
	}
	return p, nil
}

// realPrefix resolves symlinks in the longest existing prefix of p.
func realPrefix(p string) string {
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return r
			}
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		if rest == "" {
			rest = filepath.Base(cur)
		} else {
			rest = filepath.Join(filepath.Base(cur), rest)
		}
		cur = parent
	}
}

// AllowsHost reports whether the plugin may reach host.
func (e *Env) AllowsHost(host string) bool {
	for _, h := range e.Hosts {
		if h == "*" || strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}
