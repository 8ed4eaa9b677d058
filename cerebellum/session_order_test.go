package cerebellum_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// The load order moves only on a load (appended) or an eviction (removed);
// using a capability again reorders the LRU list alone.
func TestSessionLoadOrder(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"a", "b", "c", "d"} {
		e.addWorkspace(n, skill(n, "Capability "+n+".", "tool_"+n), true)
	}
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, MaxLoaded: 3,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
	if err != nil {
		t.Fatal(err)
	}
	sess := r.NewSession("c", nil)
	var saved []string
	sess.OnChange(func(l []string) { saved = l })
	before := r.StableIndex()
	steps := []struct {
		activate  string
		loadOrder []string
		lru       []string
	}{
		{"a", []string{"a"}, []string{"a"}},
		{"b", []string{"a", "b"}, []string{"a", "b"}},
		{"c", []string{"a", "b", "c"}, []string{"a", "b", "c"}},
		{"a", []string{"a", "b", "c"}, []string{"b", "c", "a"}}, // used again: the load order holds
		{"d", []string{"a", "c", "d"}, []string{"c", "a", "d"}}, // a load needs the room: b (least recent) goes
	}
	for i, s := range steps {
		if _, err := r.Activate(sess, s.activate); err != nil {
			t.Fatal(err)
		}
		if got := sess.LoadOrder(); !slices.Equal(got, s.loadOrder) {
			t.Errorf("step %d: load order %q, want %q", i+1, got, s.loadOrder)
		}
		if got := sess.Loaded(); !slices.Equal(got, s.lru) {
			t.Errorf("step %d: LRU %q, want %q", i+1, got, s.lru)
		}
	}
	// What OnChange saves is the load order, and a session restored from
	// it (after a restart) offers the tools in the same order.
	if !slices.Equal(saved, sess.LoadOrder()) {
		t.Errorf("saved %q, want the load order %q", saved, sess.LoadOrder())
	}
	if got := r.NewSession("c", saved).LoadOrder(); !slices.Equal(got, sess.LoadOrder()) {
		t.Errorf("restored load order %q, want %q", got, sess.LoadOrder())
	}
	var tools []string
	for _, d := range r.Tools(sess) {
		if d.Capability != cerebellum.DiscoveryName {
			tools = append(tools, d.Name)
		}
	}
	if want := []string{"tool_a", "tool_c", "tool_d"}; !slices.Equal(tools, want) {
		t.Errorf("tools %q, want %q (load order)", tools, want)
	}
	var deferrable []string
	for _, d := range r.DeferrableTools() {
		deferrable = append(deferrable, d.Name)
	}
	if want := []string{"tool_a", "tool_b", "tool_c", "tool_d"}; !slices.Equal(deferrable, want) {
		t.Errorf("deferrable %q, want %q", deferrable, want)
	}
	// The stable index marks nothing the conversation loaded.
	idx := r.StableIndex()
	if lines := strings.Split(idx, "\n"); !slices.Contains(lines, "- a (1 tool) — Capability a.") {
		t.Errorf("stable index marks a loaded capability, or lacks it:\n%s", idx)
	}
	if idx != before {
		t.Errorf("stable index changed with loads and an eviction:\n%s\nthen\n%s", before, idx)
	}
}
