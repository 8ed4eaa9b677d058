package hint

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	keys := []string{"provider", "model", "baseURL", "contextWindow", "folders", "pinnedCapabilities"}
	tests := []struct {
		name string
		want []string
	}{
		{"modle", []string{"model"}},
		{"baseUrl", []string{"baseURL"}},
		{"BASEURL", []string{"baseURL"}},
		{"folder", []string{"folders"}},
		{"pinned", []string{"pinnedCapabilities"}},
		{"zzzzzzzzzzzz", nil},
	}
	for _, tt := range tests {
		if got := Closest(tt.name, keys, 1); !slices.Equal(got, tt.want) {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"héllo", "hello", 1}} {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
