package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// Resource is one resource a server offers, or one resource template
// (Template set, URI the RFC 6570 template and Variables its variables):
// what the composer's @ menu lists.
type Resource struct {
	Server      string   `json:"server"`
	URI         string   `json:"uri"`
	Name        string   `json:"name,omitempty"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	MIMEType    string   `json:"mimeType,omitempty"`
	Template    bool     `json:"template,omitempty"`
	Variables   []string `json:"variables,omitempty"`
}

// Label is the resource's title, else its name, else its URI.
func (r Resource) Label() string {
	switch {
	case r.Title != "":
		return r.Title
	case r.Name != "":
		return r.Name
	}
	return r.URI
}

// ResourceContent is one part of a read resource (or of a prompt's
// embedded resource or image): text, or Blob with its MIME type.
type ResourceContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"blob,omitempty"`
}

// Expand fills a resource template's variables (RFC 6570) into a URI.
func Expand(template string, vars map[string]string) (string, error) {
	t, err := uritemplate.New(template)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %w", ErrBadTemplate, template, err)
	}
	vals := uritemplate.Values{}
	for _, n := range t.Varnames() {
		v, ok := vars[n]
		if !ok || v == "" {
			return "", fmt.Errorf("%w: %q needs a value for %s", ErrBadTemplate, template, n)
		}
		vals.Set(n, uritemplate.String(v))
	}
	return t.Expand(vals)
}

// withServer runs fn with the live session of MCP capability name,
// starting its server if needed. Only usable (installed and enabled) MCP
// capabilities are reached.
func (l *Loader) withServer(ctx context.Context, reg *cerebellum.Registry, name string, fn func(s *server, c *conn) error) error {
	c, err := reg.Get(name)
	if err != nil {
		return err
	}
	if c.Kind != cerebellum.KindMCP {
		return fmt.Errorf("%w: %s is a %s capability, not an MCP server", ErrBadRequest, name, c.Kind)
	}
	return reg.UseRuntime(ctx, c.Name, func(rt cerebellum.Runtime) error {
		s, ok := rt.(*server)
		if !ok {
			return fmt.Errorf("%w: %s is not served by the MCP client", ErrBadRequest, c.Name)
		}
		cn, err := s.ensure(ctx)
		if err != nil {
			return err
		}
		return fn(s, cn)
	})
}

// requestError names the server in a failed request; a protocol error is
// the server's answer (its message, redacted), anything else a transport
// failure with the server's last stderr lines.
func requestError(s *server, c *conn, what string, err error) error {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return fmt.Errorf("%w: MCP server %s: %s: %s", ErrRefused, s.cfg.name, what, c.redact(werr.Message))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: MCP server %s: %s took longer than %s (timeouts.call in its SKILL.md sets the limit)", ErrTimeout, s.cfg.name, what, s.cfg.call)
	}
	return fmt.Errorf("MCP server %s: %s: %w", s.cfg.name, what, errors.New(withTail(c.redact(err.Error()), c.stderr)))
}

// offers reports what the server said it offers at initialisation.
func offers(c *conn) *sdk.ServerCapabilities {
	if ir := c.cs.InitializeResult(); ir != nil && ir.Capabilities != nil {
		return ir.Capabilities
	}
	return &sdk.ServerCapabilities{}
}

// Resources lists the resources and then the resource templates of MCP
// capability name (live; its server starts if it was not running). A
// server that offers no resources lists none.
func (l *Loader) Resources(ctx context.Context, reg *cerebellum.Registry, name string) ([]Resource, error) {
	var out []Resource
	err := l.withServer(ctx, reg, name, func(s *server, c *conn) error {
		if offers(c).Resources == nil {
			return nil
		}
		cctx, cancel := context.WithTimeout(ctx, s.cfg.call)
		defer cancel()
		for r, err := range c.cs.Resources(cctx, nil) {
			if err != nil {
				return requestError(s, c, "listing its resources", err)
			}
			out = append(out, Resource{Server: s.cfg.name, URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType})
		}
		for t, err := range c.cs.ResourceTemplates(cctx, nil) {
			if err != nil {
				return requestError(s, c, "listing its resource templates", err)
			}
			r := Resource{Server: s.cfg.name, URI: t.URITemplate, Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: t.MIMEType, Template: true}
			if ut, err := uritemplate.New(t.URITemplate); err == nil {
				r.Variables = ut.Varnames()
			} else {
				s.log.Warn("an MCP server's resource template is no RFC 6570 template; it is left out", "template", t.URITemplate, "error", err)
				continue
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// ReadResource reads uri from MCP capability name's server.
func (l *Loader) ReadResource(ctx context.Context, reg *cerebellum.Registry, name, uri string) ([]ResourceContent, error) {
	var out []ResourceContent
	err := l.withServer(ctx, reg, name, func(s *server, c *conn) error {
		cctx, cancel := context.WithTimeout(ctx, s.cfg.call)
		defer cancel()
		res, err := c.cs.ReadResource(cctx, &sdk.ReadResourceParams{URI: uri})
		if err != nil {
			return requestError(s, c, "reading "+uri, err)
		}
		for _, rc := range res.Contents {
			if rc == nil {
				continue
			}
			out = append(out, ResourceContent{URI: rc.URI, MIMEType: rc.MIMEType, Text: c.redact(rc.Text), Blob: rc.Blob})
		}
		return nil
	})
	return out, err
}

// Subscribe asks MCP capability name's server to say when uri changes
// (resources/subscribe) and calls changed on each notification until
// unsubscribe is called. changed runs on the session's notification
// goroutine: it must return at once (start a goroutine to read the
// resource again; a request from inside it would wait on itself).
//
// While subscribed the server counts as in use, so it is not stopped
// when idle. A server that crashes and restarts does not resubscribe:
// changes after the restart are not reported.
func (l *Loader) Subscribe(ctx context.Context, reg *cerebellum.Registry, name, uri string, changed func()) (unsubscribe func(), err error) {
	var (
		srv *server
		cn  *conn
		id  int
	)
	err = l.withServer(ctx, reg, name, func(s *server, c *conn) error {
		if r := offers(c).Resources; r == nil || !r.Subscribe {
			return fmt.Errorf("%w: MCP server %s does not tell of changes to its resources", ErrNoSubscribe, s.cfg.name)
		}
		first := false
		id, first = s.updates.add(uri, changed)
		if first {
			cctx, cancel := context.WithTimeout(ctx, s.cfg.call)
			defer cancel()
			if err := c.cs.Subscribe(cctx, &sdk.SubscribeParams{URI: uri}); err != nil {
				s.updates.remove(uri, id)
				return requestError(s, c, "subscribing to "+uri, err)
			}
		}
		s.mu.Lock()
		s.inflight++
		s.mu.Unlock()
		srv, cn = s, c
		return nil
	})
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			srv.mu.Lock()
			srv.inflight--
			srv.lastUse = srv.l.opts.now()
			live := srv.conn == cn && !srv.closed
			srv.mu.Unlock()
			if last := srv.updates.remove(uri, id); last && live {
				cctx, cancel := context.WithTimeout(context.Background(), srv.cfg.call)
				defer cancel()
				if err := cn.cs.Unsubscribe(cctx, &sdk.UnsubscribeParams{URI: uri}); err != nil {
					srv.log.Debug("unsubscribing from an MCP resource", "uri", uri, "error", cn.redact(err.Error()))
				}
			}
		})
	}, nil
}

// resourceUpdated answers notifications/resources/updated: the
// subscribers of its URI are told.
func (s *server) resourceUpdated(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
	if req == nil || req.Params == nil {
		return
	}
	for _, fn := range s.updates.of(req.Params.URI) {
		fn()
	}
}

// updateWatchers are the callbacks subscribed to a server's resources,
// by URI.
type updateWatchers struct {
	mu    sync.Mutex
	next  int
	byURI map[string]map[int]func()
}

// add registers fn for uri; first says no one watched uri before.
func (w *updateWatchers) add(uri string, fn func()) (id int, first bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.byURI == nil {
		w.byURI = map[string]map[int]func(){}
	}
	w.next++
	m := w.byURI[uri]
	if m == nil {
		m = map[int]func(){}
		w.byURI[uri] = m
	}
	m[w.next] = fn
	return w.next, len(m) == 1
}

// remove drops one callback; last says no one watches uri any more.
func (w *updateWatchers) remove(uri string, id int) (last bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.byURI[uri]
	delete(m, id)
	if len(m) == 0 {
		delete(w.byURI, uri)
		return true
	}
	return false
}

func (w *updateWatchers) of(uri string) []func() {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]func(), 0, len(w.byURI[uri]))
	for _, fn := range w.byURI[uri] {
		out = append(out, fn)
	}
	return out
}
