package cerebellum_test

import (
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// DeferrableTools is kept for the snapshot it was built from, and built
// again when the registry changes: a capability switched off leaves the
// list, switched on joins it again. A repeated call allocates nothing.
func TestDeferrableToolsFollowChanges(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"a", "b"} {
		e.addWorkspace(n, skill(n, "Capability "+n+".", "tool_"+n), true)
	}
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
	if err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		var out []string
		for _, d := range r.DeferrableTools() {
			out = append(out, d.Name)
		}
		return out
	}
	if got := names(); !slices.Equal(got, []string{"tool_a", "tool_b"}) {
		t.Fatalf("deferrable %q", got)
	}
	if n := testing.AllocsPerRun(20, func() { r.DeferrableTools() }); n != 0 {
		t.Errorf("a repeated DeferrableTools allocates %v times, want 0 (kept)", n)
	}
	if err := manage.New(r, manage.Options{}).Disable("b"); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"tool_a"}) {
		t.Errorf("after disabling b: %q, want tool_a alone", got)
	}
	if err := manage.New(r, manage.Options{}).Enable("b", nil); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"tool_a", "tool_b"}) {
		t.Errorf("after enabling b again: %q", got)
	}
	// A caller's append never writes into the kept list.
	l := r.DeferrableTools()
	_ = append(l, cerebellum.ToolDef{Name: "intruder"})
	if got := names(); !slices.Equal(got, []string{"tool_a", "tool_b"}) {
		t.Errorf("an append changed the kept list: %q", got)
	}
}
