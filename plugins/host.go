package plugins

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// Defaults of Options.
const (
	DefaultTimeout      = 60 * time.Second
	DefaultCloseTimeout = 2 * time.Second
	// DefaultMaxUntrustedTimeout caps the per-call deadline of plugins that
	// do not ship with the app, whatever their SKILL.md asks for.
	DefaultMaxUntrustedTimeout = 10 * time.Minute
)

// defaultGrace is how long an overrunning call may take to return on its
// own (honouring its context) before its interpreter is stopped.
const defaultGrace = 100 * time.Millisecond

// Options configure a Host.
type Options struct {
	Logger *slog.Logger
	// Protected are a workspace's protected paths, which every sandbox
	// keeps even inside a granted folder (brain/workspace knows them);
	// nil keeps the whole workspace out of reach.
	Protected func(workspace string) sandbox.Protected
	// DefaultTimeout bounds a call without its own `timeout:`, and package
	// initialisation and Init (default 60s).
	DefaultTimeout time.Duration
	// CloseTimeout bounds OnClose (default 2s): a plugin that does not
	// return is abandoned (its interpreter stopped, its process killed) so
	// reloads and quitting are never held up.
	CloseTimeout time.Duration
	// MaxUntrustedTimeout caps the per-call deadline of plugins that do not
	// ship with the app (default 10m); a longer SKILL.md `timeout:` is cut
	// to it with a warning in the log.
	MaxUntrustedTimeout time.Duration
	// Secrets is the host's secret service behind env.Secret; nil = none.
	Secrets func(name string) (string, error)
	// SecretAllowed says whether a plugin that does not ship with the app
	// may read a secret (the person assigned it), after its SKILL.md
	// declared it and env was granted; its error is returned as is. nil =
	// any declared secret.
	SecretAllowed func(capability, secret string) error
	// Roots returns the folders a plugin may touch (authority from
	// settings); nil = the workspace root for plugins that ship with the
	// app, none for others.
	Roots func(capability string, granted []string) []string
	// Hosts returns the network hosts a plugin may reach; nil = the hosts
	// its SKILL.md names under permissions.network ("*" if none) when it
	// may use the network, none otherwise.
	Hosts func(capability string, granted []string) []string
	// Child, when set, is the command line of a helper process that serves
	// one plugin (ServeChild on its side; the app passes its own executable
	// and a hidden subcommand). Plugins that do not ship with the app then
	// run out of process, one process each, with memory and stack limits,
	// so that faults no recover can catch (a fatal runtime error, a panic
	// on a goroutine the library started for plugin code) end only that
	// process. Nil runs every plugin in process.
	Child []string
	// Sandbox is the command line prefix that runs a program confined by
	// the operating system (sandbox.Main on its side): the shell tool's
	// commands go through it. Nil derives it from Child: Child's program
	// with SandboxCommand. With neither, commands run unconfined and the
	// log says so.
	Sandbox []string
	// clock is the time source of the log rate limit (tests replace it).
	clock func() time.Time
}

// SandboxCommand is the hidden subcommand of the app that confines a
// program and executes it (sandbox.Main).
const SandboxCommand = "__sandbox-exec"

// sandboxLauncher is Options.Sandbox, or its default from Child.
func (o Options) sandboxLauncher() []string {
	if len(o.Sandbox) > 0 {
		return o.Sandbox
	}
	if len(o.Child) > 0 {
		return []string{o.Child[0], SandboxCommand}
	}
	return nil
}

// Host loads plugins into yaegi interpreters. It implements
// cerebellum.Loader and cerebellum.Checker and is safe for concurrent use.
type Host struct {
	opts  Options
	log   *slog.Logger
	lib   func() *library // built on first use: most processes never check or run a plugin
	grace time.Duration
	// lookupEnv and environ read the process environment (tests replace them).
	lookupEnv func(string) (string, bool)
	environ   func() []string
	// childSlack is how much longer than its own deadlines the host waits
	// for a plugin process before killing it.
	childSlack time.Duration

	mu       sync.Mutex
	catalogs map[string]*catalog
	// sandboxLogged names the capabilities whose sandbox gaps were logged.
	sandboxLogged map[string]bool
	// expect is what the kernel enforces on a plugin process,
	// sandbox.ExpectCommand (tests replace it to play another kernel).
	expect func(network bool) sandbox.Status
	// expectCommand is sandbox.ExpectCommand, for the commands it starts.
	expectCommand func(network bool) sandbox.Status
	// noMountNS starts plugin processes as where the system refuses the
	// mount namespace (tests force the fallback).
	noMountNS bool
}

var (
	_ cerebellum.Loader  = (*Host)(nil)
	_ cerebellum.Checker = (*Host)(nil)
)

// NewHost returns a plugin host.
func NewHost(opts Options) *Host {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultTimeout
	}
	if opts.CloseTimeout <= 0 {
		opts.CloseTimeout = DefaultCloseTimeout
	}
	if opts.MaxUntrustedTimeout <= 0 {
		opts.MaxUntrustedTimeout = DefaultMaxUntrustedTimeout
	}
	opts.Child = append([]string(nil), opts.Child...)
	return &Host{
		opts:       opts,
		log:        opts.Logger,
		lib:        sync.OnceValue(newLibrary),
		grace:      defaultGrace,
		lookupEnv:  os.LookupEnv,
		environ:    os.Environ,
		childSlack: defaultChildSlack,
		catalogs:   map[string]*catalog{},

		sandboxLogged: map[string]bool{},
		// A plugin process starts in the mount namespace a command gets
		// (startChildProc): the same probe tells whether it will.
		expect:        sandbox.ExpectCommand,
		expectCommand: sandbox.ExpectCommand,
	}
}

// catalog returns the (cached) library of a policy.
func (h *Host) catalog(p policy) *catalog {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := p.key()
	c, ok := h.catalogs[k]
	if !ok {
		c = newCatalog(p, h.lib())
		h.catalogs[k] = c
	}
	return c
}

// blueprint is everything needed to (re)build a plugin instance. It is
// immutable once made.
type blueprint struct {
	name     string
	src      *source
	cat      *catalog
	env      *envSpec
	scope    []string
	withEnv  bool
	tools    map[string]*toolSpec
	declared []string
	log      *slog.Logger
	// serial runs one call at a time: a plugin that does not ship with
	// Wrasse could otherwise write one map from two calls at once, a fault
	// Go cannot recover from.
	serial bool
	// perms and granted are what the plugin declared and was granted, as
	// a plugin process needs them to check the source again.
	perms   skillmd.Permissions
	granted []string
	// egress holds the connections of a plugin that does not ship with
	// Wrasse and may use the network (nil otherwise).
	egress *egress
}

// Load compiles and starts a plugin: read and check its source, build an
// interpreter, run Init, compare tools with SKILL.md. The returned Runtime
// serves calls until Close. With Options.Child set, a plugin that does not
// ship with the app is checked here and started in its own process.
func (h *Host) Load(ctx context.Context, req cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	// Grants first: one message saying what to grant, before the source
	// checks against the grants list each import that needs one.
	if c := req.Capability; c != nil && c.Manifest != nil {
		if err := requireGrants(capName(c), req.Trusted, c.Manifest.Permissions, req.Granted); err != nil {
			return nil, err
		}
	}
	bp, err := h.prepare(req)
	if err != nil {
		return nil, err
	}
	venv, withheld := h.virtualEnv(bp)
	for _, n := range withheld {
		bp.log.Warn("environment variable looks secret and is not passed to the plugin; read it with env.Secret", "variable", n)
	}
	if bp.serial && len(h.opts.Child) > 0 {
		h.logSandboxOnce(bp)
		return h.startChild(ctx, bp, venv)
	}
	rt, err := h.start(ctx, bp, venv)
	if err != nil {
		// Not a typed nil in the interface: callers test rt != nil.
		return nil, err
	}
	return rt, nil
}

// start builds the plugin's first interpreter in this process.
func (h *Host) start(ctx context.Context, bp *blueprint, venv *virtualEnv) (*pluginRuntime, error) {
	in, err := h.build(ctx, bp, venv)
	if err != nil {
		return nil, fmt.Errorf("capability %s: %w", bp.name, err)
	}
	rt := &pluginRuntime{host: h, bp: bp, log: bp.log, cur: in}
	if bp.serial {
		rt.turn = make(chan struct{}, 1)
	}
	return rt, nil
}

// Check does everything Load does (compile, Init, tool-set check), then
// runs OnClose and discards the interpreter.
func (h *Host) Check(ctx context.Context, req cerebellum.LoadRequest) error {
	rt, err := h.Load(ctx, req)
	if err != nil {
		return err
	}
	return rt.Close()
}

// CheckSource checks a plugin without running any of its code: it reads
// and parses the source and applies every static rule (imports and library
// calls allowed by req.Granted, goroutines, the Go dialect). Installing a
// plugin whose permissions are not granted yet uses it, because Init may
// only run with the authority the user gave. It implements
// cerebellum.SourceChecker.
func (h *Host) CheckSource(ctx context.Context, req cerebellum.LoadRequest) error {
	_, err := h.prepare(req)
	return err
}

// namesHosts reports whether a network permission lists hosts rather
// than any host ("*", or nothing listed).
func namesHosts(hosts []string) bool {
	return len(hosts) > 0 && !slices.Contains(hosts, "*")
}

// prepare validates the request, reads and checks the source and settles
// the plugin's authority. Nothing is interpreted yet.
func (h *Host) prepare(req cerebellum.LoadRequest) (*blueprint, error) {
	c := req.Capability
	switch {
	case c == nil:
		return nil, fmt.Errorf("%w: no capability", ErrBadRequest)
	case c.FS == nil:
		return nil, fmt.Errorf("%w: capability %s has no folder (FS)", ErrBadRequest, c.Name)
	case c.Manifest == nil:
		return nil, fmt.Errorf("%w: capability %s has no parsed SKILL.md; fix SKILL.md first", ErrBadRequest, c.Name)
	}
	name := c.Name
	if name == "" {
		name = c.Manifest.Name
	}
	log := h.log.With("capability", name)
	src, err := readSource(c.FS, importName(name))
	if err != nil {
		return nil, fmt.Errorf("capability %s: %w", name, err)
	}
	pol := newPolicy(req.Trusted, req.Granted)
	if err := checkEnvScope(pol, name, c.Manifest.Permissions[skillmd.PermEnv]); err != nil {
		return nil, err
	}
	env := h.newEnvSpec(req, pol, log)
	// Held to the hosts it reaches, and to the ones it declares: the
	// host's list for a capability it does not know yet (one being
	// validated or installed) is any host, and the first call after
	// install, with the declared list, then failed on what validation
	// had let through (an http.Transport of its own).
	pol.limitHosts = !pol.trusted && pol.granted[skillmd.PermNetwork] &&
		(!slices.Contains(env.hosts, "*") || namesHosts(c.Manifest.Permissions[skillmd.PermNetwork]))
	cat := h.catalog(pol)
	if err := h.check(src, cat, name, c.Manifest.Permissions); err != nil {
		return nil, fmt.Errorf("capability %s: %w", name, err)
	}
	bp := &blueprint{
		name:    name,
		src:     src,
		cat:     cat,
		env:     env,
		scope:   c.Manifest.Permissions[skillmd.PermEnv],
		withEnv: pol.allows(skillmd.PermEnv),
		tools:   map[string]*toolSpec{},
		log:     log,
		serial:  !req.Trusted,
		perms:   c.Manifest.Permissions,
		granted: append([]string(nil), req.Granted...),
	}
	for _, t := range c.Manifest.Tools {
		ts := &toolSpec{name: t.Name, timeout: t.Timeout}
		if ts.timeout <= 0 {
			ts.timeout = h.opts.DefaultTimeout
		}
		if !req.Trusted && ts.timeout > h.opts.MaxUntrustedTimeout {
			log.Warn("tool timeout is above the limit for plugins that do not ship with Wrasse; using the limit",
				"tool", t.Name, "timeout", ts.timeout.String(), "limit", h.opts.MaxUntrustedTimeout.String())
			ts.timeout = h.opts.MaxUntrustedTimeout
		}
		bp.tools[t.Name] = ts
		bp.declared = append(bp.declared, t.Name)
	}
	sort.Strings(bp.declared)
	if !pol.trusted && pol.granted[skillmd.PermNetwork] {
		// In process the running call's context is at hand; a plugin
		// process replaces this with a question to the host (serve.go).
		bp.egress = newEgress(name, env.hosts, env.fileScope(pol), callCheck)
	}
	return bp, nil
}

// requireGrants refuses to run a plugin that does not ship with Wrasse
// while any permission its SKILL.md declares is not granted. Interpreting
// the package runs its init functions and package-level initialisers, so
// this is checked before an interpreter exists: with only part of the
// grants, code could still act on the part it has (write with files
// before exec or network is granted, say) or just spin.
func requireGrants(name string, trusted bool, perms skillmd.Permissions, grants []string) error {
	if trusted {
		return nil
	}
	granted := map[string]bool{}
	for _, g := range grants {
		granted[strings.ToLower(strings.TrimSpace(g))] = true
	}
	var missing []string
	for _, p := range perms.Names() {
		if !granted[p] {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	all := strings.Join(perms.Names(), ",")
	return hint.With(&grantError{msg: fmt.Sprintf("capability %s declares %s and none of its code runs until all are granted",
		name, permWord(missing))}, hint.Hint{Action: "Grant " + name + " " + strings.Join(perms.Names(), ", "),
		Command: []string{"caps", "enable", name, "--grant", all}, Page: hint.PageCapabilities, Target: name})
}

// grantError is ErrNotGranted, which is also an ErrPermission: callers
// that only ask "does it need a permission" see it as one.
type grantError struct{ msg string }

func (e *grantError) Error() string { return ErrNotGranted.Error() + ": " + e.msg }

func (e *grantError) Is(target error) bool { return target == ErrNotGranted || target == ErrPermission }

// capName is the name a capability is known by.
func capName(c *cerebellum.Capability) string {
	if c.Name != "" {
		return c.Name
	}
	return c.Manifest.Name
}

// importName turns a capability name into a safe import path element.
func importName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r - 'A' + 'a')
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "plugin"
	}
	return b.String()
}

func (h *Host) virtualEnv(bp *blueprint) (*virtualEnv, []string) {
	return newVirtualEnv(bp.scope, bp.withEnv, h.lookupEnv, h.environ)
}

// initFunc is the signature every plugin's Init has.
type initFunc = func(*sdk.Env) (*sdk.Plugin, error)

// build makes a fresh interpreter and starts the plugin in it.
func (h *Host) build(ctx context.Context, bp *blueprint, venv *virtualEnv) (*instance, error) {
	if venv == nil {
		venv, _ = h.virtualEnv(bp)
	}
	limit := newLogLimit(h.opts.clock)
	out := &lineWriter{log: bp.log.With("stream", "stdout"), level: slog.LevelInfo, clean: bp.src.cleanMessage, limit: limit}
	errw := &lineWriter{log: bp.log.With("stream", "stderr"), level: slog.LevelWarn, clean: bp.src.cleanMessage, limit: limit}
	it := interp.New(interp.Options{
		GoPath:               ".",
		SourcecodeFilesystem: bp.src.vfs,
		Stdin:                strings.NewReader(""),
		Stdout:               out,
		Stderr:               errw,
		Args:                 []string{bp.name},
		Env:                  []string{}, // never the process environment
	})
	in := &instance{it: it, stderr: errw, grace: h.grace, log: bp.log}
	shared, private := bp.cat.interpExports(venv, bp.egress)
	if err := recovered(func() error { return it.Use(shared) }); err != nil {
		return nil, fmt.Errorf("load the standard library into the interpreter: %w", err)
	}
	if err := recovered(func() error { return it.Use(private) }); err != nil {
		return nil, fmt.Errorf("load host symbols into the interpreter: %w", err)
	}

	if bp.egress != nil {
		// Package initialisation and Init reach the network for the load.
		defer bp.egress.enter(ctx)()
	}
	// Import compiles the package and runs its package initialisation.
	ictx, cancel := context.WithTimeout(ctx, h.opts.DefaultTimeout)
	mark := errw.mark()
	_, err := it.EvalWithContext(ictx, `import wrassePlugin "`+bp.src.importPath+`"`)
	cancel()
	if err != nil {
		return nil, h.importError(ctx, bp, err, errw.firstPanicSince(mark))
	}
	var v reflect.Value
	if err := recovered(func() (err error) { v, err = it.Eval("wrassePlugin.Init"); return err }); err != nil {
		return nil, fmt.Errorf("%w: evaluate Init: %s", ErrInit, bp.src.cleanMessage(err.Error()))
	}
	if !v.IsValid() || !v.CanInterface() {
		return nil, fmt.Errorf("%w: Init is not a function; declare func Init(env *sdk.Env) (*sdk.Plugin, error)", ErrInit)
	}
	initFn, ok := v.Interface().(initFunc)
	if !ok {
		return nil, fmt.Errorf("%w: Init has type %s; declare func Init(env *sdk.Env) (*sdk.Plugin, error)", ErrInit, v.Type())
	}

	var pl *sdk.Plugin
	var msg string
	env := bp.env.sdkEnv()
	st, p, _ := in.guard(ctx, h.opts.DefaultTimeout, func(context.Context) {
		var err error
		if pl, err = initFn(env); err != nil {
			if msg = err.Error(); msg == "" {
				msg = "failed without a message"
			}
		}
	})
	switch st {
	case statusPanic:
		return nil, fmt.Errorf("%w: %w: Init: %s", ErrInit, ErrPluginPanic, p)
	case statusTimeout:
		return nil, fmt.Errorf("%w: %w: Init ran longer than %s", ErrInit, ErrPluginTimeout, h.opts.DefaultTimeout)
	case statusCancelled:
		return nil, fmt.Errorf("plugin Init abandoned: %w", context.Cause(ctx))
	}
	if msg != "" {
		return nil, fmt.Errorf("%w: Init returned an error: %s", ErrInit, msg)
	}
	if pl == nil {
		return nil, fmt.Errorf("%w: Init returned no plugin; return sdk.NewPlugin() with its handlers", ErrInit)
	}
	in.plugin = pl
	in.handlers = map[string]sdk.Handler{}
	for _, name := range bp.declared {
		in.handlers[name] = pl.Handler(name)
	}
	if err := checkTools(bp.declared, pl); err != nil {
		if cerr := in.close(ctx, h.opts.CloseTimeout); cerr != nil {
			bp.log.Warn("closing a plugin whose tools do not match", "err", cerr)
		}
		return nil, err
	}
	return in, nil
}

// importError explains a failed import: compile error, package
// initialisation failure, or a crash of the interpreter on unsupported Go.
func (h *Host) importError(ctx context.Context, bp *blueprint, err error, panicLine string) error {
	var p interp.Panic
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		if ctx.Err() != nil {
			return fmt.Errorf("loading abandoned: %w", context.Cause(ctx))
		}
		return fmt.Errorf("%w: %w: package initialisation ran longer than %s", ErrInit, ErrPluginTimeout, h.opts.DefaultTimeout)
	case errors.As(err, &p) && panicLine != "":
		return fmt.Errorf("%w: %w: package initialisation panicked at %s: %v", ErrInit, ErrPluginPanic, panicWhere(panicLine), p.Value)
	case errors.As(err, &p):
		msg := fmt.Sprintf("the interpreter failed on this source (%v); this usually means Go it does not support (%s: no range over int or func, no generic type aliases, no min/max/clear)", p.Value, dialectNote)
		if s := h.rangeSuspects(bp.src); len(s) > 0 {
			msg += "; check the range statements at " + strings.Join(s, ", ")
		}
		return &SourceError{File: pluginDir + "/", kinds: []error{ErrCompile, ErrDialect}, Msg: msg}
	}
	var problems []error
	for _, line := range strings.Split(bp.src.cleanMessage(err.Error()), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		pe := parsePositioned(line, ErrCompile)
		for _, b := range []string{"min", "max", "clear"} {
			if pe.Msg == "undefined: "+b {
				pe.Msg += fmt.Sprintf(" (the Go 1.21 builtin %s is not supported; %s)", b, dialectNote)
			}
		}
		problems = append(problems, pe)
	}
	return joinProblems(problems)
}

// checkTools compares the handled tools with the declared ones.
func checkTools(declared []string, pl *sdk.Plugin) error {
	served := map[string]bool{}
	for _, n := range pl.ToolNames() {
		if pl.Handler(n) != nil {
			served[n] = true
		}
	}
	var missing, undeclared []string
	want := map[string]bool{}
	for _, n := range declared {
		want[n] = true
		if !served[n] {
			missing = append(missing, n)
		}
	}
	for _, n := range pl.ToolNames() {
		if served[n] && !want[n] {
			undeclared = append(undeclared, n)
		}
	}
	if len(missing) == 0 && len(undeclared) == 0 {
		return nil
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing: "+strings.Join(missing, ", "))
	}
	if len(undeclared) > 0 {
		parts = append(parts, "undeclared: "+strings.Join(undeclared, ", "))
	}
	return fmt.Errorf("%w: %s (handle every tool SKILL.md declares with p.Handle, and declare every handled tool under tools:)",
		ErrToolMismatch, strings.Join(parts, "; "))
}

// recovered runs fn, turning a panic into an error (pitfall 2).
func recovered(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrPluginPanic, r)
		}
	}()
	return fn()
}

// checkEnvScope refuses, for plugins that do not ship with the app, an env
// scope that names every variable ("*", "?*"): such a plugin names the
// variables it reads.
func checkEnvScope(pol policy, name string, scope []string) error {
	if pol.trusted {
		return nil
	}
	for _, pat := range scope {
		if strings.Trim(strings.TrimSpace(pat), "*?") == "" {
			return fmt.Errorf("%w: capability %s: permissions.env %q would pass every environment variable; name the variables the plugin reads (e.g. env: [GITHUB_USER, MYAPP_*])", ErrPermission, name, pat)
		}
	}
	return nil
}
