package cerebellum

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

func TestNames(t *testing.T) {
	long := strings.Repeat("x", 70)
	valid := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	for _, tc := range []struct {
		name   string
		cap    string
		remote []string
		want   map[string]string
	}{
		{"plain", "everything", []string{"echo", "get-sum"}, map[string]string{"echo": "everything__echo", "get-sum": "everything__get-sum"}},
		{"dots become underscores with a hash", "fs", []string{"read.file"}, map[string]string{"read.file": "fs__read_file_"}},
		{"a cut name never takes a plain one", "fs", []string{"a.b", "a_b"}, map[string]string{"a_b": "fs__a_b", "a.b": "fs__a_b_"}},
		{"long", "server", []string{long}, map[string]string{long: "server__" + strings.Repeat("x", 64-len("server__")-9) + "_"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Names(tc.cap, tc.remote)
			rev := slices.Clone(tc.remote)
			slices.Reverse(rev)
			again := Names(tc.cap, rev)
			seen := map[string]bool{}
			for _, r := range tc.remote {
				n := got[r]
				if !valid.MatchString(n) {
					t.Errorf("%s → %q: not a valid model tool name", r, n)
				}
				if !strings.HasPrefix(n, tc.want[r]) {
					t.Errorf("%s → %q; want prefix %q", r, n, tc.want[r])
				}
				if again[r] != n {
					t.Errorf("%s: %q in one order, %q in another", r, n, again[r])
				}
				if seen[n] {
					t.Errorf("collision on %q", n)
				}
				seen[n] = true
			}
		})
	}
	// Two long names sharing their first 64 characters stay apart.
	a, b := long+"a", long+"b"
	n := Names("c", []string{a, b})
	if n[a] == n[b] || len(n[a]) > MaxToolName || len(n[b]) > MaxToolName {
		t.Errorf("long names: %q and %q", n[a], n[b])
	}
}

func TestLaunchLine(t *testing.T) {
	for _, tc := range []struct {
		s    skillmd.MCPServer
		want string
	}{
		{skillmd.MCPServer{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}}, "npx -y @modelcontextprotocol/server-everything"},
		{skillmd.MCPServer{Command: "node", Args: []string{"my server.js"}, Env: map[string]string{"TOKEN": "${secret:tok}"}, Cwd: "/srv"},
			"cd /srv && TOKEN='${secret:tok}' node 'my server.js'"},
		{skillmd.MCPServer{URL: "https://h.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${secret:gh}"}},
			"https://h.example/mcp (header Authorization: Bearer ${secret:gh})"},
	} {
		if got := LaunchLine(&tc.s); got != tc.want {
			t.Errorf("LaunchLine = %q; want %q", got, tc.want)
		}
	}
}

func TestParseToolPolicy(t *testing.T) {
	for in, want := range map[string]ToolPolicy{"ask": PolicyAsk, "Always": PolicyAlways, " never ": PolicyNever, "": PolicyAsk} {
		if got, err := ParseToolPolicy(in); err != nil || got != want {
			t.Errorf("ParseToolPolicy(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseToolPolicy("sometimes"); err == nil {
		t.Error("ParseToolPolicy accepted sometimes")
	}
	if k := PolicyKey("get-sum"); k != "tool.get-sum" {
		t.Errorf("PolicyKey = %q", k)
	}
	if k := PolicyKey("weird/name"); !strings.HasPrefix(k, "tool.") || strings.Contains(k, "/") {
		t.Errorf("PolicyKey of an unusual name = %q", k)
	}
}
