package plugins

import (
	"errors"
	"strings"
	"testing"
)

// TestNetworkLiteralSpellings: a plugin granted network but not files may
// dial only a network it names as a string literal in the network's own
// position, so that a unix socket (the workspace's control socket, a
// Docker daemon) is seen however it is spelt. Every other spelling is
// refused before the plugin runs; a TCP, UDP or IP literal in its place
// loads.
func TestNetworkLiteralSpellings(t *testing.T) {
	const sock = `"/abs/ws/.wrasse.sock"`
	cases := []struct {
		name, imports, body string
		// refused is false for spellings that must load.
		refused bool
	}{
		{"concatenation (the reproduction)", `"net"`, `c, err := net.Dial("un"+"ix", ` + sock + `)`, true},
		{"constant", `"net"`, "const u = \"unix\"\n\tc, err := net.Dial(u, " + sock + ")", true},
		{"variable", `"net"`, "n := \"unix\"\n\tc, err := net.Dial(n, " + sock + ")", true},
		{"variable with tcp in the address's place", `"net"`, "n := req.String(\"n\", \"unix\")\n\tc, err := net.Dial(n, \"tcp\")", true},
		{"fmt.Sprint", `"fmt"; "net"`, `c, err := net.Dial(fmt.Sprint("unix"), ` + sock + `)`, true},
		{"strings.ToLower", `"net"; "strings"`, `c, err := net.Dial(strings.ToLower("UNIX"), ` + sock + `)`, true},
		{"bytes conversion", `"net"`, `c, err := net.Dial(string([]byte("unix")), ` + sock + `)`, true},
		{"parenthesised literal", `"net"`, `c, err := net.Dial(("unix"), ` + sock + `)`, true},
		{"unixgram", `"net"`, `c, err := net.Dial("unixgram", ` + sock + `)`, true},
		{"unknown network", `"net"`, `c, err := net.Dial("tcp\x00", ` + sock + `)`, true},
		{"DialTimeout", `"net"; "time"`, `c, err := net.DialTimeout("un"+"ix", ` + sock + `, time.Second)`, true},
		{"Dialer.DialContext", `"net"`, "var d net.Dialer\n\tc, err := d.DialContext(ctx, \"un\"+\"ix\", " + sock + ")", true},
		{"Dialer.Dial with the network in the address's place", `"net"`, "var d net.Dialer\n\tn := \"unix\"\n\tc, err := d.Dial(n, \"tcp\")", true},
		{"tls.Dial", `"crypto/tls"`, `c, err := tls.Dial("un"+"ix", ` + sock + `, nil)`, true},
		{"tls.DialWithDialer", `"crypto/tls"; "net"`, `c, err := tls.DialWithDialer(&net.Dialer{}, "unix", ` + sock + `, nil)`, true},
		{"tls.DialWithDialer with tcp in the address's place", `"crypto/tls"`, "n := \"unix\"\n\tc, err := tls.DialWithDialer(nil, n, \"tcp\", nil)", true},
		{"textproto.Dial", `"net/textproto"`, `c, err := textproto.Dial("unix", ` + sock + `)`, true},
		{"http.Transport.DialContext", `"net/http"`, `c, err := http.DefaultTransport.(*http.Transport).DialContext(ctx, "un"+"ix", ` + sock + `)`, true},
		{"net.Listen", `"net"`, `c, err := net.Listen("un"+"ix", "/tmp/s.sock")`, true},
		{"ListenConfig.Listen", `"net"`, "var lc net.ListenConfig\n\tc, err := lc.Listen(ctx, \"un\"+\"ix\", \"/tmp/s.sock\")", true},

		{"tcp literal", `"net"`, `c, err := net.Dial("tcp", "127.0.0.1:1")`, false},
		{"parenthesised tcp literal", `"net"`, `c, err := net.Dial(("tcp4"), "127.0.0.1:1")`, false},
		{"udp through a Dialer", `"net"`, "var d net.Dialer\n\tc, err := d.DialContext(ctx, \"udp\", \"127.0.0.1:1\")", false},
		{"raw IP with a protocol", `"net"`, `c, err := net.Dial("ip4:icmp", "127.0.0.1")`, false},
		{"tls.DialWithDialer over tcp", `"crypto/tls"`, `c, err := tls.DialWithDialer(nil, "tcp", "127.0.0.1:1", nil)`, false},
	}
	h := NewHost(Options{Logger: discard()})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The dial sits behind a flag, so a plugin that loads never dials.
			body := "if !req.Bool(\"dial\", false) {\n\t\treturn nil, nil\n\t}\n\t" + tc.body + "\n\t_ = c\n\treturn nil, err"
			src := wrap(tc.imports, "\t"+body)
			err := h.Check(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false, "network"))
			if !tc.refused {
				if err != nil {
					t.Fatalf("Check: %v; want it to load", err)
				}
				return
			}
			if !errors.Is(err, ErrPermission) {
				t.Fatalf("Check: %v; want the dial refused with ErrPermission", err)
			}
			if !strings.Contains(err.Error(), "files permission") || !strings.Contains(err.Error(), "plugin/main.go:") {
				t.Errorf("Check: %q; want it to name the line and the files permission", err)
			}
		})
	}
	// With files granted a unix socket is the plugin's to use.
	src := wrap(`"net"`, "\tif !req.Bool(\"dial\", false) {\n\t\treturn nil, nil\n\t}\n\tc, err := net.Dial(\"un\"+\"ix\", \"/tmp/s.sock\")\n\t_ = c\n\treturn nil, err")
	if err := h.Check(t.Context(), request(inline(t, oneTool, map[string]string{"main.go": src}), false, "network", "files")); err != nil {
		t.Errorf("with files: %v; want it to load", err)
	}
}
