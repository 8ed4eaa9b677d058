package plugins

import (
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

func TestConfinement(t *testing.T) {
	old := func(bool) sandbox.Status { return sandbox.Status{ABI: 3, Files: true, NetworkAsked: true} }
	cases := []struct {
		name    string
		child   bool
		trusted bool
		granted []string
		want    Confinement
	}{
		{name: "ships with Wrasse: in process", child: true, trusted: true,
			want: Confinement{Commands: true, CommandStatus: old(true)}},
		{name: "no plugin process: in process, unconfined", granted: []string{"files"}},
		{name: "plugin process", child: true, granted: []string{"files"},
			want: Confinement{OutOfProcess: true, Sandboxed: true, Status: old(false), Commands: true, CommandStatus: old(true)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Logger: discard()}
			if tc.child {
				opts.Child = []string{"/bin/wrasse", "__plugin"}
			}
			h := NewHost(opts)
			h.expect, h.expectCommand = old, old
			if got := h.Confinement(tc.trusted, tc.granted); got != tc.want {
				t.Fatalf("Confinement = %+v; want %+v", got, tc.want)
			}
		})
	}
	// The real kernel: Expect agrees with ABI.
	st := sandbox.Expect(false)
	if st.Files != (sandbox.ABI() > 0) || !st.NetworkAsked {
		t.Fatalf("Expect(false) = %+v with ABI %d", st, sandbox.ABI())
	}
}

// What the kernel cannot enforce is logged once per capability, however
// often its plugin process starts, and not at all when everything holds.
func TestSandboxGapsLoggedOnce(t *testing.T) {
	log := &recorder{}
	h := childTestHost(log, childArg)
	h.expect = func(network bool) sandbox.Status { return sandbox.Status{ABI: 3, Files: true, NetworkAsked: !network} }
	for range 3 {
		rt, err := h.Load(t.Context(), request(fixture(t, "good"), false))
		if err != nil {
			t.Fatal(err)
		}
		rt.Close()
	}
	const gap = "the plugin's sandbox is incomplete: network access is not blocked"
	if n := countPrefix(log, gap); n != 1 {
		t.Fatalf("logged the gap %d times; want once", n)
	}
	log = &recorder{}
	h = childTestHost(log, childArg)
	h.expect = func(network bool) sandbox.Status {
		return sandbox.Status{ABI: 6, Files: true, Network: !network, NetworkAsked: !network, Scoped: true}
	}
	rt, err := h.Load(t.Context(), request(fixture(t, "good"), false))
	if err != nil {
		t.Fatal(err)
	}
	rt.Close()
	if n := countPrefix(log, "the plugin's sandbox is incomplete"); n != 0 {
		t.Fatalf("logged a gap %d times where the kernel enforces everything", n)
	}
}

func countPrefix(r *recorder, prefix string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, m := range r.msgs {
		if strings.HasPrefix(m, prefix) {
			n++
		}
	}
	return n
}
