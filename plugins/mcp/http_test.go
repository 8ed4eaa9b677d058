package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// TestStreamableHTTPWithSecretHeader runs the SDK's own streamable HTTP
// server, which answers only with the right Authorization header, and a
// capability whose header takes the token from a stored secret.
func TestStreamableHTTPWithSecretHeader(t *testing.T) {
	const token = "s3cr3t-token-value"
	srv := sdk.NewServer(&sdk.Implementation{Name: "http-test", Version: "1"}, nil)
	standardTools(nil, nil)(srv)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()

	ws := t.TempDir()
	writeCap(t, ws, "remote", "---\nname: remote\ndescription: A remote server.\nmcp:\n  url: "+ts.URL+"/mcp\n  headers: {Authorization: 'Bearer ${secret:remote_token}'}\n---\n")
	secrets := map[string]string{"remote_token": token}
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
	approveAll(t, reg)
	defer reg.Close()
	if err := reg.Start(context.Background(), "remote"); err != nil {
		t.Fatal(err)
	}
	res, err := reg.Call(context.Background(), nil, "remote__echo", []byte(`{"message":"over http"}`))
	if err != nil || res.Content != "Echo: over http" {
		t.Fatalf("call = %+v, %v", res, err)
	}
	if c, _ := reg.Get("remote"); strings.Contains(c.Launch(), token) {
		t.Errorf("Launch shows the secret: %s", c.Launch())
	}

	// A wrong secret: the server refuses, the error names the server and
	// never shows the value.
	secrets["remote_token"] = "wrong-value"
	c, _ := reg.Get("remote")
	_, err = loader.Probe(context.Background(), cerebellum.LoadRequest{Capability: c, Workspace: ws})
	if !errors.Is(err, ErrConnect) || !strings.Contains(err.Error(), "MCP server remote") || strings.Contains(err.Error(), "wrong-value") {
		t.Errorf("probe with a wrong secret: %v", err)
	}
	// No secret stored: says which one to set.
	delete(secrets, "remote_token")
	_, err = loader.Probe(context.Background(), cerebellum.LoadRequest{Capability: c, Workspace: ws})
	if !errors.Is(err, ErrSecret) || !strings.Contains(err.Error(), "remote_token") {
		t.Errorf("probe without the secret: %v", err)
	}
}
