package gate_test

import (
	"testing"

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
