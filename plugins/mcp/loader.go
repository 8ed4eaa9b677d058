package mcp

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// Defaults of Options.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultCallTimeout    = 120 * time.Second
	DefaultIdle           = 10 * time.Minute
	// DefaultTerminate is how long a stdio server may take to exit after
	// its input closes before its process group is signalled.
	DefaultTerminate = 2 * time.Second
)

// Backoff after repeated crashes: none after the first, then base doubling
// up to max.
const (
	backoffBase = time.Second
	backoffMax  = time.Minute
)

// Options configure a Loader.
type Options struct {
	Logger *slog.Logger
	// Protected are a workspace's protected paths, which a server's
	// sandbox keeps even inside a granted folder; nil keeps the whole
	// workspace out of its reach.
	Protected func(workspace string) sandbox.Protected
	// Secrets resolves ${secret:NAME}; nil = no secrets.
	Secrets func(name string) (string, error)
	// SecretAllowed says whether a capability may use a secret (the
	// person assigned it); its error is returned as is. nil = any.
	SecretAllowed func(capability, secret string) error
	// ConnectTimeout, CallTimeout and Idle are the defaults a server's
	// mcp: block may override (30 s, 120 s, 10 min).
	ConnectTimeout time.Duration
	CallTimeout    time.Duration
	Idle           time.Duration
	// Terminate bounds a stdio server's own exit before its group is
	// signalled (default 2 s).
	Terminate time.Duration
	// Version is the client version told to servers.
	Version string
	// Sandbox is the command line prefix that runs a program confined by
	// the operating system (the app's `wrasse __sandbox-exec`): stdio
	// servers start through it, confined to sandbox.ForMCP. Nil runs them
	// unconfined (App.Sandbox says so).
	Sandbox []string
	// Folders returns the folders granted to the assistant, read at each
	// start: a sandboxed server may read and write them, and they are its
	// MCP roots. Nil grants none and declares no roots.
	Folders func() []string
	// CacheDir holds the package caches of sandboxed servers (npx's and
	// uvx's downloads), one folder per server and command line: the
	// user's own caches are read-only to them. Default: wrasse-mcp in the
	// user's cache folder (sandbox.MCPCacheName), which commands and
	// plugins never reach.
	CacheDir string
	// Dial, when set, replaces starting the server: it returns the
	// transport to one (tests connect in-process servers through
	// sdk.NewInMemoryTransports).
	Dial func(ctx context.Context, capability string) (sdk.Transport, error)
	// Asker puts servers' questions (elicitation) to the person and is
	// told of sign-ins under way; nil declines every question.
	Asker Asker
	// Sampler answers servers' requests for a completion
	// (sampling/createMessage) once the person approved them; nil
	// advertises no sampling capability.
	Sampler Sampler
	// Progress is told of servers' progress reports on tool calls; nil
	// asks for none (no progress token is sent).
	Progress func(Progress)
	// Tokens stores the OAuth tokens of servers reached by URL (the
	// workspace's secrets); nil keeps them for the process only.
	Tokens signin.Store
	// OpenURL opens a sign-in page (default signin.OpenBrowser: $BROWSER,
	// else the system's browser).
	OpenURL func(ctx context.Context, url string) error

	// now and afterFunc are the clock and timers (tests replace them).
	now       func() time.Time
	afterFunc func(d time.Duration, f func()) stopper
}

type stopper interface{ Stop() bool }

// Loader starts MCP servers for capabilities. It implements
// cerebellum.Loader, cerebellum.Checker and cerebellum.NativeProvider and
// is safe for concurrent use.
type Loader struct {
	opts Options
	log  *slog.Logger
	// sums remembers the hashes of the files servers run (checkApproved).
	sums fileSums

	mu      sync.Mutex
	servers map[*server]bool
	// logs are the servers' log messages by capability name (logs.go).
	logs map[string]*serverLog
}

var (
	_ cerebellum.Loader         = (*Loader)(nil)
	_ cerebellum.Checker        = (*Loader)(nil)
	_ cerebellum.NativeProvider = (*Loader)(nil)
)

// NewLoader returns an MCP loader.
func NewLoader(opts Options) *Loader {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.Idle <= 0 {
		opts.Idle = DefaultIdle
	}
	if opts.Terminate <= 0 {
		opts.Terminate = DefaultTerminate
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.CacheDir == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			opts.CacheDir = filepath.Join(dir, sandbox.MCPCacheName)
		}
	}
	if opts.now == nil {
		opts.now = time.Now
	}
	if opts.afterFunc == nil {
		opts.afterFunc = func(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }
	}
	return &Loader{opts: opts, log: opts.Logger, servers: map[*server]bool{}}
}

// Load returns the runtime of an MCP capability. Nothing starts yet: the
// server is started by Start or the first call.
func (l *Loader) Load(_ context.Context, req cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	cfg, err := l.configOf(req)
	if err != nil {
		return nil, err
	}
	s := &server{l: l, cfg: cfg, learn: req.Learn, log: l.log.With("capability", cfg.name), state: cerebellum.RuntimeStopped, since: l.opts.now()}
	l.mu.Lock()
	l.servers[s] = true
	l.mu.Unlock()
	return s, nil
}

// Check validates the mcp: block without starting anything: a server's
// command is code the user approves by enabling its capability.
func (l *Loader) Check(_ context.Context, req cerebellum.LoadRequest) error {
	_, err := l.configOf(req)
	return err
}

// forget drops a closed server from the loader's set.
func (l *Loader) forget(s *server) {
	l.mu.Lock()
	delete(l.servers, s)
	l.mu.Unlock()
}

// Report is what Probe found: the server's catalog, or why it failed.
type Report struct {
	Capability string
	// Server is the name and version the server gave.
	Server  string
	Catalog cerebellum.Catalog
	// Elapsed is the time to connect and list everything.
	Elapsed time.Duration
}

// Probe starts a server of its own for req, lists its tools, prompts and
// resources, tells req.Learn, and stops it. A failure carries the last
// lines the server wrote.
func (l *Loader) Probe(ctx context.Context, req cerebellum.LoadRequest) (Report, error) {
	cfg, err := l.configOf(req)
	if err != nil {
		return Report{}, err
	}
	start := l.opts.now()
	s := &server{l: l, cfg: cfg, learn: req.Learn, log: l.log.With("capability", cfg.name), state: cerebellum.RuntimeStopped, oneShot: true}
	ctx, cancel := s.connectContext(ctx)
	defer cancel()
	c, err := s.dial(ctx)
	if err != nil {
		return Report{Capability: cfg.name}, err
	}
	defer c.close(l.opts.Terminate)
	cat, err := s.list(ctx, c)
	if err != nil {
		return Report{Capability: cfg.name}, err
	}
	rep := Report{Capability: cfg.name, Catalog: cat, Elapsed: l.opts.now().Sub(start)}
	if ir := c.cs.InitializeResult(); ir != nil && ir.ServerInfo != nil {
		rep.Server = ir.ServerInfo.Name + " " + ir.ServerInfo.Version
	}
	if s.learn != nil {
		s.learn(cat)
	}
	return rep, nil
}

// Sandboxed reports whether stdio servers start confined (a sandbox
// launcher is configured).
func (l *Loader) Sandboxed() bool { return len(l.opts.Sandbox) > 0 }

// SignedOut ends what a sign-in of server name left running in this
// process: its tokens held in memory and its live session (which goes
// with them), so its next use signs in afresh. Call it once the stored
// tokens are forgotten (signin.Forget), or a token refresh would store
// them again.
func (l *Loader) SignedOut(name string) {
	l.mu.Lock()
	var live []*server
	for s := range l.servers {
		if s.cfg.name == name {
			live = append(live, s)
		}
	}
	l.mu.Unlock()
	for _, s := range live {
		s.mu.Lock()
		s.signIn = nil
		c := s.conn
		s.conn = nil
		if c != nil {
			s.setStateLocked(cerebellum.RuntimeStopped)
		}
		s.mu.Unlock()
		if c != nil {
			s.log.Info("signed out of an MCP server; its session ends")
			c.close(s.l.opts.Terminate)
		}
	}
}
