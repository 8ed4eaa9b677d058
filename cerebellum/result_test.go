package cerebellum_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wrasse-app/wrasse/cerebellum"
)

func TestCapResult(t *testing.T) {
	cases := []struct {
		name      string
		content   string
		limit     int
		truncated bool
		prefix    string
	}{
		{name: "fits", content: "hello", limit: 10, prefix: "hello"},
		{name: "exactly the cap", content: strings.Repeat("a", 200), limit: 200, prefix: strings.Repeat("a", 200)},
		{name: "cut with note", content: strings.Repeat("a", 1000), limit: 300, truncated: true, prefix: "aaaa"},
		{name: "cut at a rune boundary", content: strings.Repeat("é", 1000), limit: 301, truncated: true, prefix: "éé"},
		{name: "cap smaller than the note", content: strings.Repeat("a", 1000), limit: 20, truncated: true},
		{name: "no cap", content: strings.Repeat("a", 1000), limit: 0, prefix: strings.Repeat("a", 1000)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := cerebellum.CapResult(cerebellum.Result{Content: tc.content, IsError: true}, tc.limit)
			if r.Truncated != tc.truncated {
				t.Fatalf("Truncated = %v; want %v", r.Truncated, tc.truncated)
			}
			if !r.IsError {
				t.Error("IsError was lost")
			}
			if !strings.HasPrefix(r.Content, tc.prefix) {
				t.Errorf("content %q lacks prefix %q", r.Content, tc.prefix)
			}
			if tc.limit > 0 && len(r.Content) > tc.limit {
				t.Errorf("len %d > cap %d", len(r.Content), tc.limit)
			}
			if !utf8.ValidString(r.Content) {
				t.Error("content is not valid UTF-8")
			}
			if tc.truncated && tc.limit > 200 {
				if !strings.Contains(r.Content, "bytes were cut") || !strings.Contains(r.Content, "of "+strconv.Itoa(len(tc.content))+" bytes") {
					t.Errorf("note does not say what was cut: %q", r.Content[len(r.Content)-150:])
				}
			}
		})
	}
}
