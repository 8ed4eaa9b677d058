package plugins

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/smtp"
	"net/textproto"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"time"

	"crypto/tls"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// A plugin that does not ship with Wrasse and may use the network reaches
// it only through the library functions below, which take the place of
// the standard ones in its interpreter (and, in its own process, of
// http.DefaultTransport itself). Each connection is held, when it is made,
// to the hosts the plugin's SKILL.md declares:
//
//   - by name: the host a request or dial names must be declared (a name,
//     "*.domain", an address or a range, each with an optional port);
//   - by address: the address actually connected to (after name
//     resolution, at every redirect) must be public, unless the declared
//     list names that address or a range holding it, so a declared name
//     that resolves to 127.0.0.1 or 10.0.0.5 reaches nothing;
//   - by conversation: the first time a tool call reaches a host, the
//     call's own check (sdk.CheckHost) decides, and every write on a
//     connection kept from an earlier call asks again for the new call.
//
// What cannot be held to the list this way (a dialer, transport or
// resolver of the plugin's own, packet sockets) the checker refuses
// unless the plugin declares any host (network: ["*"]); see
// limitedNetSymbols.

// hostRule is one entry of a plugin's declared hosts.
type hostRule struct {
	// name is a lower-case host name ("" for an address rule); with
	// suffix it is ".domain" and matches every name beneath it.
	name   string
	suffix bool
	// prefix is an address (a single-address prefix) or a range.
	prefix netip.Prefix
	// port is "" for any port.
	port string
}

// parseHostRule reads one declared host: api.example.com,
// *.example.com, api.example.com:8443, 10.0.0.5, [::1]:8080,
// 192.168.0.0/16, or a URL whose host is taken.
func parseHostRule(s string) (hostRule, bool) {
	s = strings.TrimSpace(s)
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
		if i := strings.IndexAny(s, "/?#"); i >= 0 {
			s = s[:i]
		}
	}
	if p, err := netip.ParsePrefix(s); err == nil {
		return hostRule{prefix: p.Masked()}, true
	}
	host, port := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		host, port = h, p
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "" {
		return hostRule{}, false
	}
	if a, err := netip.ParseAddr(host); err == nil {
		a = a.Unmap()
		return hostRule{prefix: netip.PrefixFrom(a, a.BitLen()), port: port}, true
	}
	host = strings.ToLower(host)
	if rest, ok := strings.CutPrefix(host, "*."); ok && rest != "" {
		return hostRule{name: "." + rest, suffix: true, port: port}, true
	}
	if strings.ContainsAny(host, "*/ ") {
		return hostRule{}, false
	}
	return hostRule{name: host, port: port}, true
}

func (r hostRule) portOK(port string) bool { return r.port == "" || r.port == port }

// egress holds one plugin's connections to its declared hosts and asks
// the running call's check about each new host.
type egress struct {
	capability string
	anyHost    bool
	rules      []hostRule
	// declared is the list as written, for messages.
	declared string
	// files allows unix sockets: they are files, which the files
	// permission governs, not the host list; each must lie in the
	// plugin's folders (files.Roots) and not be protected (nil without
	// the files permission).
	files *sdk.Env
	// ask is the running call's check: sdk.CheckHost in process, a
	// question to the host process in a plugin process.
	ask func(scope context.Context, target string) error
	// transport and client are what the plugin gets for
	// http.DefaultTransport and http.DefaultClient.
	transport *http.Transport
	client    *http.Client

	mu sync.Mutex
	// scope is the context of the call (or load) running; nil between.
	scope context.Context
	// admitted are the hosts scope's check allowed.
	admitted map[string]bool
}

// newEgress makes the network of a plugin declaring hosts ("*" = any);
// files holds its folders and the protected paths when it has the files
// permission (nil without).
func newEgress(capability string, hosts []string, files *sdk.Env, ask func(context.Context, string) error) *egress {
	e := &egress{capability: capability, files: files, ask: ask, declared: strings.Join(hosts, ", ")}
	for _, h := range hosts {
		if strings.TrimSpace(h) == "*" {
			e.anyHost = true
			continue
		}
		if r, ok := parseHostRule(h); ok {
			e.rules = append(e.rules, r)
		}
	}
	if e.declared == "" {
		e.declared = "none"
	}
	base := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	// As http.DefaultTransport, without a proxy: a proxy would be a host
	// of its own, reached for every request.
	e.transport = &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return e.dial(ctx, base, network, addr)
		},
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	e.client = &http.Client{Transport: checkedRoundTripper{e: e, base: e.transport}}
	return e
}

// enter makes ctx the running call (or load) until the returned function
// is called; hosts admitted for an earlier call are asked about again.
func (e *egress) enter(ctx context.Context) (leave func()) {
	e.mu.Lock()
	prevScope, prevAdmitted := e.scope, e.admitted
	e.scope, e.admitted = ctx, map[string]bool{}
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		if e.scope == ctx {
			e.scope, e.admitted = prevScope, prevAdmitted
		}
		e.mu.Unlock()
	}
}

// refusal is the error of a connection the rules do not allow.
func (e *egress) refusal(format string, args ...any) error {
	return fmt.Errorf("%w: capability %s %s", sdk.ErrHostNotAllowed, e.capability, fmt.Sprintf(format, args...))
}

// hostKey is a host as admitted: lower case, without brackets or a
// final dot.
func hostKey(host string) string {
	return strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
}

// allowName decides a host and port by the declared list. byName is true
// when a declared name (not an address) allowed it: the address it
// resolves to must then be public.
func (e *egress) allowName(host, port string) (byName bool, err error) {
	if e.anyHost {
		return true, nil
	}
	h := hostKey(host)
	if a, perr := netip.ParseAddr(h); perr == nil {
		a = a.Unmap()
		for _, r := range e.rules {
			if r.name == "" && r.prefix.Contains(a) && r.portOK(port) {
				return false, nil
			}
		}
		return false, e.refusal("may not connect to %s: the address is not among the hosts its SKILL.md declares under permissions: network (%s)", net.JoinHostPort(h, port), e.declared)
	}
	for _, r := range e.rules {
		if r.name == "" || !r.portOK(port) {
			continue
		}
		if (!r.suffix && h == r.name) || (r.suffix && strings.HasSuffix(h, r.name)) {
			return true, nil
		}
	}
	return false, e.refusal("may not connect to %s: it is not among the hosts its SKILL.md declares under permissions: network (%s)", net.JoinHostPort(h, port), e.declared)
}

// checkAddress decides the address a connection is about to be made to
// (the dialer's Control hook), after name resolution: a declared range
// holding it, or a public address reached by a declared name.
func (e *egress) checkAddress(host string, byName bool, address string) error {
	if e.anyHost {
		return nil
	}
	h, port, err := net.SplitHostPort(address)
	if err != nil {
		return e.refusal("may not connect to %s: %v", address, err)
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return e.refusal("may not connect to %s: not an address", address)
	}
	a = a.Unmap()
	for _, r := range e.rules {
		if r.name == "" && r.prefix.Contains(a) && r.portOK(port) {
			return nil
		}
	}
	kind := addressKind(a)
	if byName && kind == "" {
		return nil
	}
	if kind == "" {
		kind = "undeclared"
	}
	return e.refusal("may not connect to %s: it resolves to %s, a %s address, and a plugin reaches loopback, private and other local addresses only when its SKILL.md names them (permissions: network: [%s])",
		net.JoinHostPort(hostKey(host), port), a, kind, a)
}

// localRanges are address ranges that are not the public internet but
// that netip's predicates do not cover.
var localRanges = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // this network
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
}

// addressKind names what kind of non-public address a is ("" when it is
// public). A NAT64 address is judged by the IPv4 address it carries.
func addressKind(a netip.Addr) string {
	a = a.Unmap()
	if nat64 := netip.MustParsePrefix("64:ff9b::/96"); nat64.Contains(a) {
		b := a.As16()
		return addressKind(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	}
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	}
	for _, p := range localRanges {
		if p.Contains(a) {
			return "reserved"
		}
	}
	return ""
}

// admit asks the running call's check about host, once per call: target
// is what it is shown (a URL, or host:port).
func (e *egress) admit(host, target string) error {
	e.mu.Lock()
	scope, ok := e.scope, e.admitted[host]
	e.mu.Unlock()
	if ok {
		return nil
	}
	if scope == nil {
		return e.refusal("may not reach %s outside a tool call: a plugin reaches the network only while one of its calls runs", target)
	}
	if err := e.ask(scope, target); err != nil {
		return err
	}
	e.mu.Lock()
	if e.scope == scope {
		e.admitted[host] = true
	}
	e.mu.Unlock()
	return nil
}

// dial opens a connection held to the rules: base (a copy; nil for the
// defaults) with the address check in front of its own Control hooks.
func (e *egress) dial(ctx context.Context, base *net.Dialer, network, addr string) (net.Conn, error) {
	var d net.Dialer
	if base != nil {
		d = *base
	}
	switch network {
	case "unix", "unixgram", "unixpacket":
		if err := e.socketAllowed(addr); err != nil {
			return nil, err
		}
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if err := e.peerAllowed(conn, addr); err != nil {
			conn.Close()
			return nil, err
		}
		return conn, nil
	case "tcp", "tcp4", "tcp6", "udp", "udp4", "udp6":
	default:
		return nil, e.refusal("may not open a %q connection: plugins connect over TCP or UDP", network)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s %s: %w", network, addr, err)
	}
	byName, err := e.allowName(host, port)
	if err != nil {
		return nil, err
	}
	key := hostKey(host)
	if err := e.admit(key, net.JoinHostPort(key, port)); err != nil {
		return nil, err
	}
	prevCtx, prev := d.ControlContext, d.Control
	d.Control = nil
	d.ControlContext = func(ctx context.Context, network, address string, c syscall.RawConn) error {
		if err := e.checkAddress(host, byName, address); err != nil {
			return err
		}
		if prevCtx != nil {
			return prevCtx(ctx, network, address, c)
		}
		if prev != nil {
			return prev(network, address, c)
		}
		return nil
	}
	conn, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &egressConn{Conn: conn, e: e, host: key, target: net.JoinHostPort(key, port)}, nil
}

// socketAllowed decides a unix socket a plugin would connect to or
// listen on: it is a file, so it must lie in the plugin's folders and not
// be protected, links resolved, as for any file it touches (sdk.Permit).
// Landlock does not govern connect(2) to a socket file, so without this
// a plugin granted one folder reaches every local service by its socket
// (a Docker daemon, an SSH agent, Wrasse's own control socket). An
// abstract socket has no file: none is allowed.
func (e *egress) socketAllowed(addr string) error {
	if e.files == nil {
		return e.refusal("may not use the unix socket %s: a socket is a file and needs the files permission", addr)
	}
	if addr == "" || addr[0] == '@' || addr[0] == 0 || !filepath.IsAbs(addr) {
		return e.refusal("may not use the unix socket %q: only a socket file in its folders, named by its absolute path", addr)
	}
	if _, err := e.files.Permit(addr, true); err != nil {
		return fmt.Errorf("%w: capability %s may not use the unix socket %s: %w", sdk.ErrHostNotAllowed, e.capability, addr, err)
	}
	return nil
}

// peerAllowed decides, once connected and before anything is sent, the
// socket actually reached: the address the peer bound (getpeername), which
// a symbolic link swapped in after socketAllowed cannot change.
func (e *egress) peerAllowed(conn net.Conn, addr string) error {
	peer := ""
	if a := conn.RemoteAddr(); a != nil {
		peer = a.String()
	}
	if peer == "" || !filepath.IsAbs(peer) {
		return e.refusal("may not use the unix socket %s: the socket reached has no file name (%q)", addr, peer)
	}
	if peer != addr {
		if err := e.socketAllowed(peer); err != nil {
			return fmt.Errorf("%s reaches %s: %w", addr, peer, err)
		}
	}
	return nil
}

// listen is net.Listen for a plugin: a TCP listener serves any host of
// the network, so only a plugin declaring any host (network: ["*"]) may
// open one; a unix socket must lie in its folders.
func (e *egress) listen(network, address string) (net.Listener, error) {
	switch network {
	case "unix", "unixpacket":
		if err := e.socketAllowed(address); err != nil {
			return nil, err
		}
	case "tcp", "tcp4", "tcp6":
		if !e.anyHost {
			return nil, e.refusal("may not listen on %s: a listener serves any host that connects, and its SKILL.md declares only the hosts it connects to (permissions: network: [%s]); to serve, declare any host (network: [\"*\"])", address, e.declared)
		}
	default:
		return nil, e.refusal("may not listen on a %q socket: plugins listen on TCP (with any host declared) or a unix socket in their folders", network)
	}
	return net.Listen(network, address)
}

// egressConn is a connection made by dial: every write asks the running
// call's check first (once per call), so a connection kept from an
// earlier call sends nothing the new call's conversation did not allow.
type egressConn struct {
	net.Conn
	e            *egress
	host, target string
}

func (c *egressConn) Write(b []byte) (int, error) {
	if err := c.e.admit(c.host, c.target); err != nil {
		return 0, err
	}
	return c.Conn.Write(b)
}

// checkedRoundTripper decides each request by its URL before the
// transport dials (redirects included: the client sends each one here),
// so a refusal names the URL and the check is shown a URL.
type checkedRoundTripper struct {
	e    *egress
	base http.RoundTripper
}

func (t checkedRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL == nil {
		return t.base.RoundTrip(r)
	}
	port := r.URL.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[r.URL.Scheme]
	}
	if _, err := t.e.allowName(r.URL.Hostname(), port); err != nil {
		closeBody(r)
		return nil, err
	}
	shown := url.URL{Scheme: r.URL.Scheme, Host: r.URL.Host, Path: r.URL.Path}
	if err := t.e.admit(hostKey(r.URL.Hostname()), shown.String()); err != nil {
		closeBody(r)
		return nil, err
	}
	return t.base.RoundTrip(r)
}

// closeBody closes a request's body, as a RoundTripper must even when it
// fails.
func closeBody(r *http.Request) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
}

// callCheck is the running call's check (sdk.CheckHost). Its bare
// refusal, which is also what a call without a check gets, is said in
// full.
func callCheck(ctx context.Context, target string) error {
	err := sdk.CheckHost(ctx, target)
	if err == sdk.ErrHostNotAllowed {
		return fmt.Errorf("%w: %s: the call's host check refused it (a call with no check installed is refused)", err, target)
	}
	return err
}

// tlsDial is tls.DialWithDialer over dial.
func (e *egress) tlsDial(d *net.Dialer, network, addr string, cfg *tls.Config) (*tls.Conn, error) {
	if d == nil {
		d = &net.Dialer{}
	}
	ctx := context.Background()
	timeout := d.Timeout
	if !d.Deadline.IsZero() {
		if left := time.Until(d.Deadline); timeout == 0 || left < timeout {
			timeout = left
		}
	}
	if timeout != 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	raw, err := e.dial(ctx, d, network, addr)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		host, _, _ := net.SplitHostPort(addr)
		cfg.ServerName = host
	}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	return conn, nil
}

// symbols are the library functions and variables that take the place of
// the standard ones in the plugin's interpreter, by Exports key.
func (e *egress) symbols() map[string]map[string]reflect.Value {
	transport := reflect.New(reflect.TypeFor[http.RoundTripper]()).Elem()
	transport.Set(reflect.ValueOf(http.RoundTripper(e.transport)))
	client := reflect.New(reflect.TypeFor[*http.Client]()).Elem()
	client.Set(reflect.ValueOf(e.client))
	return map[string]map[string]reflect.Value{
		"net/net": {
			"Dial": reflect.ValueOf(func(network, address string) (net.Conn, error) {
				return e.dial(context.Background(), nil, network, address)
			}),
			"DialTimeout": reflect.ValueOf(func(network, address string, timeout time.Duration) (net.Conn, error) {
				return e.dial(context.Background(), &net.Dialer{Timeout: timeout}, network, address)
			}),
			"DialUnix": reflect.ValueOf(func(network string, laddr, raddr *net.UnixAddr) (*net.UnixConn, error) {
				if raddr == nil {
					return nil, e.refusal("may not use a unix socket without an address")
				}
				if err := e.socketAllowed(raddr.Name); err != nil {
					return nil, err
				}
				conn, err := net.DialUnix(network, laddr, raddr)
				if err != nil {
					return nil, err
				}
				if err := e.peerAllowed(conn, raddr.Name); err != nil {
					conn.Close()
					return nil, err
				}
				return conn, nil
			}),
			"Listen": reflect.ValueOf(e.listen),
		},
		"net/http/http": {
			"DefaultTransport": transport,
			"DefaultClient":    client,
			"Get":              reflect.ValueOf(func(u string) (*http.Response, error) { return e.client.Get(u) }),
			"Head":             reflect.ValueOf(func(u string) (*http.Response, error) { return e.client.Head(u) }),
			"Post": reflect.ValueOf(func(u, contentType string, body io.Reader) (*http.Response, error) {
				return e.client.Post(u, contentType, body)
			}),
			"PostForm": reflect.ValueOf(func(u string, data url.Values) (*http.Response, error) { return e.client.PostForm(u, data) }),
		},
		"crypto/tls/tls": {
			"Dial": reflect.ValueOf(func(network, addr string, cfg *tls.Config) (*tls.Conn, error) {
				return e.tlsDial(nil, network, addr, cfg)
			}),
			"DialWithDialer": reflect.ValueOf(e.tlsDial),
		},
		"net/smtp/smtp": {
			"Dial": reflect.ValueOf(func(addr string) (*smtp.Client, error) {
				conn, err := e.dial(context.Background(), nil, "tcp", addr)
				if err != nil {
					return nil, err
				}
				host, _, _ := net.SplitHostPort(addr)
				return smtp.NewClient(conn, host)
			}),
		},
		"net/textproto/textproto": {
			"Dial": reflect.ValueOf(func(network, addr string) (*textproto.Conn, error) {
				conn, err := e.dial(context.Background(), nil, network, addr)
				if err != nil {
					return nil, err
				}
				return textproto.NewConn(conn), nil
			}),
		},
	}
}

// limitedNetSymbols are what a plugin declaring a list of hosts (not "*")
// may not use, since a connection through them would not be held to the
// list: why, said after the symbol's name, and what to use instead.
var limitedNetSymbols = map[string]string{
	"net.Dialer":                 "dials without Wrasse's host check; use net.Dial or net.DialTimeout",
	"net.ListenConfig":           "opens packet sockets that send to any address; use net.Dial",
	"net.Resolver":               lookupWhy,
	"net.DefaultResolver":        lookupWhy,
	"net.LookupAddr":             lookupWhy,
	"net.LookupCNAME":            lookupWhy,
	"net.LookupHost":             lookupWhy,
	"net.LookupIP":               lookupWhy,
	"net.LookupMX":               lookupWhy,
	"net.LookupNS":               lookupWhy,
	"net.LookupSRV":              lookupWhy,
	"net.LookupTXT":              lookupWhy,
	"net.ResolveIPAddr":          lookupWhy,
	"net.ResolveTCPAddr":         lookupWhy,
	"net.ResolveUDPAddr":         lookupWhy,
	"net.DialIP":                 "dials an address without Wrasse's host check; use net.Dial with the host's name",
	"net.DialTCP":                "dials an address without Wrasse's host check; use net.Dial with the host's name",
	"net.DialUDP":                "dials an address without Wrasse's host check; use net.Dial(\"udp\", …) with the host's name",
	"net.ListenPacket":           packetWhy,
	"net.ListenUDP":              packetWhy,
	"net.ListenIP":               packetWhy,
	"net.ListenMulticastUDP":     packetWhy,
	"net.ListenUnixgram":         "opens a datagram socket that sends to any unix socket of the machine (WriteToUnix); use net.Dial(\"unixgram\", …) with a socket in its folders",
	"net.ListenTCP":              listenWhy,
	"net.ListenUnix":             "listens without Wrasse's check of the socket's folder; use net.Listen(\"unix\", …)",
	"net.FileListener":           listenWhy,
	"net/http.ListenAndServe":    listenWhy,
	"net/http.ListenAndServeTLS": listenWhy,
	"net/http.Server":            "listens (ListenAndServe) and serves any host that connects; a plugin that declares its hosts connects to them, it does not serve",
	"crypto/tls.Dialer":          "dials without Wrasse's host check; use tls.Dial or tls.DialWithDialer",
	"net/http.Transport":         "dials without Wrasse's host check when a plugin builds its own; use http.DefaultClient, http.Get or an &http.Client{} without a Transport",
	"net/smtp.SendMail":          "dials without Wrasse's host check; use smtp.Dial and the client's methods",
}

const (
	lookupWhy = "looks names up itself, sending any name to the name servers; dial the host by its name instead"
	packetWhy = "opens a packet socket that sends to any address (WriteTo); use net.Dial(\"udp\", …)"
	listenWhy = "listens for connections from any host, which a list of hosts to connect to does not cover"
)
