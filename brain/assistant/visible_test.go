package assistant

import (
	"os/exec"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestQuoteArgAndVisible(t *testing.T) {
	cases := []struct {
		in, quoted, visible string
	}{
		{"caps", "caps", "caps"},
		{"", "''", ""},
		{"a b", "'a b'", "a b"},
		{"it's", `'it'\''s'`, "it's"},
		{"x\ny", `$'x\ny'`, `x\ny`},
		{"get x\rcaps list", `$'get x\rcaps list'`, `get x\rcaps list`},
		{"\x1b[2Jok", `$'\e[2Jok'`, `\e[2Jok`},
		{"evil\u202etxt.exe", `$'evil\u202etxt.exe'`, `evil\u202etxt.exe`},
		{"a\u200bb", `$'a\u200bb'`, `a\u200bb`},
		{"nb\u00a0sp", `$'nb\u00a0sp'`, `nb\u00a0sp`},
		{"bad\xffutf8", `$'bad\xffutf8'`, `bad\xffutf8`},
		{"q'\\\n", `$'q\'\\\n'`, `q'\` + `\n`},
		{"café ünïcode", "'café ünïcode'", "café ünïcode"},
		{"\U000e0041tag", `$'\U000e0041tag'`, `\U000e0041tag`},
	}
	for _, c := range cases {
		if got := QuoteArg(c.in); got != c.quoted {
			t.Errorf("QuoteArg(%q) = %s, want %s", c.in, got, c.quoted)
		}
		if got := Visible(c.in); got != c.visible {
			t.Errorf("Visible(%q) = %s, want %s", c.in, got, c.visible)
		}
	}
	if got := CommandLine([]string{"wrasse", "config", "set", "baseURL", "http://x\n"}); got != `wrasse config set baseURL $'http://x\n'` {
		t.Errorf("CommandLine = %s", got)
	}
}

// bash reads what QuoteArg wrote back byte for byte, so the line the
// window shows is the line that runs.
func TestQuoteArgRoundTrip(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash")
	}
	for _, s := range []string{"plain", "a b", "it's", "x\ny\tz\r", "\x1b[0m", "evil\u202etxt", "bad\xff\xfe", "q'\\", "\x01\x7f", "é\u2028"} {
		cmd := exec.Command(bash, "-c", "printf %s "+QuoteArg(s))
		cmd.Env = []string{"LC_ALL=C.UTF-8"}
		out, err := cmd.Output()
		if err != nil || string(out) != s {
			t.Errorf("bash read %s back as %q (%v), want %q", QuoteArg(s), out, err, s)
		}
	}
}

// A peer's description shows what its command line, name and executable
// hold, escaped.
func TestPeerStringEscapes(t *testing.T) {
	p := Peer{Known: true, PID: 7, Name: "a\nb", Exe: "/tmp/x\u202ey", Args: []string{"/bin/wrasse", "config\rcaps", "list"}}
	got := p.String()
	if strings.ContainsFunc(got, hidden) || !strings.Contains(got, `/bin/wrasse $'config\rcaps' list (pid 7, /tmp/x\u202ey)`) {
		t.Errorf("String = %q", got)
	}
	p.Args = nil
	if got := p.String(); !strings.HasPrefix(got, `a\nb (pid 7`) {
		t.Errorf("String = %q", got)
	}
}

// No input makes QuoteArg or Visible write a character that does not
// show as itself, and QuoteArg changes no plain argument.
func FuzzQuoteArg(f *testing.F) {
	for _, s := range []string{"", "plain", "a b", "x\ny", "\u202e", "\xff", "'\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{QuoteArg(s), Visible(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%q gave invalid UTF-8 %q", s, out)
			}
			if i := strings.IndexFunc(out, func(r rune) bool { return !unicode.IsPrint(r) }); i >= 0 {
				t.Fatalf("%q gave %q, with a hidden character at %d", s, out, i)
			}
		}
		if !needsEscape(s) && Visible(s) != s {
			t.Fatalf("Visible changed %q to %q", s, Visible(s))
		}
	})
}
