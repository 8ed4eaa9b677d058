package cerebellum_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// TestStableIndexFollowsSnapshots: the stable index, rendered once per
// snapshot, shows an edit once a Resync applied it, and a budget change.
func TestStableIndexFollowsSnapshots(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("alpha", skill("alpha", "Reads the weather."), false)
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first := r.StableIndex()
	if !strings.Contains(first, "Reads the weather.") || r.StableIndex() != first {
		t.Fatalf("index:\n%s", first)
	}
	e.addWorkspace("alpha", skill("alpha", "Reads the tides."), false)
	if _, err := manage.New(r, manage.Options{}).ResyncFolders(context.Background(), []string{"alpha"}); err != nil {
		t.Fatal(err)
	}
	edited := r.StableIndex()
	if !strings.Contains(edited, "Reads the tides.") {
		t.Fatalf("after the edit:\n%s", edited)
	}
	tu := r.Tuning()
	tu.IndexBudget = cerebellum.MinIndexBudget
	if err := manage.New(r, manage.Options{}).SetTuning(tu); err != nil {
		t.Fatal(err)
	}
	if idx := r.StableIndex(); idx == edited {
		t.Fatalf("after a smaller budget:\n%s", idx)
	}
}
