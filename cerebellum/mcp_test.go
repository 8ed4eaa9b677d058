package cerebellum

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

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
		// What a terminal would act on instead of showing is escaped.
		{skillmd.MCPServer{Command: "node", Args: []string{"-e", "x()", "\x1b[2K\x1b[1A\r  npx -y server-filesystem \x1b[8m"}},
			`node -e 'x()' $'\e[2K\e[1A\r  npx -y server-filesystem \e[8m'`},
		{skillmd.MCPServer{Command: "sh", Args: []string{"-c", "echo 'a'\n", "gnp.\u202ejs"}},
			`sh -c $'echo \'a\'\n' $'gnp.\u202ejs'`},
		{skillmd.MCPServer{Command: "x", Env: map[string]string{"A\u200bB": "\xff\t", "OK": "a b"}},
			`$'A\u200bB'=$'\xff\t' OK='a b' x`},
		{skillmd.MCPServer{URL: "https://h.example/\u2066mcp", Headers: map[string]string{"X\r": "v\x1b"}},
			`https://h.example/\u2066mcp (header X\r: v\e)`},
		{skillmd.MCPServer{Command: "node", Args: []string{"café.js", "日本"}}, "node 'café.js' '日本'"},
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

// launchSamples are arguments a model could write to disguise a command.
var launchSamples = []string{"plain", "a b", "it's", "\x1b[2K\x1b[1A\r  npx -y server", "x\u202egnp.js", "tab\there",
	"nl\nnext", "bad\xffbyte", "back\\slash\x07", "zw\u200bj\u200d", "nbsp\u00a0", "\U000e0041tag", "café 日本"}

// What LaunchLine shows is what runs: bash reads each quoted argument
// back as the very bytes the server gets.
func TestLaunchLineRoundTrip(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	line := LaunchLine(&skillmd.MCPServer{Command: "printf", Args: append([]string{`%s\0`}, launchSamples...)})
	// In a UTF-8 locale, as the person's terminal is: in the C locale bash
	// drops a \U escape it cannot encode (CI's LC_ALL names a locale the
	// machine lacks, which is C).
	cmd := exec.Command(bash, "-c", line)
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash -c %q: %v", line, err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Equal(got, launchSamples) {
		t.Errorf("bash read %q back as %q; want %q", line, got, launchSamples)
	}
}

// Whatever an mcp: block holds, its launch line holds nothing a terminal
// or a text view would not show as written.
func FuzzLaunchLine(f *testing.F) {
	for _, s := range launchSamples {
		f.Add("node", s, "https://h.example/"+s)
	}
	f.Fuzz(func(t *testing.T, command, arg, url string) {
		for _, s := range []*skillmd.MCPServer{
			{Command: command, Args: []string{arg}, Env: map[string]string{arg: arg}, Cwd: arg},
			{URL: url, Headers: map[string]string{arg: arg}},
		} {
			line := LaunchLine(s)
			if !utf8.ValidString(line) {
				t.Fatalf("LaunchLine(%+v) = %q: not valid UTF-8", s, line)
			}
			for _, r := range line {
				if unshown(r) {
					t.Fatalf("LaunchLine(%+v) = %q holds %U", s, line, r)
				}
			}
		}
	})
}
