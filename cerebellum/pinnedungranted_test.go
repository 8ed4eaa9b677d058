package cerebellum_test

// Found by the session 5 attack review (s5-A H4); uses openAttack,
// newCheckLoader and attackRunner of ungranted_loadpaths_test.go.

import (
	"strings"
	"testing"
)

// A plugin pinned in config.json but waiting for its grants is not offered
// to the model as callable: its tools are not in the request, and the
// index does not say [loaded] (= tools callable now) for it, as tool_search
// says [needs …] instead of loading it.
func TestPinnedUngrantedPluginIsNotOffered(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("runner", attackRunner, true)
	e.pinned = []string{"runner"}
	r := openAttack(t, e, newCheckLoader())
	sess := r.NewSession("c", nil)
	for _, d := range r.Tools(sess) {
		if d.Name == "runner_go" {
			t.Errorf("the ungranted pinned plugin's tool %s is offered to the model", d.Name)
		}
	}
	if idx := r.Index(sess); strings.Contains(idx, "- runner (1 tool) — Runs builds for the project. [loaded]") ||
		!strings.Contains(idx, "- runner (1 tool) — Runs builds for the project. [needs exec and network: only the user can grant it]") {
		t.Errorf("the index does not say the plugin waits for the user's grants:\n%s", idx)
	}

	// Not pinned, it is not declared as a tool a conversation may load
	// (Anthropic's deferred tools) either.
	e = newEnv(t)
	e.addWorkspace("runner", attackRunner, true)
	r = openAttack(t, e, newCheckLoader())
	for _, d := range r.DeferrableTools() {
		if d.Name == "runner_go" {
			t.Errorf("the ungranted plugin's tool %s is declared loadable", d.Name)
		}
	}
}
