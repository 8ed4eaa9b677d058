package gate

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// Host is one network host a call would reach, as the gate read it from
// the arguments: a URL a web tool fetches, or the address a network
// program on a command line connects to.
type Host struct {
	// Name identifies the host for "allow this host for the chat": the
	// lower-case name or address, with ":port" when the address names a
	// port other than its scheme's default (see HostKey).
	Name string `json:"name"`
	// URL is the full address as the call gives it, with its query: what
	// the person must see before anything leaves.
	URL string `json:"url"`
}

// HostKey is the key a raw URL (or "host:port", or a bare host name) is
// remembered under: the lower-case host without a trailing dot, and
// ":port" when a port is given that is not the default of the URL's scheme
// (80 for http, 443 for https). "" when no host can be read from it.
func HostKey(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	if strings.Contains(raw, "://") {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return ""
		}
		return joinKey(u.Hostname(), u.Port(), defaultPort(u.Scheme))
	}
	host, port, err := net.SplitHostPort(raw)
	if err != nil {
		host, port = strings.Trim(raw, "[]"), ""
	}
	if host == "" || strings.ContainsAny(host, "/ @?#") {
		return ""
	}
	return joinKey(host, port, "")
}

func joinKey(host, port, def string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if ascii, ok := asciiHost(host); ok {
		host = ascii
	} else {
		return ""
	}
	if ip, ok := numericIPv4(host); ok {
		host = ip
	}
	if host == "" || strings.HasPrefix(host, ".") || strings.HasPrefix(host, "-") || !strings.ContainsAny(host, "abcdefghijklmnopqrstuvwxyz0123456789:") ||
		strings.ContainsAny(host, "/\\ @?#") {
		return ""
	}
	if port == "" || port == def {
		return host
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

// asciiHost is an internationalised host name in its ASCII (xn--) form,
// as DNS sees it, so that a look-alike (Cyrillic і in gіthub.com) does
// not read as the host the person trusts on a card or in "allow this
// host"; an ASCII name is returned as it is. ok is false when the name
// cannot be converted.
func asciiHost(host string) (string, bool) {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			a, err := idna.Punycode.ToASCII(host)
			if err != nil || a == "" {
				return "", false
			}
			return strings.ToLower(a), true
		}
	}
	return host, true
}

// numericIPv4 reads the other spellings of an IPv4 address that curl,
// browsers and inet_aton accept as the dotted one: a single number
// (2130706433), hexadecimal and octal parts (0x7f.0.0.01), fewer than
// four parts (127.1). ok is false for anything else, a dotted address
// included.
func numericIPv4(host string) (string, bool) {
	if host == "" || strings.Trim(host, "0123456789abcdefx.") != "" || !(host[0] >= '0' && host[0] <= '9') {
		return "", false
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		base, digits := 10, p
		switch {
		case strings.HasPrefix(p, "0x"):
			base, digits = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, digits = 8, p[1:]
		}
		if digits == "" && base != 8 {
			return "", false
		}
		n := uint64(0)
		for _, c := range digits {
			d := strings.IndexRune("0123456789abcdef", c)
			if d < 0 || d >= base {
				return "", false
			}
			n = n*uint64(base) + uint64(d)
			if n > 0xffffffff {
				return "", false
			}
		}
		nums[i] = n
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) && len(nums) > 1 {
		return "", false
	}
	var ip uint64
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
		ip = ip<<8 | n
	}
	ip = ip<<(8*(5-len(nums))) | last
	out := fmt.Sprintf("%d.%d.%d.%d", ip>>24&255, ip>>16&255, ip>>8&255, ip&255)
	if out == host {
		return "", false
	}
	return out, true
}

func defaultPort(scheme string) string {
	switch strings.ToLower(scheme) {
	case "http", "ws":
		return "80"
	case "https", "wss":
		return "443"
	case "ftp":
		return "21"
	case "ssh", "sftp", "scp":
		return "22"
	case "rsync":
		return "873"
	case "git":
		return "9418"
	}
	return ""
}

// HostAllowed reports whether a host key (HostKey) is on a list of hosts
// the person allows always: "*" is every host, "*.example.com" its
// subdomains (not example.com itself), "example.com" that host on any
// port, "example.com:8080" that port only.
func HostAllowed(key string, list []string) bool {
	if key == "" {
		return false
	}
	host, port := splitKey(key)
	for _, item := range list {
		item = strings.ToLower(strings.TrimSpace(item))
		switch {
		case item == "":
		case item == "*":
			return true
		case strings.HasPrefix(item, "*."):
			// An internationalised name in the list counts in its xn-- form,
			// as keys are.
			suffix, _ := asciiHost(item[2:])
			if strings.HasSuffix(host, "."+suffix) {
				return true
			}
		default:
			ih, ip := splitKey(item)
			if a, ok := asciiHost(ih); ok {
				ih = a
			}
			if ih == host && (ip == "" || ip == port) {
				return true
			}
		}
	}
	return false
}

// splitKey splits a host key into host and port ("" when none).
func splitKey(key string) (host, port string) {
	if h, p, err := net.SplitHostPort(key); err == nil {
		return strings.ToLower(h), p
	}
	return strings.ToLower(strings.Trim(key, "[]")), ""
}

// urlKeys are argument names whose string values are addresses a tool
// fetches: web_fetch's url, and the like in other tools (an MCP fetch
// server's url, a list of urls, a host to connect to).
var urlKeys = setOf("url", "urls", "uri", "uris", "href", "link", "links", "endpoint", "endpoints", "website", "address",
	"addresses", "host", "hosts", "hostname", "domain", "site", "webhook", "callback", "server_url", "proxy")

// schemeKeys are argument names whose values are a file or an address,
// as system_open's target: only a value with a network scheme (https://)
// is an address.
var schemeKeys = setOf("target", "targets", "location", "open")

// argHosts are the hosts of the URL arguments of a call: every string
// under a key such as url, uri or href (also something_url), at any depth
// of the arguments ({"request":{"url":…}}, {"requests":[{"url":…}]}),
// read as web_fetch reads it (https:// assumed when no scheme is given).
// Only network schemes count: a file: or data: URI reaches no host (a
// mailto: address asks every time instead, see argOpens).
func argHosts(decoded any) []Host {
	all, _ := argStrings(decoded)
	var out []Host
	for _, a := range all {
		lk := strings.ToLower(a.key)
		assume := true
		switch {
		case schemeKeys[lk]:
			assume = false
		case !urlKeys[lk] && !strings.HasSuffix(lk, "_url") && !strings.HasSuffix(lk, "url") && !strings.HasSuffix(lk, "_uri"):
			continue
		}
		if h, ok := urlHost(a.val, assume); ok {
			out = append(out, h)
		}
	}
	return out
}

// networkSchemes reach a host.
var networkSchemes = setOf("http", "https", "ws", "wss", "ftp", "ftps", "sftp", "scp", "ssh", "rsync", "git", "telnet", "ldap", "ldaps", "smb", "gopher", "dict", "tftp", "imap", "imaps", "pop3", "pop3s", "smtp", "smtps", "mqtt")

// urlHost reads the host of a URL. With assume, a value without a scheme
// that looks like an address (example.com/x, localhost:8080) is read as
// https:// as web_fetch reads it.
func urlHost(s string, assume bool) (Host, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Host{}, false
	}
	if i := strings.Index(s, "://"); i > 0 {
		if !networkSchemes[strings.ToLower(s[:i])] || strings.ContainsAny(s[:i], " \t\n") {
			return Host{}, false
		}
		// The host ends before any space a computed query holds
		// (https://x/?d=$(cat key)); the URL shown is all of it.
		head := s
		if j := strings.IndexAny(head, " \t\n"); j >= 0 {
			head = head[:j]
		}
		if k := HostKey(head); k != "" {
			return Host{Name: k, URL: s}, true
		}
		return Host{}, false
	}
	if strings.ContainsAny(s, " \t\n") {
		return Host{}, false
	}
	if !assume || !looksLikeAddress(s) {
		return Host{}, false
	}
	u := "https://" + s
	if k := HostKey(u); k != "" {
		return Host{Name: k, URL: u}, true
	}
	return Host{}, false
}

// looksLikeAddress reports whether s, without a scheme, reads as a host
// with an optional port and path: a dotted name, an IP address or
// localhost, as curl and web_fetch take it.
func looksLikeAddress(s string) bool {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~") {
		return false
	}
	host := s
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "" {
		return false
	}
	if net.ParseIP(host) != nil || strings.EqualFold(host, "localhost") {
		return true
	}
	if !strings.Contains(host, ".") || strings.HasSuffix(host, ".") {
		return false
	}
	for _, r := range host {
		if !(r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
			return false
		}
	}
	// A file name such as notes.txt or build.log is not a host: the last
	// label of a host name is not a common file extension.
	last := strings.ToLower(host[strings.LastIndexByte(host, '.')+1:])
	return !fileExtensions[last]
}

// fileExtensions end file names that would otherwise read as host names.
var fileExtensions = setOf("txt", "md", "log", "json", "yaml", "yml", "toml", "csv", "go", "py", "js", "ts", "sh", "c", "h",
	"cpp", "rs", "java", "html", "htm", "xml", "tar", "gz", "tgz", "zip", "png", "jpg", "jpeg", "gif", "pdf", "conf", "cfg",
	"ini", "lock", "mod", "sum", "out", "tmp", "bak", "db", "sqlite", "env", "pem", "key", "crt", "old", "new", "orig", "rej",
	"patch", "diff", "svg", "css", "scss", "vue", "jsx", "tsx", "rb", "pl", "php", "lua", "swift", "kt", "sql", "bin", "exe",
	"so", "o", "a", "deb", "rpm", "whl", "jar", "iso", "img", "xz", "bz2", "7z", "wasm", "lst", "dat", "doc", "docx", "xls",
	"xlsx", "ppt", "pptx", "odt", "rtf", "mp3", "mp4", "wav", "webp", "ico", "ttf", "woff", "woff2", "map", "d", "service")

// dedupeHosts keeps the first of each host name, in order.
func dedupeHosts(hs []Host) []Host {
	seen := map[string]bool{}
	var out []Host
	for _, h := range hs {
		if !seen[h.Name] {
			seen[h.Name] = true
			out = append(out, h)
		}
	}
	return out
}

// CheckHostPattern says why s cannot be an item of a list of always
// allowed hosts (see HostAllowed), or nil: "*", "*.example.com", a host
// name or address, optionally with ":port".
func CheckHostPattern(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return fmt.Errorf("%w: it is empty", ErrBadHostPattern)
	case s == "*":
		return nil
	case strings.Contains(s, "://"):
		return fmt.Errorf("%w: %q: leave out the scheme (http://)", ErrBadHostPattern, s)
	case strings.ContainsAny(s, "/?#"):
		return fmt.Errorf("%w: %q: leave out the path: the host is the part before the first /", ErrBadHostPattern, s)
	case strings.ContainsAny(s, " \t@,"):
		return fmt.Errorf("%w: %q: a host has no spaces, @ or commas", ErrBadHostPattern, s)
	}
	name := strings.TrimPrefix(s, "*.")
	if strings.Contains(name, "*") {
		return fmt.Errorf("%w: %q: a * may only stand alone or start the name, as in *.example.com", ErrBadHostPattern, s)
	}
	if HostKey(name) == "" {
		return fmt.Errorf("%w: %q is not a host name or address", ErrBadHostPattern, s)
	}
	if h, p, err := net.SplitHostPort(name); err == nil {
		if h == "" || strings.Trim(p, "0123456789") != "" || p == "" {
			return fmt.Errorf("%w: %q: the port must be a number", ErrBadHostPattern, s)
		}
	}
	return nil
}
