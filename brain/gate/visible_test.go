package gate_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/brain/gate"
)

// Visible shows what a terminal or a label would hide or reorder.
func TestVisible(t *testing.T) {
	for _, tt := range []struct{ in, want, line string }{
		{"ls -la", "ls -la", "ls -la"},
		{"ls\r# ; rm x", `ls\r# ; rm x`, `ls\r# ; rm x`},
		{"a\x00b\x1b[31m\x7f", `a\x00b\x1b[31m\x7f`, `a\x00b\x1b[31m\x7f`},
		{"echo a\nrm x\tnow", "echo a\nrm x\tnow", `echo a\nrm x\tnow`},
		{"x\u202ey\u200bz\u2028", `x\u202ey\u200bz\u2028`, `x\u202ey\u200bz\u2028`},
		{"caf\xe9 \u00e9", `caf\xe9 é`, `caf\xe9 é`},
		{`back\slash`, `back\slash`, `back\slash`},
	} {
		if got := gate.Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := gate.VisibleLine(tt.in); got != tt.line {
			t.Errorf("VisibleLine(%q) = %q, want %q", tt.in, got, tt.line)
		}
	}
}

// FuzzVisible: whatever the text, what Visible shows is valid UTF-8 with
// no control or format character but tab and line break, and VisibleLine
// is one line.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"ls\r# ; rm x", "a\x00\x1b[2K\x7f", "x\u202ey\u200b", "caf\xe9", "\xc2\x85", "a\tb\nc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := gate.Visible(s)
		if !utf8.ValidString(v) {
			t.Fatalf("Visible(%q) = %q is not UTF-8", s, v)
		}
		for _, r := range v {
			if r != '\t' && r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') {
				t.Fatalf("Visible(%q) = %q keeps %U", s, v, r)
			}
		}
		if l := gate.VisibleLine(s); strings.ContainsAny(l, "\t\n") {
			t.Fatalf("VisibleLine(%q) = %q", s, l)
		}
		if !strings.ContainsFunc(s, func(r rune) bool {
			return r != '\t' && r != '\n' && (r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029')
		}) && v != s {
			t.Fatalf("Visible(%q) = %q changed text that shows as itself", s, v)
		}
	})
}
