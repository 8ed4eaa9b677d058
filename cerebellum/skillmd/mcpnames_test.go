package skillmd

import "testing"

func TestMCPNames(t *testing.T) {
	for _, tt := range []struct {
		k           string
		env, header bool
	}{
		{"GITHUB_TOKEN", true, true},
		{"Authorization", true, true},
		{"X-Api-Key", true, true},
		{"", false, false},
		{"A=B", false, false},
		{"with space", true, false},
		{"colon:", true, false},
		{"nul\x00", false, false},
		{"é", true, false},
	} {
		if got := ValidEnvName(tt.k); got != tt.env {
			t.Errorf("ValidEnvName(%q) = %v", tt.k, got)
		}
		if got := ValidHeaderName(tt.k); got != tt.header {
			t.Errorf("ValidHeaderName(%q) = %v", tt.k, got)
		}
	}
}
