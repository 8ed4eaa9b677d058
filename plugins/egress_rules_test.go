package plugins

import (
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// The declared list decides a host by name and the address connected to:
// table of entries, targets and addresses.
func TestEgressRules(t *testing.T) {
	cases := []struct {
		hosts []string
		host  string
		port  string
		// addr is what the name resolved to ("" when only the name is
		// decided); wantName and wantAddr say whether each step allows.
		addr               string
		wantName, wantAddr bool
	}{
		{[]string{"api.example.com"}, "api.example.com", "443", "93.184.215.14", true, true},
		{[]string{"api.example.com"}, "API.Example.com.", "443", "93.184.215.14", true, true},
		{[]string{"api.example.com"}, "api.example.com", "443", "127.0.0.1", true, false},
		{[]string{"api.example.com"}, "api.example.com", "443", "10.1.2.3", true, false},
		{[]string{"api.example.com"}, "api.example.com", "443", "::ffff:192.168.1.1", true, false},
		{[]string{"api.example.com"}, "api.example.com", "443", "64:ff9b::7f00:1", true, false},
		{[]string{"api.example.com"}, "api.example.com", "443", "100.64.0.1", true, false},
		{[]string{"api.example.com"}, "api.example.com", "443", "169.254.169.254", true, false},
		{[]string{"api.example.com"}, "api.example.com", "443", "::1", true, false},
		{[]string{"api.example.com"}, "evil.example.com", "443", "", false, false},
		{[]string{"api.example.com"}, "127.0.0.1", "80", "", false, false},
		{[]string{"api.example.com"}, "2130706433", "80", "", false, false},
		{[]string{"*.example.com"}, "a.b.example.com", "443", "93.184.215.14", true, true},
		{[]string{"*.example.com"}, "example.com", "443", "", false, false},
		{[]string{"*.example.com"}, "evilexample.com", "443", "", false, false},
		{[]string{"api.example.com:8443"}, "api.example.com", "443", "", false, false},
		{[]string{"api.example.com:8443"}, "api.example.com", "8443", "93.184.215.14", true, true},
		{[]string{"127.0.0.1:11434"}, "127.0.0.1", "11434", "127.0.0.1", true, true},
		{[]string{"127.0.0.1:11434"}, "127.0.0.1", "11435", "", false, false},
		{[]string{"::1"}, "[::1]", "80", "::1", true, true},
		{[]string{"nas.local", "192.168.1.0/24"}, "nas.local", "443", "192.168.1.20", true, true},
		{[]string{"nas.local", "192.168.1.0/24"}, "nas.local", "443", "192.168.2.20", true, false},
		{[]string{"https://api.example.com/v1"}, "api.example.com", "443", "93.184.215.14", true, true},
		{[]string{"*"}, "anything.example", "1", "127.0.0.1", true, true},
		{nil, "api.example.com", "443", "", false, false},
	}
	for _, tc := range cases {
		e := newEgress("probe", tc.hosts, nil, nil)
		byName, err := e.allowName(tc.host, tc.port)
		if (err == nil) != tc.wantName {
			t.Errorf("%v: %s:%s by name: %v; want allowed %v", tc.hosts, tc.host, tc.port, err, tc.wantName)
			continue
		}
		if err != nil {
			if !errors.Is(err, sdk.ErrHostNotAllowed) || !strings.Contains(err.Error(), "capability probe may not connect") {
				t.Errorf("refusal %q does not wrap ErrHostNotAllowed or name the capability", err)
			}
			continue
		}
		if tc.addr == "" {
			continue
		}
		err = e.checkAddress(tc.host, byName, net.JoinHostPort(netip.MustParseAddr(tc.addr).String(), tc.port))
		if (err == nil) != tc.wantAddr {
			t.Errorf("%v: %s resolving to %s: %v; want allowed %v", tc.hosts, tc.host, tc.addr, err, tc.wantAddr)
		}
	}
}

// The declared entries come from SKILL.md: any text parses without
// panicking, and an entry that parses is a name or an address range.
func FuzzParseHostRule(f *testing.F) {
	for _, s := range []string{"api.example.com", "*.example.com", "10.0.0.0/8", "[::1]:80", "https://x.example/y", "*", "", "a b", "::ffff:1.2.3.4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := parseHostRule(s)
		if !ok {
			return
		}
		if (r.name == "") == !r.prefix.IsValid() {
			t.Fatalf("%q: rule %+v is neither a name nor an address", s, r)
		}
		e := newEgress("probe", []string{s}, nil, nil)
		_, _ = e.allowName("api.example.com", "443")
		_, _ = e.allowName("127.0.0.1", "80")
	})
}
