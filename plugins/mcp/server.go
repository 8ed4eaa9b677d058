package mcp

//lint:file-ignore SA1019 MCP roots and logging are deprecated from protocol 2026-07-28 on and still what servers of earlier versions (most) use

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
)

// sseReconnects is how often a streamable HTTP session reconnects a
// stream the server closed before giving up.
const sseReconnects = 3

// server is the Runtime of one MCP capability: at most one live
// connection, started on demand and replaced after a crash.
type server struct {
	l     *Loader
	cfg   config
	learn func(cerebellum.Catalog)
	log   *slog.Logger
	// oneShot marks a connection that lists once and closes (Probe).
	oneShot bool

	mu         sync.Mutex
	conn       *conn
	connecting chan struct{} // closed when the connect in progress ends
	state      cerebellum.RuntimeState
	lastErr    string
	crashes    int
	lastCrash  time.Time
	since      time.Time
	inflight   int
	lastUse    time.Time
	idleTimer  stopper
	closed     bool
	// wg counts goroutines the server started (crash watch, relisting).
	wg sync.WaitGroup
	// signIn is the OAuth handler of a server reached by URL, kept across
	// connections so tokens and granted scopes outlive a session.
	signIn *signin.Handler
	// calls are its tool calls under way (progress.go).
	calls callBook
	// updates are the subscribers to its resources (resources.go).
	updates updateWatchers
}

// conn is one live session with a server.
type conn struct {
	cs  *sdk.ClientSession
	cmd *exec.Cmd // nil for HTTP and Dial
	pid int
	// box is a sandboxed server's temporary folder, removed once it ended.
	box    *box
	stderr *tail
	redact func(string) string
	// client and roots: the roots it was given (nil: none, it declared
	// none), kept up to date by Loader.RootsChanged.
	client  *sdk.Client
	rootsMu sync.Mutex
	roots   []*sdk.Root

	closeOnce sync.Once
	closing   chan struct{} // closed when we end the session ourselves
}

// close ends the session and, for a stdio server, its whole process group:
// the input closes first, the group is asked to stop after the grace time
// and killed if it has not.
func (c *conn) close(grace time.Duration) {
	c.closeOnce.Do(func() {
		close(c.closing)
		done := make(chan struct{})
		go func() {
			_ = c.cs.Close()
			close(done)
		}()
		if c.pid <= 0 {
			<-done
			return
		}
		select {
		case <-done:
		case <-time.After(grace):
			signalGroup(c.pid, sigTerm)
			select {
			case <-done:
			case <-time.After(grace):
				signalGroup(c.pid, sigKill)
				<-done
			}
		}
		// The leader is gone; a child it left (npx's server) goes with the group.
		signalGroup(c.pid, sigKill)
		c.box.cleanup()
	})
}

var (
	_ cerebellum.Runtime        = (*server)(nil)
	_ cerebellum.StatusReporter = (*server)(nil)
	_ cerebellum.Starter        = (*server)(nil)
)

// Status says whether the server runs, and its last failure.
func (s *server) Status() cerebellum.RuntimeStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cerebellum.RuntimeStatus{State: s.state, Error: s.lastErr, Crashes: s.crashes, Since: s.since}
}

// Start connects now (and lists the tools) unless the server runs.
func (s *server) Start(ctx context.Context) error {
	_, err := s.ensure(ctx)
	return err
}

// Close stops the server for good.
func (s *server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	c := s.conn
	s.conn = nil
	if s.idleTimer != nil {
		s.idleTimer.Stop()
	}
	s.setStateLocked(cerebellum.RuntimeStopped)
	s.mu.Unlock()
	if c != nil {
		c.close(s.l.opts.Terminate)
	}
	s.wg.Wait()
	s.l.forget(s)
	return nil
}

func (s *server) setStateLocked(st cerebellum.RuntimeState) {
	if s.state != st {
		s.state = st
		s.since = s.l.opts.now()
	}
}

// backoffLocked is how long after its last crash the server may start
// again: nothing after one crash, then 1 s, 2 s, 4 s … up to a minute.
func (s *server) backoffLocked() time.Duration {
	if s.crashes < 2 {
		return 0
	}
	d := backoffBase << (s.crashes - 2)
	if d > backoffMax || d <= 0 {
		d = backoffMax
	}
	return d
}

// ensure returns the live connection, starting the server if needed.
func (s *server) ensure(ctx context.Context) (*conn, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, fmt.Errorf("%w: %s", ErrClosed, s.cfg.name)
		}
		if s.conn != nil {
			c := s.conn
			s.mu.Unlock()
			return c, nil
		}
		if ch := s.connecting; ch != nil {
			s.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			}
		}
		if wait := s.backoffLocked(); wait > 0 {
			if until := s.lastCrash.Add(wait); s.l.opts.now().Before(until) {
				msg := s.lastErr
				n := s.crashes
				s.mu.Unlock()
				return nil, fmt.Errorf("%w: MCP server %s failed %d times in a row; it is started again after %s (at %s). Last failure: %s",
					ErrBackoff, s.cfg.name, n, wait, until.Format(time.TimeOnly), msg)
			}
		}
		ch := make(chan struct{})
		s.connecting = ch
		s.setStateLocked(cerebellum.RuntimeStarting)
		s.mu.Unlock()

		c, cat, err := s.connectAndList(ctx)

		s.mu.Lock()
		s.connecting = nil
		close(ch)
		if err == nil && s.closed {
			err = fmt.Errorf("%w: %s", ErrClosed, s.cfg.name)
		}
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, ErrClosed) && !errors.Is(err, ErrSecret) && !errors.Is(err, ErrSecretRefused) &&
				!errors.Is(err, ErrNotApproved) && !errors.Is(err, ErrBuildsInProject) && !errors.Is(err, ErrBuildsOutsideOwnCache) {
				s.crashes++
				s.lastCrash = s.l.opts.now()
				s.lastErr = err.Error()
				s.setStateLocked(cerebellum.RuntimeCrashed)
			} else {
				if errors.Is(err, ErrNotApproved) || errors.Is(err, ErrBuildsInProject) || errors.Is(err, ErrBuildsOutsideOwnCache) {
					s.lastErr = err.Error() // the server's page offers to approve it again, or says what to change
				}
				if s.state == cerebellum.RuntimeStarting {
					s.setStateLocked(cerebellum.RuntimeStopped)
				}
			}
			s.mu.Unlock()
			if c != nil {
				c.close(s.l.opts.Terminate)
			}
			return nil, err
		}
		s.conn = c
		s.lastUse = s.l.opts.now()
		s.setStateLocked(cerebellum.RuntimeRunning)
		s.armIdleLocked()
		s.wg.Add(1)
		s.mu.Unlock()
		go s.watch(c)
		if s.learn != nil {
			s.learn(cat)
		}
		return c, nil
	}
}

// connectAndList starts the server within the connect timeout and lists
// what it offers.
func (s *server) connectAndList(ctx context.Context) (*conn, cerebellum.Catalog, error) {
	cctx, cancel := s.connectContext(ctx)
	defer cancel()
	c, err := s.dial(cctx)
	if err != nil {
		return nil, cerebellum.Catalog{}, err
	}
	if !s.oneShot {
		if err := setLevel(cctx, c.cs, s.l.LogLevel(s.cfg.name)); err != nil {
			s.log.Warn("the MCP server refused its logging level; it logs at its own", "error", c.redact(err.Error()))
		}
	}
	cat, err := s.list(cctx, c)
	if err != nil {
		return c, cerebellum.Catalog{}, err
	}
	return c, cat, nil
}

// connectContext bounds connecting by the connect timeout, which stands
// still while the person signs in in the browser (that takes longer than
// a server may take to start).
func (s *server) connectContext(ctx context.Context) (context.Context, func()) {
	cctx, cancel := context.WithCancelCause(ctx)
	d := s.cfg.connect
	var mu sync.Mutex
	timer := time.AfterFunc(d, func() { cancel(context.DeadlineExceeded) })
	cctx = signin.WithPause(cctx, func() (resume func()) {
		mu.Lock()
		defer mu.Unlock()
		timer.Stop()
		return func() {
			mu.Lock()
			defer mu.Unlock()
			timer.Reset(d)
		}
	})
	return cctx, func() {
		timer.Stop()
		cancel(nil)
	}
}

// dial starts the server process (or opens the HTTP session) and
// initialises the protocol.
// ctx bounds it (connectContext).
func (s *server) dial(ctx context.Context) (*conn, error) {
	res, err := s.l.resolve(s.cfg)
	if err != nil {
		return nil, err
	}
	c := &conn{redact: res.redactor(), closing: make(chan struct{})}
	var t sdk.Transport
	switch {
	case s.l.opts.Dial != nil:
		t, err = s.l.opts.Dial(ctx, s.cfg.name)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrConnect, s.cfg.name, err)
		}
	case res.url != "":
		hc, err := httpClient(http.DefaultTransport, res.url, res.headers)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrConnect, s.cfg.name, err)
		}
		h, err := s.signInHandler(res)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrConnect, s.cfg.name, err)
		}
		// Reconnects resume a stream the server closed (SSE retry and
		// Last-Event-ID); a few, so a server that went away is soon
		// reported as crashed.
		t = &sdk.StreamableClientTransport{Endpoint: res.url, MaxRetries: sseReconnects, HTTPClient: hc, OAuthHandler: h}
	default:
		if err := s.l.checkApproved(s.cfg, s.oneShot); err != nil {
			return nil, err
		}
		// Not exec.CommandContext: the server outlives the connect call.
		cmd := exec.Command(res.command, res.args...)
		cmd.Env = res.env
		cmd.Dir = s.cfg.cwd
		if s.l.Sandboxed() {
			b, err := s.l.confine(s.cfg, cmd)
			if err != nil {
				return nil, err
			}
			c.box = b
		} else {
			if cmd.Dir == "" {
				cmd.Dir = os.TempDir()
			}
			// Unconfined, the approval still covers the project: its
			// runner builds outside it all the same.
			if err := s.l.buildOutside(s.cfg, cmd, func() (string, error) { return s.l.serverCache(s.cfg) }); err != nil {
				return nil, err
			}
		}
		c.stderr = newTail(c.redact, s.log)
		cmd.Stderr = c.stderr
		ownGroup(cmd)
		c.cmd = cmd
		t = &sdk.CommandTransport{Command: cmd, TerminateDuration: s.l.opts.Terminate}
	}
	opts := &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}, ElicitationHandler: s.elicitHandler,
		ProgressNotificationHandler: s.progressHandler}
	if s.l.opts.Sampler != nil {
		opts.CreateMessageHandler = s.sampleHandler // advertises sampling
	}
	roots := []*sdk.Root(nil)
	if c.cmd != nil && !namesFolder(res.args) {
		// The folders granted to the assistant are the roots of a server
		// whose command names no folder of its own: one that asks (like
		// server-filesystem) works in them. A command that names folders
		// keeps them: server-filesystem would put roots in their place.
		roots = s.l.mcpRoots()
	}
	if len(roots) > 0 {
		// listChanged: a change of grants reaches it (RootsChanged).
		opts.Capabilities.RootsV2 = &sdk.RootCapabilities{ListChanged: true}
	}
	if !s.oneShot {
		// A server that stays up tells us when its lists change. A one-shot
		// connection (Test) lists once and closes: subscribing would cost a
		// round trip for nothing.
		opts.ToolListChangedHandler = func(context.Context, *sdk.ToolListChangedRequest) { s.relist(c) }
		opts.PromptListChangedHandler = func(context.Context, *sdk.PromptListChangedRequest) { s.relist(c) }
		opts.ResourceListChangedHandler = func(context.Context, *sdk.ResourceListChangedRequest) { s.relist(c) }
		opts.ResourceUpdatedHandler = s.resourceUpdated
		// What it logs goes to its log view (logs.go), never to the chat.
		opts.LoggingMessageHandler = s.logHandler(c)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "wrasse", Version: s.l.opts.Version}, opts)
	// Roots are deprecated from protocol 2026-07-28 on, and still what
	// servers of earlier versions (most) read.
	client.AddRoots(roots...)
	c.client, c.roots = client, roots
	cs, err := client.Connect(ctx, t, nil)
	if c.cmd != nil && c.cmd.Process != nil {
		c.pid = c.cmd.Process.Pid
	}
	if err != nil {
		if c.pid > 0 {
			signalGroup(c.pid, sigKill)
			_ = c.cmd.Wait()
		}
		c.box.cleanup()
		msg := withTail(c.redact(s.describeConnectErr(ctx, err)), c.stderr)
		if errors.Is(err, ErrCrossOriginRedirect) {
			return nil, fmt.Errorf("%w: %w: %s", ErrConnect, ErrCrossOriginRedirect, msg)
		}
		return nil, fmt.Errorf("%w: %s", ErrConnect, msg)
	}
	c.cs = cs
	return c, nil
}

func (s *server) describeConnectErr(ctx context.Context, err error) string {
	var what string
	if s.cfg.block.URL != "" {
		what = "connect to " + s.cfg.block.URL
	} else {
		what = "start " + s.cfg.block.Command
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return fmt.Sprintf("MCP server %s: could not %s within %s (timeouts.connect in its SKILL.md sets the limit)", s.cfg.name, what, s.cfg.connect)
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return fmt.Sprintf("MCP server %s: could not %s: %v (is it installed and on PATH?)", s.cfg.name, what, ee.Err)
	}
	return fmt.Sprintf("MCP server %s: could not %s: %v", s.cfg.name, what, err)
}

// list reads the server's tools, prompts and resources. Prompts and
// resources are optional: a server without them lists none.
func (s *server) list(ctx context.Context, c *conn) (cerebellum.Catalog, error) {
	var cat cerebellum.Catalog
	// Prompts and resources are listed while the tools are: one session
	// carries the three requests at once, so listing costs one round trip
	// rather than three.
	var wg sync.WaitGroup
	caps := c.cs.InitializeResult()
	if caps != nil && caps.Capabilities != nil && caps.Capabilities.Prompts != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p, err := range c.cs.Prompts(ctx, nil) {
				if err != nil {
					s.log.Warn("listing an MCP server's prompts", "error", c.redact(err.Error()))
					break
				}
				cat.Prompts = append(cat.Prompts, cerebellum.RemoteItem{Name: p.Name, Title: p.Title, Description: p.Description})
			}
		}()
	}
	if caps != nil && caps.Capabilities != nil && caps.Capabilities.Resources != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r, err := range c.cs.Resources(ctx, nil) {
				if err != nil {
					s.log.Warn("listing an MCP server's resources", "error", c.redact(err.Error()))
					break
				}
				cat.Resources = append(cat.Resources, cerebellum.RemoteItem{Name: r.Name, Title: r.Title, Description: r.Description, URI: r.URI, MIMEType: r.MIMEType})
			}
		}()
	}
	var listErr error
	for t, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			listErr = fmt.Errorf("%w: %s", ErrConnect, withTail(c.redact(fmt.Sprintf("MCP server %s: listing its tools failed: %v", s.cfg.name, err)), c.stderr))
			break
		}
		cat.Tools = append(cat.Tools, remoteTool(t))
	}
	wg.Wait()
	return cat, listErr
}

// relist answers a list_changed notification: list again and tell the
// engine. It runs apart from the SDK's notification handler, which must
// not wait on a request of the same session.
func (s *server) relist(c *conn) {
	s.mu.Lock()
	if s.closed || s.conn != c {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.connect)
		defer cancel()
		go func() {
			select {
			case <-c.closing:
				cancel()
			case <-ctx.Done():
			}
		}()
		cat, err := s.list(ctx, c)
		if err != nil {
			s.log.Warn("listing an MCP server's tools after it said they changed", "error", err)
			return
		}
		if s.learn != nil {
			s.learn(cat)
		}
	}()
}

// watch notices the session ending without us ending it: a crash.
func (s *server) watch(c *conn) {
	defer s.wg.Done()
	err := c.cs.Wait()
	select {
	case <-c.closing:
		return
	default:
	}
	msg := fmt.Sprintf("MCP server %s stopped by itself", s.cfg.name)
	if c.cmd != nil && c.cmd.ProcessState != nil {
		msg += " (" + c.cmd.ProcessState.String() + ")"
	} else if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
		msg += ": " + c.redact(err.Error())
	}
	msg = withTail(msg, c.stderr)
	s.mu.Lock()
	if s.conn == c {
		s.conn = nil
		s.crashes++
		s.lastCrash = s.l.opts.now()
		s.lastErr = msg
		s.setStateLocked(cerebellum.RuntimeCrashed)
		if s.idleTimer != nil {
			s.idleTimer.Stop()
		}
	}
	s.mu.Unlock()
	s.log.Warn("MCP server stopped by itself; the next call starts it again", "error", msg)
	// End what is left of its group.
	c.close(s.l.opts.Terminate)
}

// armIdleLocked (re)starts the idle timer; s.mu is held.
func (s *server) armIdleLocked() {
	if s.idleTimer != nil {
		s.idleTimer.Stop()
	}
	s.idleTimer = s.l.opts.afterFunc(s.cfg.idle, s.idleCheck)
}

// idleCheck stops a server unused for its idle time.
func (s *server) idleCheck() {
	s.mu.Lock()
	c := s.conn
	if c == nil || s.closed {
		s.mu.Unlock()
		return
	}
	if s.inflight > 0 || s.l.opts.now().Sub(s.lastUse) < s.cfg.idle {
		s.armIdleLocked()
		s.mu.Unlock()
		return
	}
	s.conn = nil
	s.setStateLocked(cerebellum.RuntimeStopped)
	s.mu.Unlock()
	s.log.Info("stopping an idle MCP server", "idle", s.cfg.idle.String())
	c.close(s.l.opts.Terminate)
}

// Call runs one tool of the server.
func (s *server) Call(ctx context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	c, err := s.ensure(ctx)
	if err != nil {
		return cerebellum.Result{}, err
	}
	s.mu.Lock()
	s.inflight++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inflight--
		s.lastUse = s.l.opts.now()
		s.mu.Unlock()
	}()
	cctx, cancel := context.WithTimeout(ctx, s.cfg.call)
	defer cancel()
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	// From protocol 2026-07-28 on, the level to log at travels with each
	// request (setLevel is for the sessions of earlier versions).
	meta := sdk.Meta{sdk.MetaKeyLogLevel: s.l.LogLevel(s.cfg.name)}
	params := &sdk.CallToolParams{Meta: meta, Name: tool, Arguments: args}
	token := s.calls.begin(ctx, tool)
	defer s.calls.end(token)
	if s.l.opts.Progress != nil {
		params.SetProgressToken(token)
	}
	res, err := c.cs.CallTool(cctx, params)
	if err != nil {
		return s.callError(ctx, cctx, c, tool, err)
	}
	s.mu.Lock()
	s.crashes = 0
	s.mu.Unlock()
	return formatResult(s.cfg.name, tool, res, c.redact), nil
}

// callError sorts a failed call: the caller gave up (cancel), the call ran
// out of time, the server answered with a protocol error (an error result
// for the model), or the server went away.
func (s *server) callError(ctx, cctx context.Context, c *conn, tool string, err error) (cerebellum.Result, error) {
	switch {
	case ctx.Err() != nil:
		return cerebellum.Result{}, fmt.Errorf("MCP server %s: call of %s cancelled: %w", s.cfg.name, tool, context.Cause(ctx))
	case cctx.Err() != nil:
		return cerebellum.Result{}, fmt.Errorf("%w: MCP server %s: %s did not answer within %s (timeouts.call in its SKILL.md sets the limit)",
			ErrTimeout, s.cfg.name, tool, s.cfg.call)
	}
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return cerebellum.Result{IsError: true, Content: c.redact(fmt.Sprintf("MCP server %s refused the call of %s: %s", s.cfg.name, tool, werr.Message))}, nil
	}
	return cerebellum.Result{}, fmt.Errorf("%w: %s", ErrCrashed, withTail(c.redact(fmt.Sprintf("MCP server %s: the call of %s failed: %v", s.cfg.name, tool, err)), c.stderr))
}

// session returns the live session, starting the server if needed (for
// resources).
func (s *server) session(ctx context.Context) (*sdk.ClientSession, func(string) string, error) {
	c, err := s.ensure(ctx)
	if err != nil {
		return nil, nil, err
	}
	return c.cs, c.redact, nil
}

// httpClient is the client of a server reached by URL: headers go only
// to the configured origin (scheme, host and port), and a redirect to
// another origin fails rather than being followed, since a 307 or 308
// would carry the request (and its tool arguments) there too.
func httpClient(base http.RoundTripper, endpoint string, headers map[string]string) (*http.Client, error) {
	ht, err := newHeaderTransport(base, endpoint, headers)
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: ht, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if originOf(req.URL) != ht.origin {
			return fmt.Errorf("%w: %s answered with a redirect to %s; headers and requests go only to %s (set mcp.url to the new address if it is the same server)",
				ErrCrossOriginRedirect, via[0].URL.Redacted(), req.URL.Redacted(), ht.origin)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}}, nil
}

// headerTransport adds the mcp: block's headers to requests to the
// configured origin, and to no other.
type headerTransport struct {
	base    http.RoundTripper
	origin  string
	headers map[string]string
}

func newHeaderTransport(base http.RoundTripper, endpoint string, headers map[string]string) (headerTransport, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return headerTransport{}, fmt.Errorf("mcp.url %q is not an http(s) address", endpoint)
	}
	return headerTransport{base: base, origin: originOf(u), headers: headers}, nil
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 && originOf(r.URL) == h.origin {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

// originOf is u's origin: scheme, lower-case host and port, the scheme's
// default port filled in.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// remoteTool copies an SDK tool into the engine's terms.
func remoteTool(t *sdk.Tool) cerebellum.RemoteTool {
	rt := cerebellum.RemoteTool{Name: t.Name, Title: t.Title, Description: t.Description}
	if t.InputSchema != nil {
		if b, err := json.Marshal(t.InputSchema); err == nil {
			rt.InputSchema = b
		}
	}
	if t.OutputSchema != nil {
		if b, err := json.Marshal(t.OutputSchema); err == nil {
			rt.OutputSchema = b
		}
	}
	if a := t.Annotations; a != nil {
		rt.ReadOnlyHint, rt.DestructiveHint, rt.IdempotentHint, rt.OpenWorldHint = a.ReadOnlyHint, a.DestructiveHint, a.IdempotentHint, a.OpenWorldHint
		if rt.Title == "" {
			rt.Title = a.Title
		}
	}
	return rt
}

// signInHandler is the server's OAuth handler, made at its first
// connection: it signs in only when the server answers 401 (or 403 for
// more scopes), so a server without sign-in never sees it.
func (s *server) signInHandler(res resolved) (*signin.Handler, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.signIn != nil {
		return s.signIn, nil
	}
	var waiting func(server, url string)
	if a := s.l.opts.Asker; a != nil {
		waiting = a.SigningIn
	}
	h, err := signin.New(signin.Config{Server: s.cfg.name, Endpoint: res.url, ClientID: res.oauthClientID, ClientSecret: res.oauthClientSecret, ClientMetadataURL: res.oauthMetadataURL,
		HTTPClient: &http.Client{Timeout: oauthRequestTimeout}, Store: s.l.opts.Tokens, Open: s.l.opts.OpenURL, Waiting: waiting, Logger: s.log})
	if err != nil {
		return nil, err
	}
	s.signIn = h
	return h, nil
}

// oauthRequestTimeout bounds each request to an authorization server.
const oauthRequestTimeout = 30 * time.Second
