package gate_test

import (
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// Other spellings of an IPv4 address are remembered as the dotted one,
// so "allow this host" and the trusted list mean the address reached.
func TestHostKeyNumericIPv4(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"http://2130706433/", "127.0.0.1"},
		{"http://0x7f000001:8080/", "127.0.0.1:8080"},
		{"http://0x7f.1/", "127.0.0.1"},
		{"http://017700000001/", "127.0.0.1"},
		{"http://127.1/", "127.0.0.1"},
		{"http://10.0.258/", "10.0.1.2"},
		{"http://1.2.3.4/", "1.2.3.4"},
		{"http://01.02.03.010/", "1.2.3.8"},
		{"http://256.1.1.1/", "256.1.1.1"},
		{"http://4294967296/", "4294967296"},
		{"http://0x/", "0x"},
		{"http://1a.example/", "1a.example"},
		{"http://09.1.1.1/", "09.1.1.1"},
	} {
		if got := gate.HostKey(tt.in); got != tt.want {
			t.Errorf("HostKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// system_open's target is an address when it has a network scheme, and
// a file otherwise; the gate reads hosts from the URL-ish arguments of
// any tool.
func TestArgHostsTarget(t *testing.T) {
	for _, tt := range []struct {
		tool, args string
		want       []string
	}{
		{"system_open", `{"target":"https://x.example/?d=1"}`, []string{"x.example"}},
		{"system_open", `{"target":"report.example"}`, nil},
		{"system_open", `{"target":"mailto:a@x.example"}`, nil},
		{"some_tool", `{"host":"db.example:5432"}`, []string{"db.example:5432"}},
		{"some_tool", `{"webhook":"https://hooks.example/x"}`, []string{"hooks.example"}},
	} {
		v := gate.CheckIn(builtinRegistry(t, nil, nil).Snapshot(), corpusEnv, tt.tool, []byte(tt.args))
		var got []string
		for _, h := range v.Hosts {
			got = append(got, h.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: hosts %q, want %q", tt.tool, tt.args, got, tt.want)
		}
	}
}
