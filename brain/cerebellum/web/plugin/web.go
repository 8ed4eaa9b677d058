// Package web is the plugin of the built-in web capability: web_fetch
// downloads a page over HTTP(S) from an allowed host and returns readable
// text (HTML converted to Markdown-ish text, JSON pretty-printed). Every
// request, each redirect too, asks sdk.CheckHost whether the conversation
// may reach its host.
//
// The source is interpreted by yaegi at run time: no goroutines, no
// package-level mutable state (compiled regexps only), stdlib and the SDK
// only. The HTML conversion is a pipeline of whole-document regexp passes
// rather than a per-token loop, because the interpreter is slow at loops.
package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

const (
	defaultMaxBytes = 60000
	maxMaxBytes     = 400000
	downloadLimit   = 8 << 20
	// maxHTML bounds the converter's input: its regexp passes cost about a
	// second per MiB on hostile markup.
	maxHTML      = 2 << 20
	fetchTimeout = 30 * time.Second
	maxRedirects = 5
	userAgent    = "Wrasse/1.0 (desktop assistant; +https://github.com/wrasse-app/wrasse)"
)

// fetcher holds the HTTP client built in Init.
type fetcher struct {
	env    *sdk.Env
	client *http.Client
}

// Init registers web_fetch.
func Init(env *sdk.Env) (*sdk.Plugin, error) {
	f := &fetcher{env: env}
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           f.dialer(dialer),
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 20 * time.Second,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
	}
	f.client = &http.Client{
		Transport: transport,
		Timeout:   fetchTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("stopped after %d redirects", maxRedirects)
			}
			if err := f.checkURL(req.URL); err != nil {
				return err
			}
			// A redirect may lead to a host the conversation has not used:
			// the person decides, seeing where it leads.
			if err := sdk.CheckHost(req.Context(), req.URL.String()); err != nil {
				return fmt.Errorf("the redirect to %s was not allowed: %w", req.URL.String(), err)
			}
			return nil
		},
	}
	p := sdk.NewPlugin()
	p.Handle("web_fetch", f.fetch)
	p.OnClose(func() error {
		transport.CloseIdleConnections()
		return nil
	})
	return p, nil
}

// allowed reports whether host is in env.Hosts: "*" means any public host,
// "*.example.com" any subdomain, anything else an exact name.
func (f *fetcher) allowed(host string) bool {
	if f.env.AllowsHost(host) {
		return true
	}
	for _, h := range f.env.Hosts {
		if strings.HasPrefix(h, "*.") && strings.HasSuffix(strings.ToLower(host), strings.ToLower(h[1:])) {
			return true
		}
	}
	return false
}

// listed reports whether host is named explicitly (not through "*"); only
// then may it resolve to a private or loopback address.
func (f *fetcher) listed(host string) bool {
	for _, h := range f.env.Hosts {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

func (f *fetcher) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("only http and https URLs can be fetched, not %q", u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("the URL has no host")
	}
	if !f.allowed(u.Hostname()) {
		return fmt.Errorf("host %s is not allowed (allowed: %s); ask the user to allow it in Settings", u.Hostname(), hostList(f.env.Hosts))
	}
	return nil
}

func hostList(h []string) string {
	if len(h) == 0 {
		return "none"
	}
	return strings.Join(h, ", ")
}

// privateIP reports addresses of this machine or its local network, which
// a page on the internet must not be able to reach through the assistant.
func privateIP(ip net.IP) bool {
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast()
}

// dialer checks the resolved address at connect time, so DNS tricks cannot
// turn an allowed name into a private address.
func (f *fetcher) dialer(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return nil, err
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("no address for %s", host)
		}
		for _, ip := range ips {
			if privateIP(ip.IP) && !f.listed(host) {
				return nil, fmt.Errorf("%s resolves to the local or private address %s; list the host explicitly in Settings to allow it", host, ip.IP)
			}
		}
		return d.DialContext(ctx, network, net.JoinHostPort(ips[0].IP.String(), port))
	}
}

func (f *fetcher) fetch(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {
	raw := strings.TrimSpace(req.String("url", ""))
	if raw == "" {
		return nil, sdk.Errorf("url is empty: pass a full address such as https://example.com/page")
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, sdk.Errorf("%q is not a valid URL: %v", raw, err)
	}
	if err := f.checkURL(u); err != nil {
		return nil, sdk.Errorf("cannot fetch %s: %v", raw, err)
	}
	// Nothing leaves quietly: the conversation must be allowed the host
	// (the host asks the person the first time).
	if err := sdk.CheckHost(ctx, u.String()); err != nil {
		return nil, sdk.Errorf("cannot fetch %s: %v", raw, err)
	}
	maxBytes := req.Int("max_bytes", defaultMaxBytes)
	if maxBytes < 1000 {
		maxBytes = 1000
	}
	if maxBytes > maxMaxBytes {
		maxBytes = maxMaxBytes
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, sdk.Errorf("cannot build a request for %s: %v", raw, err)
	}
	hreq.Header.Set("User-Agent", userAgent)
	hreq.Header.Set("Accept", "text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5")
	hreq.Header.Set("Accept-Language", "en;q=0.8, *;q=0.5")
	resp, err := f.client.Do(hreq)
	if err != nil {
		return nil, sdk.Errorf("fetching %s failed: %v", raw, cleanErr(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, downloadLimit+1))
	if err != nil {
		return nil, sdk.Errorf("reading %s failed: %v", raw, cleanErr(err))
	}
	cut := len(body) > downloadLimit
	if cut {
		body = body[:downloadLimit]
	}
	ctype := resp.Header.Get("Content-Type")
	final := resp.Request.URL.String()
	text, title, kind := render(body, ctype, final)

	var b strings.Builder
	b.WriteString("URL: " + final + "\n")
	b.WriteString("Status: " + resp.Status + "\n")
	if ctype != "" {
		b.WriteString("Content-Type: " + ctype + "\n")
	}
	if title != "" {
		b.WriteString("Title: " + title + "\n")
	}
	if resp.StatusCode >= 400 {
		b.WriteString("Note: the server answered with an error status; the page below is its error page.\n")
	}
	b.WriteString("\n")
	if kind == "binary" {
		b.WriteString(fmt.Sprintf("(%d bytes of %s content, not shown as text)\n", len(body), mediaType(ctype)))
		return sdk.Text(b.String()), nil
	}
	if len(text) > maxBytes {
		total := len(text)
		text = truncateUTF8(text, maxBytes)
		text += fmt.Sprintf("\n\n[... truncated: showing %d of %d bytes of text; pass a larger max_bytes (up to %d) for more ...]", len(text), total, maxMaxBytes)
	} else if cut {
		text += fmt.Sprintf("\n\n[... the download stopped at %d bytes ...]", downloadLimit)
	}
	b.WriteString(text)
	return sdk.Text(b.String()), nil
}

// cleanErr unwraps url.Error's "Get \"...\": " prefix.
func cleanErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func mediaType(ctype string) string {
	mt, _, _ := strings.Cut(ctype, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if mt == "" {
		return "unknown"
	}
	return mt
}

func charset(ctype string) string {
	_, params, _ := strings.Cut(strings.ToLower(ctype), "charset=")
	params, _, _ = strings.Cut(params, ";")
	return strings.Trim(strings.TrimSpace(params), `"'`)
}

// render turns a response body into text by its content type; kind is
// html, json, text or binary.
func render(body []byte, ctype, base string) (text, title, kind string) {
	mt := mediaType(ctype)
	if mt == "unknown" {
		mt = http.DetectContentType(body)
		mt = mediaType(mt)
	}
	s := decode(body, charset(ctype))
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		note := ""
		if len(s) > maxHTML {
			s = truncateUTF8(s, maxHTML)
			note = fmt.Sprintf("\n\n[... only the first %d bytes of the page were converted ...]", maxHTML)
		}
		text, title = htmlToText(s, base)
		return text + note, title, "html"
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(s), "", "  "); err == nil {
			return out.String(), "", "json"
		}
		return s, "", "text"
	case strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+xml") || mt == "application/xml" ||
		mt == "application/javascript" || mt == "application/x-yaml" || mt == "application/yaml":
		return s, "", "text"
	}
	if utf8.Valid(body) && bytes.IndexByte(body, 0) < 0 && len(body) > 0 {
		return s, "", "text"
	}
	return "", "", "binary"
}

// decode converts latin-1 bodies to UTF-8 and drops invalid bytes.
func decode(body []byte, cs string) string {
	if cs == "iso-8859-1" || cs == "latin1" || cs == "windows-1252" || cs == "us-ascii" {
		// A byte loop is slow in the interpreter; bound it.
		if !utf8.Valid(body) && len(body) <= 1<<20 {
			runes := make([]rune, len(body))
			for i, c := range body {
				runes[i] = rune(c)
			}
			return string(runes)
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
