package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/brain/assistant"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/mcp/signin"
	"github.com/wrasse-app/wrasse/ui/bridge"
)

// oauthMCP is an MCP server behind OAuth in this process: it refuses
// requests without a token it issued (401 naming its metadata), and its
// authorization server registers clients, approves at once (redirecting
// to the loopback redirect URI with the code) and checks PKCE.
type oauthMCP struct {
	srv *httptest.Server

	mu         sync.Mutex
	valid      map[string]bool
	challenges map[string]bool
	authorized int
}

func newOAuthMCP(t *testing.T) *oauthMCP {
	t.Helper()
	o := &oauthMCP{valid: map[string]bool{}, challenges: map[string]bool{}}
	server := sdk.NewServer(&sdk.Implementation{Name: "remote-test", Version: "1"}, nil)
	sdk.AddTool(server, &sdk.Tool{Name: "echo", Description: "Echoes the message back."},
		func(_ context.Context, _ *sdk.CallToolRequest, in struct {
			Message string `json:"message"`
		}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Message}}}, nil, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)
	js := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		o.mu.Lock()
		ok := o.valid[tok]
		o.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, o.srv.URL))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		js(w, map[string]any{"resource": o.srv.URL + "/mcp", "authorization_servers": []string{o.srv.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		js(w, map[string]any{"issuer": o.srv.URL, "authorization_endpoint": o.srv.URL + "/authorize",
			"token_endpoint": o.srv.URL + "/token", "registration_endpoint": o.srv.URL + "/register",
			"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code", "refresh_token"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var md map[string]any
		_ = json.NewDecoder(r.Body).Decode(&md)
		md["client_id"] = "wrasse-client"
		md["token_endpoint_auth_method"] = "none"
		w.WriteHeader(http.StatusCreated)
		js(w, md)
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		redirect, err := url.Parse(q.Get("redirect_uri"))
		if q.Get("code_challenge") == "" || err != nil || redirect.Hostname() != "127.0.0.1" {
			http.Error(w, "PKCE and a loopback redirect required", http.StatusBadRequest)
			return
		}
		o.mu.Lock()
		o.authorized++
		code := fmt.Sprintf("code-%d", o.authorized)
		o.challenges[code] = true
		o.mu.Unlock()
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
		if !o.challenges[r.PostForm.Get("code")] || r.PostForm.Get("code_verifier") == "" {
			http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
			return
		}
		delete(o.challenges, r.PostForm.Get("code"))
		access := fmt.Sprintf("access-%d", len(o.valid)+1)
		o.valid[access] = true
		js(w, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-" + access})
	})
	o.srv = httptest.NewServer(mux)
	t.Cleanup(o.srv.Close)
	return o
}

// browserScript makes $BROWSER a script: approving, it fetches the page
// and follows the redirect to Wrasse's loopback listener, as a browser
// whose person signs in does; else it only notes it was opened.
func browserScript(t *testing.T, approve bool) (opened string) {
	t.Helper()
	dir := t.TempDir()
	opened = filepath.Join(dir, "opened")
	body := "#!/bin/sh\ntouch " + opened + "\n"
	if approve {
		curl, err := exec.LookPath("curl")
		if err != nil {
			t.Skipf("curl stands in for the browser and is not installed: %v", err)
		}
		body += "exec " + curl + " -s -L -o /dev/null \"$1\"\n"
	}
	script := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", script)
	return opened
}

// addRemote adds the server as the person does (enabled at once).
func addRemote(t *testing.T, core *assistant.App, o *oauthMCP) {
	t.Helper()
	if _, err := core.AddMCP(context.Background(), assistant.MCPServer{Name: "remote", MCPServer: skillmd.MCPServer{URL: o.srv.URL + "/mcp"}}, false); err != nil {
		t.Fatal(err)
	}
}

func TestMCPPageSignInAndOut(t *testing.T) {
	o := newOAuthMCP(t)
	browserScript(t, true)
	h := newHarness(t, nil)
	addRemote(t, h.core, o)
	p := h.s.mcp
	p.refresh()
	p.Select("remote")
	b := p.signIn
	if b.State() != signedOutText || !b.signIn.Visible() || b.signOut.Visible() {
		t.Fatalf("before signing in the box says %q (sign in shown %v, sign out %v)", b.State(), b.signIn.Visible(), b.signOut.Visible())
	}
	test.Tap(b.signIn) // inline runners: the sign-in has finished
	if got := p.outcome.Text(); got != "Signed in to remote." {
		t.Fatalf("after Sign in the page says %q", got)
	}
	if b.State() != signedInText || b.signIn.Visible() || !b.signOut.Visible() {
		t.Errorf("after signing in the box says %q (sign in shown %v, sign out %v)", b.State(), b.signIn.Visible(), b.signOut.Visible())
	}
	if !h.core.HasSecret(signin.SecretName("remote")) {
		t.Error("no tokens stored after signing in")
	}
	test.Tap(b.signOut)
	if got := p.outcome.Text(); !strings.HasPrefix(got, "Signed out of remote.") {
		t.Errorf("after Sign out the page says %q", got)
	}
	if h.core.HasSecret(signin.SecretName("remote")) {
		t.Error("the tokens are still stored after signing out")
	}
	if b.State() != signedOutText {
		t.Errorf("after signing out the box says %q", b.State())
	}

	// A server Wrasse runs has no sign-in.
	if _, err := h.core.AddMCP(context.Background(), assistant.MCPServer{Name: "local", MCPServer: skillmd.MCPServer{Command: "true"}}, false); err != nil {
		t.Fatal(err)
	}
	p.refresh()
	p.Select("local")
	if b.obj.Visible() {
		t.Error("a command server shows a sign-in box")
	}
}

// TestMCPPageSignInCancel: Cancel while the browser is open ends the
// sign-in (its connection and the loopback wait), and nothing is stored.
func TestMCPPageSignInCancel(t *testing.T) {
	o := newOAuthMCP(t)
	opened := browserScript(t, false)
	h := newHarness(t, nil)
	addRemote(t, h.core, o)
	// Its own box over the same core, with a real background goroutine:
	// the sign-in waits for the browser while the test taps Cancel.
	var mu sync.Mutex
	do := func(fn func()) {
		mu.Lock()
		defer mu.Unlock()
		fn()
	}
	ended := make(chan struct{}, 1)
	env := &bridge.Env{App: h.s.env.App, Window: h.win, Core: h.core, Do: do, Go: func(fn func()) { go fn() }}
	outcome := newProblemLine(func(hint.Hint) {})
	b := newSignInBox(env, outcome, func() { ended <- struct{}{} })
	c, err := h.core.Capabilities().Get("remote")
	if err != nil {
		t.Fatal(err)
	}
	do(func() {
		b.Show(c)
		test.Tap(b.signIn)
		if b.State() != signInWaitText || !b.cancel.Visible() {
			t.Errorf("while signing in the box says %q (cancel shown %v)", b.State(), b.cancel.Visible())
		}
	})
	for { // until the browser was sent to the sign-in page
		if _, err := os.Stat(opened); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	do(func() { test.Tap(b.cancel) })
	<-ended
	do(func() {
		if got := outcome.Text(); got != signInCancelled {
			t.Errorf("after Cancel the page says %q", got)
		}
		if b.State() != signedOutText || !b.signIn.Visible() {
			t.Errorf("after Cancel the box says %q", b.State())
		}
	})
	if h.core.HasSecret(signin.SecretName("remote")) {
		t.Error("tokens stored though the sign-in was cancelled")
	}
}
