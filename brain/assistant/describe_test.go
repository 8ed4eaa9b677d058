package assistant

import (
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

func TestDiffSummary(t *testing.T) {
	for _, c := range []struct {
		d    cerebellum.Diff
		want string
	}{
		{cerebellum.Diff{}, ""},
		{cerebellum.Diff{Added: []string{"a"}}, "added a"},
		{cerebellum.Diff{Added: []string{"a"}, Changed: []string{"b", "c"}, Removed: []string{"d"}}, "added a; changed b, c; removed d"},
		{cerebellum.Diff{Removed: []string{"d", "e"}}, "removed d, e"},
	} {
		if got := DiffSummary(c.d); got != c.want {
			t.Errorf("DiffSummary(%+v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestMCPToolHints(t *testing.T) {
	for _, c := range []struct {
		t    MCPTool
		want []string
	}{
		{MCPTool{}, nil},
		{MCPTool{ReadOnly: true, Destructive: true}, []string{"read-only"}},
		{MCPTool{Destructive: true, Idempotent: true, OpenWorld: true}, []string{"destructive", "idempotent", "open-world"}},
		{MCPTool{OpenWorld: true}, []string{"open-world"}},
	} {
		if got := c.t.Hints(); !slices.Equal(got, c.want) {
			t.Errorf("%+v: Hints() = %q, want %q", c.t, got, c.want)
		}
	}
}
