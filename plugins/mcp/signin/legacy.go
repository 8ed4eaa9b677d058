package signin

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// legacyMetadataPath is where a server of the 2025-03-26 spec, which
// publishes no protected-resource metadata, serves its authorization
// server's metadata: at the root of its own origin.
const legacyMetadataPath = "/.well-known/oauth-authorization-server"

// maxMetadata bounds a metadata document read.
const maxMetadata = 1 << 20

// oauthTransport is the transport of the OAuth requests. It does two
// things the SDK and x/oauth2 leave out.
//
// A refresh carries the resource parameter (RFC 8707) as the code
// exchange did: the MCP spec asks for it in every token request, and
// x/oauth2 has no way to add it.
//
// And it lets one thing through that RFC 8414's issuer check refuses and
// servers of the 2025-03-26 spec do: metadata at the root of the MCP server's own origin
// naming an issuer on a path of that same origin (issuer
// https://mcp.example/oauth, served at
// https://mcp.example/.well-known/oauth-authorization-server). The
// issuer is then taken to be the origin, which is what the SDK expects;
// metadata of any other origin, or naming another origin, is passed on
// unchanged and checked as RFC 8414 says.
type oauthTransport struct {
	base http.RoundTripper
	// root is the MCP server's origin as the SDK writes the issuer
	// (scheme://host[:port]); origin its normalised form.
	root, origin string

	mu sync.Mutex
	// renamed maps an issuer a document named to root.
	renamed map[string]bool
	// resource is the resource parameter of the last code exchange.
	resource string
}

func (t *oauthTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && r.Body != nil &&
		strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		var err error
		if r, err = t.tokenRequest(r); err != nil {
			return nil, err
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || resp.StatusCode != http.StatusOK ||
		r.URL.Path != legacyMetadataPath || originOf(r.URL) != t.origin {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var meta map[string]json.RawMessage
	if len(body) > maxMetadata || json.Unmarshal(body, &meta) != nil {
		return resp, nil
	}
	var issuer string
	if json.Unmarshal(meta["issuer"], &issuer) != nil {
		return resp, nil
	}
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || originOf(u) != t.origin || issuer == t.root || issuer == t.root+"/" {
		return resp, nil
	}
	meta["issuer"], _ = json.Marshal(t.root)
	out, err := json.Marshal(meta)
	if err != nil {
		return resp, nil
	}
	t.mu.Lock()
	if t.renamed == nil {
		t.renamed = map[string]bool{}
	}
	t.renamed[issuer] = true
	t.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header = resp.Header.Clone()
	resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return resp, nil
}

// iss maps an authorization response's iss (RFC 9207) as the metadata
// was mapped: a renamed issuer is the origin.
func (t *oauthTransport) iss(v string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.renamed[v] {
		return t.root
	}
	return v
}

// tokenRequest notes the resource of a code exchange and adds it to a
// refresh that lacks one.
func (t *oauthTransport) tokenRequest(r *http.Request) (*http.Request, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxMetadata+1))
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	form, perr := url.ParseQuery(string(body))
	t.mu.Lock()
	switch {
	case perr != nil || len(body) > maxMetadata:
	case form.Get("grant_type") == "authorization_code" && form.Get("resource") != "":
		t.resource = form.Get("resource")
	case form.Get("grant_type") == "refresh_token" && form.Get("resource") == "" && t.resource != "":
		form.Set("resource", t.resource)
		body = []byte(form.Encode())
	}
	t.mu.Unlock()
	r = r.Clone(r.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return r, nil
}

// setResource and resourceOf carry the resource through the stored
// record, for refreshes in a later process.
func (t *oauthTransport) setResource(v string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.resource == "" {
		t.resource = v
	}
}

func (t *oauthTransport) resourceOf() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.resource
}
