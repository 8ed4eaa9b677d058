package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
)

// memSecrets is a secret store in memory.
type memSecrets struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *memSecrets) Secret(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[name]
	if !ok {
		return "", errors.New("not set")
	}
	return v, nil
}

func (s *memSecrets) SetSecret(name, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[name] = value
	return nil
}

func (s *memSecrets) DeleteSecret(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, name)
	return nil
}

// oauthServer is an MCP server behind OAuth 2.1 as hosted servers run
// them: protected-resource metadata, an authorization server with
// metadata, dynamic registration, an authorization endpoint that
// approves at once (redirecting to the client's redirect URI, as the
// conformance suite's does) and a token endpoint that checks PKCE and
// hands out refresh tokens.
type oauthServer struct {
	t   *testing.T
	srv *httptest.Server

	mu         sync.Mutex
	issued     int
	valid      map[string]bool // access tokens accepted
	refresh    map[string]bool
	challenges map[string]string // code → S256 challenge
	registered int
	authorized int
	refreshed  int
	resources  []string // the resource parameter of each token request
	// refuse, when not 0, is the status /register answers with, and
	// refuseBody its body: a server that takes no dynamic registration.
	refuse     int
	refuseBody string
}

func newOAuthServer(t *testing.T) *oauthServer {
	o := &oauthServer{t: t, valid: map[string]bool{}, refresh: map[string]bool{}, challenges: map[string]string{}}
	mcpSrv := sdk.NewServer(&sdk.Implementation{Name: "oauth-test", Version: "1"}, nil)
	standardTools(nil, nil)(mcpSrv)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpSrv }, nil)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		o.mu.Lock()
		ok := o.valid[tok]
		o.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`, o.srv.URL))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSONResponse(w, map[string]any{"resource": o.srv.URL + "/mcp", "authorization_servers": []string{o.srv.URL}, "scopes_supported": []string{"mcp:tools"}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSONResponse(w, map[string]any{"issuer": o.srv.URL, "authorization_endpoint": o.srv.URL + "/authorize",
			"token_endpoint": o.srv.URL + "/token", "registration_endpoint": o.srv.URL + "/register",
			"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var md map[string]any
		_ = json.NewDecoder(r.Body).Decode(&md)
		o.mu.Lock()
		o.registered++
		refuse, body := o.refuse, o.refuseBody
		o.mu.Unlock()
		if refuse != 0 {
			w.WriteHeader(refuse)
			io.WriteString(w, body)
			return
		}
		md["client_id"] = "wrasse-client"
		md["token_endpoint_auth_method"] = "none"
		w.WriteHeader(http.StatusCreated)
		writeJSONResponse(w, md)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
			http.Error(w, "PKCE required", http.StatusBadRequest)
			return
		}
		o.mu.Lock()
		o.authorized++
		code := fmt.Sprintf("code-%d", o.authorized)
		o.challenges[code] = q.Get("code_challenge")
		o.mu.Unlock()
		redirect, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || redirect.Hostname() != "127.0.0.1" {
			http.Error(w, "redirect_uri must be loopback", http.StatusBadRequest)
			return
		}
		v := redirect.Query()
		v.Set("code", code)
		v.Set("state", q.Get("state"))
		redirect.RawQuery = v.Encode()
		http.Redirect(w, r, redirect.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		o.mu.Lock()
		defer o.mu.Unlock()
		o.resources = append(o.resources, r.PostForm.Get("resource"))
		switch r.PostForm.Get("grant_type") {
		case "authorization_code":
			if _, ok := o.challenges[r.PostForm.Get("code")]; !ok || r.PostForm.Get("code_verifier") == "" {
				http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
				return
			}
			delete(o.challenges, r.PostForm.Get("code"))
		case "refresh_token":
			if !o.refresh[r.PostForm.Get("refresh_token")] {
				http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
				return
			}
			o.refreshed++
		default:
			http.Error(w, `{"error":"unsupported_grant_type"}`, http.StatusBadRequest)
			return
		}
		o.issued++
		access, refresh := fmt.Sprintf("access-token-%d-abcdef", o.issued), fmt.Sprintf("refresh-token-%d-abcdef", o.issued)
		o.valid[access], o.refresh[refresh] = true, true
		writeJSONResponse(w, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": refresh, "scope": "mcp:tools"})
	})
	o.srv = httptest.NewServer(mux)
	t.Cleanup(o.srv.Close)
	return o
}

func writeJSONResponse(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// expireStored moves the stored token's expiry into the past, as time
// passing would.
func expireStored(t *testing.T, store *memSecrets, server string) {
	t.Helper()
	raw, err := store.Secret(signin.SecretName(server))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		t.Fatal(err)
	}
	rec["expiry"] = "2001-01-01T00:00:00Z"
	b, _ := json.Marshal(rec)
	_ = store.SetSecret(signin.SecretName(server), string(b))
}

func (o *oauthServer) counts() (registered, authorized, refreshed int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.registered, o.authorized, o.refreshed
}

// browserStandIn fetches the authorization page and follows its redirect
// to the loopback listener, as a browser whose person approves would.
type browserStandIn struct {
	mu     sync.Mutex
	opened []string
}

func (b *browserStandIn) open(ctx context.Context, u string) error {
	b.mu.Lock()
	b.opened = append(b.opened, u)
	b.mu.Unlock()
	go func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	return nil
}

func (b *browserStandIn) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.opened)
}

// TestOAuthSignInStoresAndReusesTokens signs in to a server that needs
// OAuth (discovery, registration, PKCE, the loopback redirect), then
// checks what a later start does with the stored tokens: uses them
// without the browser, refreshes them when the server no longer takes
// the access token... and that no token reaches the log.
func TestOAuthSignInStoresAndReusesTokens(t *testing.T) {
	o := newOAuthServer(t)
	store := &memSecrets{}
	browser := &browserStandIn{}
	var logBuf bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logBuf.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))

	ws := t.TempDir()
	writeCap(t, ws, "remote", "---\nname: remote\ndescription: A remote server behind sign-in.\nmcp:\n  url: "+o.srv.URL+"/mcp\n---\n")
	probe := func() (Report, error) {
		loader := NewLoader(Options{Tokens: store, OpenURL: browser.open, Logger: logger})
		reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Close()
		approveAll(t, reg)
		c, _ := reg.Get("remote")
		return loader.Probe(context.Background(), cerebellum.LoadRequest{Capability: c, Workspace: ws})
	}

	steps := []struct {
		name                          string
		before                        func()
		wantRegistered, wantAuthorize int
		wantRefreshed, wantBrowser    int
	}{
		{name: "first start signs in in the browser", wantRegistered: 1, wantAuthorize: 1, wantBrowser: 1},
		{name: "a later start uses the stored token", wantRegistered: 1, wantAuthorize: 1, wantBrowser: 1},
		{name: "an expired token is refreshed without the browser", before: func() { expireStored(t, store, "remote") },
			wantRegistered: 1, wantAuthorize: 1, wantRefreshed: 1, wantBrowser: 1},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		rep, err := probe()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if len(rep.Catalog.Tools) == 0 {
			t.Fatalf("%s: no tools listed", st.name)
		}
		reg, auth, ref := o.counts()
		if reg != st.wantRegistered || auth != st.wantAuthorize || ref != st.wantRefreshed || browser.count() != st.wantBrowser {
			t.Errorf("%s: registered %d, authorized %d, refreshed %d, browser opened %d; want %d, %d, %d, %d", st.name,
				reg, auth, ref, browser.count(), st.wantRegistered, st.wantAuthorize, st.wantRefreshed, st.wantBrowser)
		}
	}
	raw, err := store.Secret(signin.SecretName("remote"))
	if err != nil {
		t.Fatalf("no stored sign-in: %v", err)
	}
	var rec struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.Unmarshal([]byte(raw), &rec)
	if !strings.HasPrefix(rec.AccessToken, "access-token-2") {
		t.Errorf("stored token %q, want the refreshed one", rec.AccessToken)
	}
	for _, r := range o.resources {
		if r != o.srv.URL+"/mcp" {
			t.Errorf("token request with resource %q, want %s/mcp", r, o.srv.URL)
		}
	}
	logMu.Lock()
	logged := logBuf.String()
	logMu.Unlock()
	if strings.Contains(logged, "access-token-") || strings.Contains(logged, "refresh-token-") {
		t.Errorf("a token reached the log:\n%s", logged)
	}

	// Stored tokens are bound to the server's origin: the same name at
	// another address signs in afresh rather than sending them there.
	other := newOAuthServer(t)
	writeCap(t, ws, "remote", "---\nname: remote\ndescription: A remote server behind sign-in.\nmcp:\n  url: "+other.srv.URL+"/mcp\n---\n")
	if _, err := probe(); err != nil {
		t.Fatal(err)
	}
	if _, auth, _ := other.counts(); auth != 1 {
		t.Errorf("the server at another origin authorized %d times, want 1 (a fresh sign-in)", auth)
	}
	other.mu.Lock()
	for tok := range other.valid {
		if strings.HasPrefix(tok, "access-token-") && tok == rec.AccessToken {
			t.Errorf("the other origin was sent the first server's token")
		}
	}
	other.mu.Unlock()

	if ok, err := signin.Forget(store, "remote"); !ok || err != nil {
		t.Errorf("Forget = %v, %v", ok, err)
	}
	if _, err := store.Secret(signin.SecretName("remote")); err == nil {
		t.Error("the sign-in is still stored after Forget")
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestSignInElsewhereAndSignOut: a server whose sign-in was cancelled
// takes the tokens a sign-in on another connection stored (the settings
// page's Sign in runs its own) without sending the person to the browser
// again; signing out ends its session and the tokens it held, so its next
// use signs in afresh.
func TestSignInElsewhereAndSignOut(t *testing.T) {
	o := newOAuthServer(t)
	store := &memSecrets{}
	approve := &browserStandIn{}
	var mu sync.Mutex
	refusing := true
	opened := make(chan struct{}, 8)
	open := func(ctx context.Context, u string) error {
		mu.Lock()
		refuse := refusing
		mu.Unlock()
		opened <- struct{}{}
		if refuse {
			return nil // the person closes the page
		}
		return approve.open(ctx, u)
	}
	ws := t.TempDir()
	writeCap(t, ws, "remote", "---\nname: remote\ndescription: A remote server behind sign-in.\nmcp:\n  url: "+o.srv.URL+"/mcp\n---\n")
	loader := NewLoader(Options{Tokens: store, OpenURL: open})
	reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	approveAll(t, reg)

	// The sign-in in the browser is cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-opened; cancel() }()
	if err := reg.Start(ctx, "remote"); err == nil {
		t.Fatal("Start succeeded though the sign-in was cancelled")
	}
	// Signed in on another connection.
	mu.Lock()
	refusing = false
	mu.Unlock()
	c, _ := reg.Get("remote")
	if _, err := loader.Probe(context.Background(), cerebellum.LoadRequest{Capability: c, Workspace: ws}); err != nil {
		t.Fatalf("Probe: %v", err)
	}
	if _, auth, _ := o.counts(); auth != 1 {
		t.Fatalf("authorized %d times, want 1", auth)
	}
	if err := reg.Start(context.Background(), "remote"); err != nil {
		t.Fatalf("Start after signing in elsewhere: %v", err)
	}
	if res, err := call(t, reg, "remote__echo", `{"message":"hi"}`); err != nil || res.IsError {
		t.Fatalf("call after signing in elsewhere = %+v, %v", res, err)
	}
	if _, auth, _ := o.counts(); auth != 1 || approve.count() != 1 {
		t.Errorf("authorized %d times, browser opened %d; the server should have used the stored sign-in", auth, approve.count())
	}

	// Sign out: forgotten, and the live session with its tokens ends.
	if ok, err := signin.Forget(store, "remote"); !ok || err != nil {
		t.Fatalf("Forget = %v, %v", ok, err)
	}
	loader.SignedOut("remote")
	if st := liveServer(t, loader, "remote").Status(); st.State != cerebellum.RuntimeStopped {
		t.Errorf("state after sign-out = %s, want stopped", st.State)
	}
	if res, err := call(t, reg, "remote__echo", `{"message":"again"}`); err != nil || res.IsError {
		t.Fatalf("call after signing out = %+v, %v", res, err)
	}
	if _, auth, _ := o.counts(); auth != 2 {
		t.Errorf("authorized %d times after sign-out, want 2 (a fresh sign-in in the browser)", auth)
	}
}

// A server whose authorization server refuses dynamic client registration
// (a 401 with no body, as hosted servers answer) fails sign-in with words
// saying so and what to do: sign in as a client registered beforehand
// (client_id in the mcp block, or mcp add --oauth-client-id), or check
// the server's sign-in settings. On main it ended "registration failed
// with status 401 Unauthorized: ", an empty reason and no next step.
func TestSignInRegistrationRefusedSaysWhatToDo(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		body    string
		want    []string
		notWant string
	}{
		{"401, empty body", http.StatusUnauthorized, "", []string{"(dynamic client registration: registration failed with status 401 Unauthorized)"}, "Unauthorized: "},
		{"403 with a reason", http.StatusForbidden, "registration is closed", []string{"status 403 Forbidden: registration is closed)"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := newOAuthServer(t)
			o.refuse, o.refuseBody = c.status, c.body
			ws := t.TempDir()
			writeCap(t, ws, "remote", "---\nname: remote\ndescription: A remote server behind sign-in.\nmcp:\n  url: "+o.srv.URL+"/mcp\n---\n")
			browser := &browserStandIn{}
			loader := NewLoader(Options{Tokens: &memSecrets{}, OpenURL: browser.open})
			reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			approveAll(t, reg)
			cp, _ := reg.Get("remote")
			_, err = loader.Probe(context.Background(), cerebellum.LoadRequest{Capability: cp, Workspace: ws})
			if err == nil {
				t.Fatal("signed in although registration was refused")
			}
			msg := err.Error()
			want := append([]string{"MCP sign-in failed", "MCP server remote: its authorization server refused to register Wrasse as a client",
				"set client_id under oauth in the server's mcp block",
				"remove the server (wrasse mcp remove remote) and add it again with wrasse mcp add remote --url " + o.srv.URL + "/mcp --oauth-client-id ID",
				"check the server's sign-in settings"}, c.want...)
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			if c.notWant != "" && strings.Contains(msg, c.notWant) {
				t.Errorf("error says %q:\n%s", c.notWant, msg)
			}
			if browser.count() != 0 {
				t.Error("the browser was opened")
			}
		})
	}
}
