package provider

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects is how many redirects within the origin are followed, as
// net/http's default.
const maxRedirects = 10

// SameOriginRedirects returns a copy of c whose redirects stay at base's
// origin (scheme, host and port): a redirect elsewhere fails with
// ErrCrossOriginRedirect instead of being followed. net/http drops only
// Authorization and cookies on a redirect to another host, and keeps
// even those for the same host name at another port or scheme; a key
// sent in another header (Anthropic's x-api-key) would follow a redirect
// anywhere, and a 307 or 308 carries the whole request body, the
// conversation, with it. Every provider that sends a key builds its
// client with this (openai-go refuses other origins itself).
func SameOriginRedirects(c *http.Client, base *url.URL) *http.Client {
	out := *c
	origin, then := OriginOf(base), c.CheckRedirect
	out.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if to := OriginOf(req.URL); to != origin {
			return fmt.Errorf("%w: %s answered with a redirect to %s; the API key and the conversation go only to %s (set the base URL to the new address if the service moved)",
				ErrCrossOriginRedirect, via[0].URL.Redacted(), req.URL.Redacted(), origin)
		}
		if then != nil {
			return then(req, via)
		}
		if len(via) >= maxRedirects {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &out
}

// OriginOf is u's scheme://host:port, lower-cased, the scheme's default
// port filled in.
func OriginOf(u *url.URL) string {
	scheme, port := strings.ToLower(u.Scheme), u.Port()
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
