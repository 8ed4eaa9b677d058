package bench

import (
	"testing"
	"time"
)

func TestParseStatCPU(t *testing.T) {
	tests := []struct {
		name, stat string
		want       time.Duration
		ok         bool
	}{
		{"plain", "4242 (wrasse) S 1 4242 4242 0 -1 4194560 5000 0 0 0 150 25 0 0 20 0 12 0 100 0 0", 1750 * time.Millisecond, true},
		{"a name with spaces and parentheses", "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0", 70 * time.Millisecond, true},
		{"no name", "4242 S 1", 0, false},
		{"too short", "1 (x) S 1 2 3", 0, false},
		{"not numbers", "1 (x) S 1 1 1 0 -1 0 0 0 0 0 u s 0 0", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStatCPU(tc.stat)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseStatCPU = %v, %v; want %v (ok %v)", got, err, tc.want, tc.ok)
			}
		})
	}
}
