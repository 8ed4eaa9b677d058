package jsonline

import (
	"encoding/json"
	"testing"
)

func TestCutUint(t *testing.T) {
	tests := []struct {
		in   string
		v    uint64
		rest string
		ok   bool
	}{
		{"0,", 0, ",", true},
		{"42}", 42, "}", true},
		{"18446744073709551615", 18446744073709551615, "", true},
		{"18446744073709551616", 0, "", false}, // overflows
		{"007", 0, "", false},                  // JSON has no leading zeros
		{"-1", 0, "", false},
		{"", 0, "", false},
	}
	for _, tt := range tests {
		v, rest, ok := CutUint([]byte(tt.in))
		if v != tt.v || string(rest) != tt.rest || ok != tt.ok {
			t.Errorf("CutUint(%q) = %d, %q, %v; want %d, %q, %v", tt.in, v, rest, ok, tt.v, tt.rest, tt.ok)
		}
	}
}

// A plain string is one encoding/json writes between quotes unchanged.
func TestPlainStringAgreesWithMarshal(t *testing.T) {
	for _, s := range []string{"", "calc_eval", "a b", "a\"b", "a\\b", "<", "&", "é", "\n", "\x7f"} {
		b, _ := json.Marshal(s)
		same := string(b) == `"`+s+`"`
		if PlainString(s) && !same {
			t.Errorf("PlainString(%q) but encoding/json writes %s", s, b)
		}
	}
}
