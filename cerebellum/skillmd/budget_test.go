package skillmd

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// laughs is the reproduction: a 482-byte-class SKILL.md whose tool schema
// nests aliases ten deep, ten wide: 10^10 nodes once expanded (it grew to
// 23 GB while being converted to JSON).
func laughs(levels, width int) string {
	var b strings.Builder
	b.WriteString("---\nname: laughs\ndescription: A billion laughs.\nx0: &a0 lol\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "x%d: &a%d [", i, i)
		for j := 0; j < width; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	fmt.Fprintf(&b, "tools:\n  - name: boom\n    description: Boom.\n    parameters:\n      type: object\n      properties:\n        p: {type: string, default: *a%d}\n---\n", levels)
	return b.String()
}

func TestAliasBudget(t *testing.T) {
	tests := []struct {
		name string
		src  string
		ok   bool
	}{
		{"billion laughs in a tool schema", laughs(10, 10), false},
		{"deep narrow chain", laughs(40, 2), false},
		{"a few honest aliases", laughs(2, 3), true},
		{"self-referencing anchor", "---\nname: selfref\ndescription: Loops.\nx: &a [*a]\n---\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), Options{File: "SKILL.md"})
			if tt.ok {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "aliases") {
				t.Fatalf("Parse = %v; want the alias budget error", err)
			}
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("error %T is not a *skillmd.Error", err)
			}
		})
	}
}

// FuzzAliases feeds alias structures to the parser: it must answer (no
// blow-up, no panic), and what it accepts converts to JSON of bounded size.
func FuzzAliases(f *testing.F) {
	f.Add(laughs(10, 10))
	f.Add(laughs(3, 2))
	f.Add("---\nname: a\ndescription: b\nx: &a {k: &b [*b]}\n---\n")
	f.Add("---\nname: a\ndescription: b\nm: &m {a: 1}\nn: {<<: *m, b: 2}\n---\n")
	f.Add("---\nname: a\ndescription: b\ntools:\n  - &t {name: t1, description: d}\n  - *t\n---\n")
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse([]byte(src), Options{File: "SKILL.md"})
		if err != nil {
			return
		}
		total := 0
		for _, tool := range m.Tools {
			total += len(tool.Parameters) + len(tool.OutputSchema)
		}
		if total > 64*MaxExpandedBytes {
			t.Fatalf("accepted schemas of %d bytes", total)
		}
	})
}
