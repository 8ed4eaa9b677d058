package agent_test

import (
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
)

// A call that fails in a way the user can fix (a capability switched off)
// stores the fix beside the result, for the window's button; a call that
// fails otherwise, or succeeds, stores none.
func TestFailedCallStoresItsFix(t *testing.T) {
	prov := newProvider(t,
		calls(tc("c1", "weather_get", `{"city":"Lyon"}`), tc("c2", "nope_tool", `{}`), tc("c3", "echo_back", `{"text":"hi"}`)),
		text("Weather is off."),
	)
	e := newEnv(t, prov)
	if err := manage.New(e.reg, manage.Options{}).Disable("weather"); err != nil {
		t.Fatal(err)
	}
	id, err := e.agent().Turn(t.Context(), e.conv(), "Weather in Lyon?", nil)
	if err != nil {
		t.Fatal(err)
	}
	fixes := map[string]*hint.Hint{}
	for _, ev := range events(t, e.db, id) {
		if ev.Type == store.EventToolResult {
			fixes[ev.ToolCallID] = ev.Fix
		}
	}
	if len(fixes) != 3 {
		t.Fatalf("%d results, want 3", len(fixes))
	}
	if f := fixes["c1"]; f == nil || f.Action != "Enable weather" || f.Page != hint.PageCapabilities || f.Target != "weather" ||
		strings.Join(f.Command, " ") != "caps enable weather" {
		t.Errorf("the switched-off capability's fix: %+v", f)
	}
	if fixes["c2"] != nil || fixes["c3"] != nil {
		t.Errorf("fixes on calls without one: unknown tool %+v, success %+v", fixes["c2"], fixes["c3"])
	}
}
