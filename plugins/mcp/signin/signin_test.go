package signin

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestOAuthTransportIssuer serves authorization-server metadata at the
// root of an origin, as 2025-03-26 servers do, and checks which issuers
// are taken as the origin's: only a path of that same origin.
func TestOAuthTransportIssuer(t *testing.T) {
	var issuer string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "token_endpoint": issuer + "/token"})
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	tests := []struct {
		name, issuer, want string
	}{
		{"a path of the same origin is the origin", srv.URL + "/oauth", srv.URL},
		{"the origin itself is unchanged", srv.URL, srv.URL},
		{"another origin is left for RFC 8414 to refuse", "https://evil.example/oauth", "https://evil.example/oauth"},
		{"another port is another origin", "http://" + u.Hostname() + ":1/oauth", "http://" + u.Hostname() + ":1/oauth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			issuer = tt.issuer
			tr := &oauthTransport{base: http.DefaultTransport, root: srv.URL, origin: originOf(u)}
			c := &http.Client{Transport: tr}
			resp, err := c.Get(srv.URL + legacyMetadataPath)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var raw map[string]string
			if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil {
				t.Fatal(err)
			}
			if raw["issuer"] != tt.want {
				t.Errorf("issuer %q, want %q", raw["issuer"], tt.want)
			}
			if raw["token_endpoint"] != tt.issuer+"/token" {
				t.Errorf("token_endpoint changed to %q", raw["token_endpoint"])
			}
			if got := tr.iss(tt.issuer); got != tt.want {
				t.Errorf("iss(%q) = %q, want %q", tt.issuer, got, tt.want)
			}
		})
	}
}

// TestRefreshCarriesResource: a refresh gets the resource parameter of
// the code exchange before it.
func TestRefreshCarriesResource(t *testing.T) {
	var got []url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		got = append(got, r.PostForm)
	}))
	defer srv.Close()
	tr := &oauthTransport{base: http.DefaultTransport}
	c := &http.Client{Transport: tr}
	for _, form := range []url.Values{
		{"grant_type": {"refresh_token"}, "refresh_token": {"r0"}},
		{"grant_type": {"authorization_code"}, "code": {"c"}, "resource": {"https://mcp.example/mcp"}},
		{"grant_type": {"refresh_token"}, "refresh_token": {"r1"}},
	} {
		resp, err := c.PostForm(srv.URL+"/token", form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := []string{"", "https://mcp.example/mcp", "https://mcp.example/mcp"}
	for i, w := range want {
		if r := got[i].Get("resource"); r != w {
			t.Errorf("request %d resource %q, want %q", i, r, w)
		}
	}
}

func TestCallbackHandler(t *testing.T) {
	tests := []struct {
		name, query string
		wantCode    string
		wantErr     string
	}{
		{"code", "code=abc&state=s1&iss=https%3A%2F%2Fas.example", "abc", ""},
		{"refused", "error=access_denied&error_description=no+thanks", "", "access_denied: no thanks"},
		{"nothing", "state=s1", "", "carried no code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan callbackResult, 1)
			rec := httptest.NewRecorder()
			callbackHandler("srv", got).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/callback?"+tt.query, nil))
			r := <-got
			if tt.wantErr != "" {
				if !errors.Is(r.err, ErrSignIn) || !strings.Contains(r.err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want ErrSignIn with %q", r.err, tt.wantErr)
				}
				return
			}
			if r.err != nil || r.res.Code != tt.wantCode || r.res.State != "s1" || r.res.Iss != "https://as.example" {
				t.Errorf("got %+v, %v", r.res, r.err)
			}
			if body, _ := io.ReadAll(rec.Body); !strings.Contains(string(body), "signed in to srv") {
				t.Errorf("page says %q", body)
			}
		})
	}
}

// TestOpenWithBrowserVariable runs $BROWSER as Unix programs read it: a
// ':'-separated list, %s standing for the URL or the URL appended.
func TestOpenWithBrowserVariable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, browser, want string
	}{
		{"appended", script, "https://as.example/authorize?x=1\n"},
		{"placeholder", script + " --new-tab=%s", "--new-tab=https://as.example/authorize?x=1\n"},
		{"first missing, second runs", "/nonexistent/browser:" + script, "https://as.example/authorize?x=1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_ = os.Remove(out)
			if err := openWith(context.Background(), tt.browser, "linux", "https://as.example/authorize?x=1"); err != nil {
				t.Fatal(err)
			}
			var b []byte
			// The browser runs on its own; its output file appears when it
			// has run (this waits on its effect, it does not time it).
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) {
				if b, _ = os.ReadFile(out); len(b) > 0 && b[len(b)-1] == '\n' {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			if string(b) != tt.want {
				t.Errorf("browser got %q, want %q", b, tt.want)
			}
		})
	}
}

// The worded refusal of dynamic registration is ErrSignIn and keeps its
// cause; the SDK's empty body leaves no dangling colon.
func TestRegistrationError(t *testing.T) {
	h := &Handler{cfg: Config{Server: "remote", Endpoint: "https://mcp.example/mcp"}}
	tests := []struct {
		cause   error
		refused bool
		want    string
	}{
		{errors.New("failed to register client: registration failed with status 401 Unauthorized: "), true,
			"(dynamic client registration: registration failed with status 401 Unauthorized). If"},
		{errors.New("registration failed with status 403 Forbidden: closed"), true, "(dynamic client registration: registration failed with status 403 Forbidden: closed)"},
		{errors.New("token exchange failed"), false, ""},
	}
	for _, tt := range tests {
		if got := registrationRefused(tt.cause); got != tt.refused {
			t.Errorf("registrationRefused(%v) = %v", tt.cause, got)
		}
		if !tt.refused {
			continue
		}
		err := h.registrationError(tt.cause)
		if !errors.Is(err, ErrSignIn) || !errors.Is(err, tt.cause) || !strings.Contains(err.Error(), tt.want) ||
			!strings.Contains(err.Error(), "--oauth-client-id ID") || !strings.Contains(err.Error(), "check the server's sign-in settings") {
			t.Errorf("registrationError(%v) = %v", tt.cause, err)
		}
	}
}
