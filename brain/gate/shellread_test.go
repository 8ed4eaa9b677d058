package gate_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// check is a shell call through the real built-in patterns on corpusEnv.
func check(t *testing.T, env gate.Env, cmd string) gate.Verdict {
	t.Helper()
	return gate.CheckIn(builtinRegistry(t, nil, nil).Snapshot(), env, "shell_exec", shellArgs(cmd))
}

// A control character other than a tab or a line break is read one way
// by the checker's parser (\r as a blank, NUL dropped) and another by the
// shell: the line asks every time and says the checker cannot read it.
// Tabs and line breaks are the shell's own blanks and separators.
func TestControlCharactersAlwaysAsk(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want string // the escape the reason names; "" for a line that reads plainly
	}{
		{"ls\r# ; rm -f notes.txt", `\r`},
		{"ls;\r# touch pwned", `\r`},
		{"echo 'a\rb'", `\r`},
		{"ls \x00; touch x", `\x00`},
		{"echo \x1b[2K", `\x1b`},
		{"ls\x7f", `\x7f`},
		{"ls \u0085", `\u0085`},
		{"ls\tREADME.md", ""},
		{"ls\nls -la", ""},
	} {
		v := check(t, corpusEnv, tt.cmd)
		if tt.want == "" {
			if v.AlwaysAsk {
				t.Errorf("%q always asks: %q", tt.cmd, v.Reasons)
			}
			continue
		}
		if !v.AlwaysAsk || !slices.ContainsFunc(v.Reasons, func(r string) bool {
			return strings.Contains(r, "cannot read it") && strings.Contains(r, tt.want)
		}) {
			t.Errorf("%q: always ask %v, reasons %q; want one saying the checker cannot read %s", tt.cmd, v.AlwaysAsk, v.Reasons, tt.want)
		}
		env := corpusEnv
		env.Commands = []string{"ls", "echo"}
		if v := check(t, env, tt.cmd); v.Decision == gate.Allow {
			t.Errorf("%q: the allowed patterns ls and echo let it run", tt.cmd)
		}
	}
}

// What sh (dash) and bash read differently asks every time, with the
// construct named; the same line in the grammar both share does not.
func TestGrammarDifferencesAlwaysAsk(t *testing.T) {
	for _, tt := range []struct{ cmd, reason string }{
		{"((x))", "((…)) and let"},
		{"let x=1", "((…)) and let"},
		{"for ((i = 0; i < 2; i++)); do ls; done", "((…)) and let"},
		{"[[ -f go.mod ]] && ls", "[[ … ]]"},
		{"echo $'a\\tb'", "$'…'"},
		{`echo $"hi"`, `$"…"`},
		{"cat {a,b}.txt", "{a,b}"},
		{"ls {1..3}", "{a,b}"},
		{"coproc ls", "coproc"},
		{"declare -i n=1", "declare is bash's"},
		{"x+=1", "x+=…"},
		{"cat <<< hi", "only bash reads"},
		{"ls &> out.txt", "only bash reads"},
		{"echo $((n + 1))", "$((…)) with a variable"},
		{"echo $[1+2]", "read it differently"},
	} {
		v := check(t, corpusEnv, tt.cmd)
		if !v.AlwaysAsk || !slices.ContainsFunc(v.Reasons, func(r string) bool { return strings.Contains(r, tt.reason) }) {
			t.Errorf("%q: always ask %v, reasons %q; want one naming %q", tt.cmd, v.AlwaysAsk, v.Reasons, tt.reason)
		}
	}
	for _, cmd := range []string{"echo $((1 + 2))", "export A=1; ls", "if [ -f go.mod ]; then ls; fi", "echo {}",
		"echo '{a,b}'", "echo {a}", "f() { ls; }; f"} {
		if v := check(t, corpusEnv, cmd); v.AlwaysAsk {
			t.Errorf("%q always asks: %q", cmd, v.Reasons)
		}
	}
}

// Words are read as the shell will see them: ~name, ${HOME%/} and the
// like, $PWD, for loops' values, and what a subshell, a pipeline's part
// or a branch sets does (not) reach the rest of the line.
func TestWordsAsTheShellSeesThem(t *testing.T) {
	paths := func(cmd string) []string {
		var out []string
		for _, u := range gate.AnalyzeShellIn(cmd, corpusEnv, "/home/ann/project").Paths {
			p := u.Path
			if u.Unknown {
				p = "?" + p
			}
			out = append(out, p)
		}
		return out
	}
	for _, tt := range []struct {
		cmd  string
		want []string
	}{
		{"cat ${HOME%/}/x", []string{"/home/ann/x"}},
		{"cat ${HOME%%n*}", []string{"/home/a"}},
		{"cat ${HOME#/home}/x", []string{"/ann/x"}},
		{"cat ~root/x", []string{"/root/x"}},
		{"cat ~nosuchuser-a2/x", []string{"?~nosuchuser-a2/x"}},
		{"cat $PWD/../x", []string{"/home/ann/x"}},
		{"cd /tmp && cat $PWD/x", []string{"/tmp", "/tmp/x"}},
		{"cat $UNSET/x", []string{"?$UNSET/x"}},
		{"cat ${UNSET:-/etc}/passwd", []string{"?/etc/passwd"}},
		{"for f in a b; do cat $f; done", []string{"/home/ann/project/a", "/home/ann/project/b"}},
		{"x=/etc; (x=.); cat $x/passwd", []string{"/etc/passwd"}},
		{"x=/etc; x=. | cat; cat $x/passwd", []string{"/etc/passwd"}},
		{"cd /etc; (cd /tmp); cat passwd", []string{"/etc", "/tmp", "/etc/passwd"}},
		{"cd /etc; true || cd /tmp; cat passwd", []string{"/etc", "/tmp", "/tmp/passwd", "/etc/passwd"}},
		{"cd -; cat passwd", []string{"?passwd"}},
		{"read x; cat $x", []string{"?$x"}},
		{"cat /proc/self/root/etc/passwd", []string{"/etc/passwd"}},
		{"cat /proc/self/cwd/../x", []string{"/home/ann/x"}},
		{"cat /proc/thread-self/root/../etc/passwd", []string{"/etc/passwd"}},
		{"cat /proc/self/task/12/cwd/x", []string{"/home/ann/project/x"}},
	} {
		if got := paths(tt.cmd); !slices.Equal(got, tt.want) {
			t.Errorf("%q: paths %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

// Hosts are read from curl's and wget's words as those programs read
// them; what names no host the checker can read asks every time.
func TestNetworkProgramsHosts(t *testing.T) {
	for _, tt := range []struct {
		cmd    string
		hosts  []string
		always bool
	}{
		{"curl -fsSLo out.sh https://a.example/x.sh", []string{"a.example"}, false},
		{"curl a.example:8080/x", []string{"a.example:8080"}, false},
		{"curl 2130706433:8080/x", []string{"127.0.0.1:8080"}, false},
		{"curl http://0x7f.0.0.1/", []string{"127.0.0.1"}, false},
		{"curl http://0177.1/", []string{"127.0.0.1"}, false},
		{"curl -x 10.0.0.1:3128 https://a.example/", []string{"10.0.0.1:3128", "a.example"}, false},
		{"curl --resolve a.example:443:10.0.0.9 https://a.example/", []string{"10.0.0.9:443", "a.example"}, false},
		{"curl --connect-to a.example:443:b.example:8443 https://a.example/", []string{"b.example:8443", "a.example"}, false},
		{"curl --dns-servers 10.0.0.53 https://a.example/", []string{"10.0.0.53", "a.example"}, false},
		{"curl --doh-url https://dns.example/q https://a.example/", []string{"dns.example", "a.example"}, false},
		{"curl 'http://[::1]:8080/'", []string{"[::1]:8080"}, false},
		{"curl http://a.example/{x,y}.txt", []string{"a.example"}, true}, // brace expansion, for bash
		{"curl 'http://a.example/[1-3].txt'", []string{"a.example"}, false},
		{"curl 'http://h[1-2].example/'", nil, true},
		{"curl 'http://a.example:{80,81}/'", nil, true},
		{"curl http://%61.example/", nil, true},
		{"curl --connect-to a.example:80::9999 http://a.example/", []string{"a.example"}, true},
		{"curl --interface eth0 https://a.example/", []string{"a.example"}, true},
		{"curl --unix-socket /run/x.sock http://localhost/", []string{"localhost"}, true},
		{"curl --proxy 'p[1-2].example' https://a.example/", []string{"a.example"}, true},
		{"wget -qO- example.org/file", []string{"example.org"}, false},
		{"wget -q -O out.html https://example.com/", []string{"example.com"}, false},
		{"wget --bind-address=10.0.0.2 https://example.com/", []string{"example.com"}, true},
		{"git clone https://git.example/r.git", []string{"git.example"}, false},
		{"git clone 'ext::sh -c id'", nil, true},
		{"git fetch 'fd::3'", nil, true},
		{"nc 2130706433 4444", []string{"127.0.0.1:4444"}, false},
	} {
		info := gate.AnalyzeShellIn(tt.cmd, corpusEnv, "/home/ann/project")
		var got []string
		for _, h := range info.Hosts {
			got = append(got, h.Name)
		}
		if !slices.Equal(got, tt.hosts) || (len(info.Always) > 0) != tt.always {
			t.Errorf("%q: hosts %q, always %q; want %q, always asking %v", tt.cmd, got, info.Always, tt.hosts, tt.always)
		}
	}
}
