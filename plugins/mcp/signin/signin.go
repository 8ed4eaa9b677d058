// Package signin is OAuth 2.1 sign-in for remote MCP servers, the desktop
// way (RFC 8252): the Go SDK's authorization-code handler (auth package)
// does the protocol — protected-resource and authorization-server
// metadata discovery with the 2025-03-26 fallbacks, dynamic client
// registration or a pre-registered client, PKCE, scopes from
// WWW-Authenticate or scopes_supported with step-up on 403, the resource
// parameter — and this package adds what a desktop app needs around it:
//   - the person's browser opens the authorization page ($BROWSER when set,
//     else xdg-open, open or start) and the code comes back on a loopback
//     redirect, http://127.0.0.1:PORT/callback, on a port chosen for the
//     handler (the SDK checks state);
//   - tokens are stored as one secret per server (Store), bound to the
//     server's origin, refreshed through the stored refresh token, and
//     saved again whenever they change; Forget signs out.
//
// Tokens go nowhere else: not into logs, errors, the folder or a
// server's environment.
package signin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// BrowserWait bounds the wait for the person to sign in in the browser.
const BrowserWait = 10 * time.Minute

// Store keeps secrets; the workspace database implements it.
type Store interface {
	Secret(name string) (string, error)
	SetSecret(name, value string) error
	DeleteSecret(name string) error
}

// SecretName is the name of the secret holding a server's tokens.
func SecretName(server string) string { return "mcp-oauth." + server }

// Config configures one server's sign-in.
type Config struct {
	// Server is the capability's name; Endpoint the server's URL.
	Server   string
	Endpoint string
	// ClientID and ClientSecret are a pre-registered client (the secret
	// resolved already); empty: dynamic client registration.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is the client's metadata document, an https
	// address used as the client ID where the authorization server takes
	// one (tried first).
	ClientMetadataURL string
	// HTTPClient makes the OAuth requests (metadata, registration, token);
	// nil: http.DefaultClient.
	HTTPClient *http.Client
	// Store keeps the tokens; nil keeps them for this handler only.
	Store Store
	// Open shows url to the person: the browser (default OpenBrowser).
	Open func(ctx context.Context, url string) error
	// Waiting is told the authorization URL while the handler waits for
	// the browser (the window shows "Waiting for sign-in…", the CLI
	// prints it); nil tells no one.
	Waiting func(server, url string)
	Logger  *slog.Logger
}

// Handler is an auth.OAuthHandler for one server.
type Handler struct {
	cfg    Config
	origin string
	oauth  *oauthTransport

	// signing serialises sign-ins: two requests refused at once (a call
	// and the standalone stream) make one trip to the browser, the second
	// waiting for the first.
	signing sync.Mutex

	mu    sync.Mutex
	inner *auth.AuthorizationCodeHandler
	port  int
	// stored is the token source of tokens read from Store, until a
	// sign-in replaces it.
	stored oauth2.TokenSource
	loaded bool
	// pending is the loopback listener of the sign-in under way.
	pending net.Listener
}

var _ auth.OAuthHandler = (*Handler)(nil)

// New returns the sign-in handler of a server.
func New(cfg Config) (*Handler, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("%w: %q", ErrBadEndpoint, cfg.Endpoint)
	}
	hc := http.Client{}
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	transport := &oauthTransport{base: base, root: u.Scheme + "://" + u.Host, origin: originOf(u)}
	hc.Transport = transport
	cfg.HTTPClient = &hc
	if cfg.Open == nil {
		cfg.Open = OpenBrowser
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Handler{cfg: cfg, origin: originOf(u), oauth: transport}, nil
}

// record is what the secret holds: the client and the tokens, and the
// origin they belong to.
type record struct {
	Origin       string           `json:"origin"`
	ClientID     string           `json:"client_id"`
	ClientSecret string           `json:"client_secret,omitempty"`
	TokenURL     string           `json:"token_url"`
	AuthStyle    oauth2.AuthStyle `json:"auth_style,omitempty"`
	Scopes       []string         `json:"scopes,omitempty"`
	// Resource is the resource parameter (RFC 8707) refreshes send.
	Resource     string    `json:"resource,omitempty"`
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
}

// TokenSource is the signed-in token source: the last sign-in's, else the
// stored tokens' (refreshed when they expire), else nil (the request goes
// without, and a 401 starts Authorize).
func (h *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inner != nil {
		if ts, _ := h.inner.TokenSource(ctx); ts != nil {
			return ts, nil
		}
	}
	if !h.loaded {
		h.loaded = true
		h.stored = h.loadLocked()
	}
	return h.stored, nil
}

// loadLocked reads the stored tokens; any that cannot be used (another
// origin, unreadable, a refresh refused) are forgotten.
func (h *Handler) loadLocked() oauth2.TokenSource {
	if h.cfg.Store == nil {
		return nil
	}
	raw, err := h.cfg.Store.Secret(SecretName(h.cfg.Server))
	if err != nil || raw == "" {
		return nil
	}
	var r record
	if err := json.Unmarshal([]byte(raw), &r); err != nil || r.Origin != h.origin || r.AccessToken == "" {
		// Tokens of another origin never go to this one.
		h.cfg.Logger.Info("stored MCP sign-in is not for this server's address; signing in again", "server", h.cfg.Server)
		return nil
	}
	h.oauth.setResource(r.Resource)
	if h.cfg.ClientID != "" && r.ClientID == h.cfg.ClientID {
		// A pre-registered client's secret is kept in its own secret.
		r.ClientSecret = h.cfg.ClientSecret
	}
	cfg := &oauth2.Config{ClientID: r.ClientID, ClientSecret: r.ClientSecret, Scopes: r.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: r.TokenURL, AuthStyle: r.AuthStyle}}
	tok := &oauth2.Token{AccessToken: r.AccessToken, TokenType: r.TokenType, RefreshToken: r.RefreshToken, Expiry: r.Expiry}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, h.cfg.HTTPClient)
	ts := h.saving(cfg, cfg.TokenSource(ctx, tok), tok)
	if _, err := ts.Token(); err != nil {
		// An expired token whose refresh was refused: sign in afresh.
		h.cfg.Logger.Info("stored MCP sign-in expired and could not be refreshed; signing in again", "server", h.cfg.Server, "error", err)
		return nil
	}
	return ts
}

type pauseKey struct{}

// WithPause returns ctx carrying pause, which a sign-in calls while it
// waits for the person in the browser, and whose result it calls when the
// wait ends: a connect timeout stands still meanwhile.
func WithPause(ctx context.Context, pause func() (resume func())) context.Context {
	return context.WithValue(ctx, pauseKey{}, pause)
}

// Authorize signs in: the SDK's handler discovers and registers, and the
// browser brings the code back to the loopback listener.
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	h.signing.Lock()
	defer h.signing.Unlock()
	if tok := req.Header.Get("Authorization"); tok != "" && resp.StatusCode == http.StatusUnauthorized {
		// Signed in meanwhile (the request went with an older token):
		// the retry carries the new one.
		if ts, _ := h.TokenSource(ctx); ts != nil {
			if t, err := ts.Token(); err == nil && "Bearer "+t.AccessToken != tok {
				resp.Body.Close()
				return nil
			}
		}
	}
	if h.signedInElsewhere(ctx, req) {
		resp.Body.Close()
		return nil
	}
	h.mu.Lock()
	inner, port := h.inner, h.port
	h.mu.Unlock()
	ln, err := listen(port)
	if err != nil {
		return err
	}
	defer ln.Close()
	if inner == nil {
		port = ln.Addr().(*net.TCPAddr).Port
		inner, err = h.newInner(redirectURL(port))
		if err != nil {
			return err
		}
		h.mu.Lock()
		h.inner, h.port = inner, port
		h.mu.Unlock()
	}
	h.mu.Lock()
	h.pending = ln
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.pending = nil
		h.mu.Unlock()
	}()
	if err := inner.Authorize(ctx, req, resp); err != nil {
		if h.cfg.ClientID == "" && registrationRefused(err) {
			return h.registrationError(err)
		}
		return fmt.Errorf("%w: MCP server %s: %w", ErrSignIn, h.cfg.Server, err)
	}
	return nil
}

// registrationRefused tells the Go SDK's refusal of dynamic client
// registration (oauthex.RegisterClient; its errors are not typed but for
// a 400 with a JSON body).
func registrationRefused(err error) bool {
	var re *oauthex.ClientRegistrationError
	return errors.As(err, &re) || strings.Contains(err.Error(), "registration failed")
}

// registrationError says that the server's authorization server would not
// register Wrasse as a client, and what the person can do: sign in as a
// client registered with it beforehand, or look at the server's sign-in
// settings. The SDK's text ends in the response body, often empty
// ("… status 401 Unauthorized: "); a dangling colon is dropped.
func (h *Handler) registrationError(err error) error {
	why := strings.TrimSpace(err.Error())
	why = strings.TrimSpace(strings.TrimSuffix(why, ":"))
	why = strings.TrimPrefix(why, "failed to register client: ")
	return &signInError{err: err, msg: fmt.Sprintf("%v: MCP server %s: its authorization server refused to register Wrasse as a client "+
		"(dynamic client registration: %s). If the server's provider gave you a client ID, sign in with it: "+
		"set client_id under oauth in the server's mcp block (its SKILL.md), or remove the server (wrasse mcp remove %s) "+
		"and add it again with wrasse mcp add %s --url %s --oauth-client-id ID; otherwise check the server's sign-in settings "+
		"(it may take only clients registered with it beforehand)",
		ErrSignIn, h.cfg.Server, why, h.cfg.Server, h.cfg.Server, h.cfg.Endpoint)}
}

// signInError is a sign-in error worded here, wrapping ErrSignIn and the
// cause it words.
type signInError struct {
	err error
	msg string
}

func (e *signInError) Error() string   { return e.msg }
func (e *signInError) Unwrap() []error { return []error{ErrSignIn, e.err} }

// signedInElsewhere reports whether the store holds tokens other than
// the ones req was refused with: another connection to this server (the
// settings page's Sign in runs its own) signed in since this handler
// last read them. The retry goes with those, not to the browser.
func (h *Handler) signedInElsewhere(ctx context.Context, req *http.Request) bool {
	h.mu.Lock()
	h.loaded = false
	h.mu.Unlock()
	ts, _ := h.TokenSource(ctx)
	if ts == nil {
		return false
	}
	t, err := ts.Token()
	return err == nil && "Bearer "+t.AccessToken != req.Header.Get("Authorization")
}

func redirectURL(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/callback", port) }

// listen opens the loopback listener, on port when it is not 0 (the
// redirect URI registered for the handler names it).
func listen(port int) (net.Listener, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("%w: listen for the sign-in redirect on 127.0.0.1: %w", ErrSignIn, err)
	}
	return ln, nil
}

func (h *Handler) newInner(redirect string) (*auth.AuthorizationCodeHandler, error) {
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: h.fetch,
		RequestRefreshToken:      true,
		// RFC 9207: an iss the server sends but does not advertise is
		// still checked against the issuer; matching, it is accepted.
		AcceptUnadvertisedIss: true,
		Client:                h.cfg.HTTPClient,
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			ts := h.saving(c, c.TokenSource(ctx, tok), nil)
			return ts, nil
		},
	}
	if h.cfg.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.cfg.ClientMetadataURL}
	}
	if h.cfg.ClientID != "" {
		cred := &oauthex.ClientCredentials{ClientID: h.cfg.ClientID}
		if h.cfg.ClientSecret != "" {
			cred.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.cfg.ClientSecret}
		}
		cfg.PreregisteredClient = cred
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{redirect},
			ClientName:   "Wrasse",
			GrantTypes:   []string{"authorization_code", "refresh_token"},
		}}
	}
	inner, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: MCP server %s: %w", ErrSignIn, h.cfg.Server, err)
	}
	return inner, nil
}

// fetch opens the authorization page and waits for the redirect on the
// pending listener.
func (h *Handler) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	h.mu.Lock()
	ln := h.pending
	h.mu.Unlock()
	if ln == nil {
		return nil, fmt.Errorf("%w: no loopback listener for the redirect", ErrSignIn)
	}
	got := make(chan callbackResult, 1)
	srv := &http.Server{Handler: callbackHandler(h.cfg.Server, got), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close() }()
	if pause, ok := ctx.Value(pauseKey{}).(func() func()); ok {
		defer pause()()
	}
	// A person takes their time, but not forever.
	ctx, cancel := context.WithTimeout(ctx, BrowserWait)
	defer cancel()
	if h.cfg.Waiting != nil {
		h.cfg.Waiting(h.cfg.Server, args.URL)
	}
	if err := h.cfg.Open(ctx, args.URL); err != nil {
		// The URL was shown (Waiting): the person can still open it.
		h.cfg.Logger.Warn("could not open the browser for an MCP sign-in", "server", h.cfg.Server, "error", err)
	}
	select {
	case r := <-got:
		if r.err != nil {
			return nil, r.err
		}
		r.res.Iss = h.oauth.iss(r.res.Iss)
		return r.res, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: MCP server %s: waiting for the browser: %w", ErrSignIn, h.cfg.Server, context.Cause(ctx))
	}
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

// callbackHandler takes the first request to /callback: the code and
// state, or the error the authorization server sent.
func callbackHandler(server string, got chan<- callbackResult) http.Handler {
	var once sync.Once
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		var res callbackResult
		if e := q.Get("error"); e != "" {
			msg := e
			if d := q.Get("error_description"); d != "" {
				msg += ": " + d
			}
			res.err = fmt.Errorf("%w: MCP server %s: the authorization server refused: %s", ErrSignIn, server, msg)
		} else if q.Get("code") == "" {
			res.err = fmt.Errorf("%w: MCP server %s: the redirect carried no code", ErrSignIn, server)
		} else {
			res.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		title := "Signed in"
		body := "Wrasse is signed in to " + server + ". You can close this tab."
		if res.err != nil {
			title, body = "Sign-in failed", res.err.Error()
		}
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>%s</p>", html.EscapeString(title), html.EscapeString(body))
		once.Do(func() { got <- res })
	})
}

// saving wraps a token source so that every new token is stored. last is
// the token already stored (nil: none yet).
func (h *Handler) saving(cfg *oauth2.Config, ts oauth2.TokenSource, last *oauth2.Token) oauth2.TokenSource {
	return &savingSource{h: h, cfg: cfg, ts: ts, last: last}
}

type savingSource struct {
	h   *Handler
	cfg *oauth2.Config
	ts  oauth2.TokenSource

	mu   sync.Mutex
	last *oauth2.Token
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.ts.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last != nil && s.last.AccessToken == tok.AccessToken && s.last.RefreshToken == tok.RefreshToken {
		return tok, nil
	}
	s.last = tok
	s.h.save(s.cfg, tok)
	return tok, nil
}

// save stores tok; a failure is logged (the session still works, the next
// start signs in again).
func (h *Handler) save(cfg *oauth2.Config, tok *oauth2.Token) {
	if h.cfg.Store == nil {
		return
	}
	r := record{Origin: h.origin, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, TokenURL: cfg.Endpoint.TokenURL,
		AuthStyle: cfg.Endpoint.AuthStyle, Scopes: cfg.Scopes, Resource: h.oauth.resourceOf(), AccessToken: tok.AccessToken, TokenType: tok.TokenType,
		RefreshToken: tok.RefreshToken, Expiry: tok.Expiry}
	if h.cfg.ClientID != "" {
		// A pre-registered client's secret stays in its own secret.
		r.ClientSecret = ""
	}
	b, err := json.Marshal(r)
	if err != nil {
		h.cfg.Logger.Warn("could not encode an MCP server's tokens", "server", h.cfg.Server, "error", err)
		return
	}
	if err := h.cfg.Store.SetSecret(SecretName(h.cfg.Server), string(b)); err != nil {
		h.cfg.Logger.Warn("could not store an MCP server's tokens; it asks to sign in again next time", "server", h.cfg.Server, "error", err)
	}
}

// Forget signs a server out: its stored tokens are deleted. Forgetting a
// server that is not signed in is no error.
func Forget(s Store, server string) (bool, error) {
	if _, err := s.Secret(SecretName(server)); err != nil {
		return false, nil
	}
	if err := s.DeleteSecret(SecretName(server)); err != nil {
		return false, fmt.Errorf("sign out of MCP server %s: %w", server, err)
	}
	return true, nil
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
