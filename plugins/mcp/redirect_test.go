package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// headerLog records the headers each request of a test server carried.
type headerLog struct {
	mu   sync.Mutex
	seen []http.Header
}

func (h *headerLog) add(r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seen = append(h.seen, r.Header.Clone())
}

func (h *headerLog) all() []http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]http.Header(nil), h.seen...)
}

// TestRedirectToAnotherOriginKeepsSecretHeaders: an MCP server configured
// with secret headers answers 307 to another origin (a second real HTTP
// server on another port). The second origin never sees the headers, and
// the connection fails saying where the redirect went.
func TestRedirectToAnotherOriginKeepsSecretHeaders(t *testing.T) {
	const token, apiKey = "gh-token-value-0123456789", "sk-openai-value-0123456789"
	srv := sdk.NewServer(&sdk.Implementation{Name: "other", Version: "1"}, nil)
	standardTools(nil, nil)(srv)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var other headerLog
	otherSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.add(r)
		h.ServeHTTP(w, r)
	}))
	defer otherSrv.Close()

	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			var first headerLog
			firstSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				first.add(r)
				http.Redirect(w, r, otherSrv.URL+"/mcp", code)
			}))
			defer firstSrv.Close()

			ws := t.TempDir()
			writeCap(t, ws, "remote", "---\nname: remote\ndescription: A remote server.\nmcp:\n  url: "+firstSrv.URL+"/mcp\n"+
				"  headers: {Authorization: 'Bearer ${secret:gh_token}', X-Api-Key: '${secret:openai_api_key}'}\n---\n")
			secrets := map[string]string{"gh_token": token, "openai_api_key": apiKey}
			loader := NewLoader(Options{Secrets: func(n string) (string, error) {
				if v, ok := secrets[n]; ok {
					return v, nil
				}
				return "", errors.New("not set")
			}})
			reg, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: loader}})
			if err != nil {
				t.Fatal(err)
			}
			defer reg.Close()
			c, _ := reg.Get("remote")
			_, err = loader.Probe(context.Background(), cerebellum.LoadRequest{Capability: c, Workspace: ws})
			if !errors.Is(err, ErrConnect) || !errors.Is(err, ErrCrossOriginRedirect) {
				t.Fatalf("probe through a redirect to another origin: %v, want ErrConnect and ErrCrossOriginRedirect", err)
			}
			for _, want := range []string{otherSrv.URL, "mcp.url"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not say %q: %v", want, err)
				}
			}
			if strings.Contains(err.Error(), token) || strings.Contains(err.Error(), apiKey) {
				t.Errorf("error shows a secret: %v", err)
			}
			if len(first.all()) == 0 {
				t.Fatal("the configured server was never asked")
			}
			for _, hd := range first.all() {
				if hd.Get("Authorization") != "Bearer "+token || hd.Get("X-Api-Key") != apiKey {
					t.Errorf("the configured origin did not get its headers: %v", hd)
				}
			}
			for _, hd := range other.all() {
				for k, vs := range hd {
					for _, v := range vs {
						if strings.Contains(v, token) || strings.Contains(v, apiKey) {
							t.Errorf("the other origin received the secret in %s: %s", k, v)
						}
					}
				}
			}
		})
	}
}

// TestHeadersOnlyToConfiguredOrigin checks the transport on its own: the
// headers go to the configured scheme, host and port and nowhere else.
func TestHeadersOnlyToConfiguredOrigin(t *testing.T) {
	var got []string
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = append(got, r.URL.String()+" "+r.Header.Get("X-Key"))
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
	})
	tr, err := newHeaderTransport(base, "https://mcp.example.com/mcp", map[string]string{"X-Key": "v"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		url  string
		want string
	}{
		{"https://mcp.example.com/mcp", "v"},
		{"https://MCP.example.com:443/other", "v"},
		{"http://mcp.example.com/mcp", ""},
		{"https://mcp.example.com:8443/mcp", ""},
		{"https://evil.example.com/mcp", ""},
		{"https://mcp.example.com.evil.net/mcp", ""},
	}
	for _, tt := range tests {
		got = nil
		req, _ := http.NewRequest(http.MethodGet, tt.url, nil)
		if _, err := tr.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		if want := tt.url + " " + tt.want; len(got) != 1 || got[0] != want {
			t.Errorf("%s: sent %v, want %q", tt.url, got, want)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
