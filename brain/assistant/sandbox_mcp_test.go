package assistant

import (
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// The MCP server's page and `caps show` say what the kernel enforces on
// the server and what it does not, on every kind of system.
func TestMCPSandboxInfo(t *testing.T) {
	kernel := func(abi int) func(bool) sandbox.Status {
		return func(network bool) sandbox.Status {
			return sandbox.Status{ABI: abi, Files: abi > 0, Network: !network && abi >= 4, NetworkAsked: !network, Scoped: abi >= 6}
		}
	}
	stdio := &skillmd.MCPServer{Command: "node", Args: []string{"server.js"}}
	cases := []struct {
		name          string
		block         *skillmd.MCPServer
		noNetwork     bool
		launcher      bool
		abi           int
		unixRefusable bool
		code          bool
		sandboxed     bool
		summary       []string
		enforced      []string
		gaps          []string
	}{
		{name: "remote server", block: &skillmd.MCPServer{URL: "https://mcp.example.com/mcp"}, launcher: true, abi: 7,
			summary: []string{"nothing of it runs on this computer", "https://mcp.example.com/mcp"}},
		{name: "no launcher", block: stdio, abi: 7, code: true,
			summary: []string{"not sandboxed"}, gaps: []string{"no sandbox launcher"}},
		{name: "Linux with Landlock, network on", block: stdio, launcher: true, abi: 7, unixRefusable: true, code: true, sandboxed: true,
			summary: []string{"Landlock ABI 7", "network on"}, enforced: []string{"never Wrasse's database", "no unix sockets"}},
		{name: "Linux with Landlock, network off", block: stdio, noNetwork: true, launcher: true, abi: 7, unixRefusable: true, code: true, sandboxed: true,
			summary: []string{"network off"}, enforced: []string{"no TCP connections"}, gaps: []string{"UDP is not blocked"}},
		{name: "Linux before 6.7, network off", block: stdio, noNetwork: true, launcher: true, abi: 3, unixRefusable: true, code: true, sandboxed: true,
			summary: []string{"sandbox incomplete"}, gaps: []string{"network access is not blocked"}},
		{name: "no Landlock, no seccomp (macOS)", block: stdio, launcher: true, abi: 0, code: true,
			summary: []string{"sandbox incomplete"}, gaps: []string{"file access is not confined", "unix sockets are not refused"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &cerebellum.Capability{Name: "srv", Kind: cerebellum.KindMCP, NoNetwork: tc.noNetwork, Manifest: &skillmd.Manifest{Name: "srv", MCP: tc.block}}
			info := mcpSandboxInfo(c, tc.launcher, kernel(tc.abi), tc.unixRefusable)
			if info.Code != tc.code || info.Sandboxed != tc.sandboxed || info.InProcess {
				t.Fatalf("%+v; want code=%v sandboxed=%v, not in process", info, tc.code, tc.sandboxed)
			}
			for _, want := range []struct {
				what string
				got  []string
				has  []string
			}{{"summary", []string{info.Summary}, tc.summary}, {"enforced", info.Enforced, tc.enforced}, {"gaps", info.Gaps, tc.gaps}} {
				all := strings.Join(want.got, "\n")
				for _, h := range want.has {
					if !strings.Contains(all, h) {
						t.Errorf("%s %q does not say %q", want.what, all, h)
					}
				}
			}
			if len(tc.gaps) == 0 && len(info.Gaps) > 0 {
				t.Errorf("gaps %q; want none", info.Gaps)
			}
		})
	}
}
