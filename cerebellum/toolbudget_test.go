package cerebellum_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// bigServer is an MCP capability "big" whose server lists n tools with
// long descriptions, one of them about invoices; budget is the tool budget
// in force.
func bigServer(t *testing.T, n, budget int) (*cerebellum.Registry, *env) {
	t.Helper()
	e := newEnv(t)
	e.addWorkspace("big", "---\nname: big\ndescription: A server with very many tools.\nmcp:\n  command: big-server\n---\nx\n", false)
	e.addWorkspace("small", skill("small", "A small capability.", "small_run"), true)
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, ToolBudget: budget,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindMCP: e.loader, cerebellum.KindPlugin: e.loader}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	// Written by hand, the server is off until the person enables it.
	if err := manage.New(r, manage.Options{}).Enable("big", nil); err != nil {
		t.Fatal(err)
	}
	var tools []cerebellum.RemoteTool
	for i := range n {
		desc := fmt.Sprintf("Tool number %d of the big server. ", i) + strings.Repeat("Lorem ipsum dolor sit amet. ", 40)
		if i == 37 {
			desc = "Create an invoice for a customer and send it by email. " + desc
		}
		tools = append(tools, cerebellum.RemoteTool{Name: fmt.Sprintf("op_%03d", i), Description: desc,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)})
	}
	if err := r.Learn("big", cerebellum.Catalog{Tools: tools}); err != nil {
		t.Fatal(err)
	}
	return r, e
}

// loadedTokens is what sess's loaded tools add to a request, as the
// budget counts them, and their names.
func loadedTokens(r *cerebellum.Registry, sess *cerebellum.Session) (int, []string) {
	snap := r.Snapshot()
	var names []string
	for _, d := range r.Tools(sess) {
		if c, ok := snap.Get(d.Capability); ok && !c.AlwaysLoaded() {
			names = append(names, d.Name)
		}
	}
	return r.LoadedToolTokens(sess), names
}

func TestOversizedCapabilityLoadsPartly(t *testing.T) {
	const budget = 3000
	r, _ := bigServer(t, 300, budget)
	if got := r.Snapshot().SchemaTokens("big"); got <= 10*budget {
		t.Fatalf("the server's tools are %d tokens; the test wants them far over the budget of %d", got, budget)
	}
	for _, d := range r.DeferrableTools() {
		if d.Capability == "big" {
			t.Fatalf("a capability too big for the budget is offered as deferred: %s", d.Name)
		}
	}
	sess := r.NewSession("c", nil)
	if _, err := r.Activate(sess, "small"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ActivateFor(sess, "big", "create an invoice"); err != nil {
		t.Fatal(err)
	}
	tokens, names := loadedTokens(r, sess)
	if tokens > budget {
		t.Fatalf("loaded tools are %d tokens, over the budget of %d", tokens, budget)
	}
	sel, partial := sess.Selection("big")
	if !partial || len(sel) == 0 || len(sel) >= 300 || sel[0] != "big__op_037" {
		t.Fatalf("selection %v (partial %v); want a few tools, the invoice one first", sel, partial)
	}
	if !slices.Contains(names, "small_run") {
		t.Errorf("the small capability was evicted though the room held it: %v", names)
	}
	// The activation result names what is loaded and what is not.
	res, err := r.Call(cerebellum.WithSession(context.Background(), sess), sess, "tool_activate", json.RawMessage(`{"capability":"big","query":"create an invoice"}`))
	if err != nil || res.IsError {
		t.Fatalf("tool_activate: %+v %v", res, err)
	}
	for _, want := range []string{"Loaded big partly: its 300 tools exceed the tool budget", "big__op_037", "Not loaded (", "tool_search"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("activation result lacks %q:\n%s", want, res.Content)
		}
	}

	// Calling a tool not carried adds it after those carried, which keep
	// their order (the tools array only grows at the end or loses tools).
	before, _ := sess.Selection("big")
	if slices.Contains(before, "big__op_299") {
		t.Fatal("op_299 is carried already")
	}
	if res, err := r.Call(context.Background(), sess, "big__op_299", json.RawMessage(`{}`)); err != nil || res.IsError {
		t.Fatalf("call: %+v %v", res, err)
	}
	after, _ := sess.Selection("big")
	if after[len(after)-1] != "big__op_299" {
		t.Fatalf("after the call: %v; want op_299 last", after)
	}
	var kept []string
	for _, n := range before {
		if slices.Contains(after, n) {
			kept = append(kept, n)
		}
	}
	if !slices.Equal(kept, after[:len(after)-1]) {
		t.Errorf("the tools carried before moved: before %v, after %v", before, after)
	}
	if tokens, _ := loadedTokens(r, sess); tokens > budget {
		t.Errorf("after the call: %d tokens, over %d", tokens, budget)
	}

	// tool_search loads the tools its query wants, within the budget.
	sr, err := r.Search(sess, "op_150", 5)
	if err != nil || sr.Activated != "big" {
		t.Fatalf("search: %+v %v", sr, err)
	}
	if sel, _ := sess.Selection("big"); !slices.Contains(sel, "big__op_150") {
		t.Errorf("search did not load op_150: %v", sel)
	}

	// A smaller budget holds at the next request.
	if err := manage.New(r, manage.Options{}).SetTuning(cerebellum.Tuning{ToolBudget: budget / 3}); err != nil {
		t.Fatal(err)
	}
	if tokens, _ := loadedTokens(r, sess); tokens > budget/3 {
		t.Errorf("after the budget shrank: %d tokens, over %d", tokens, budget/3)
	}
}

// A capability that fits the budget is still loaded whole, and loading it
// again after a partial load of another drops nothing of its own.
func TestCapabilityWithinBudgetLoadsWhole(t *testing.T) {
	r, _ := bigServer(t, 300, 3000)
	sess := r.NewSession("c", nil)
	if _, err := r.Activate(sess, "small"); err != nil {
		t.Fatal(err)
	}
	if _, partial := sess.Selection("small"); partial {
		t.Error("a capability within the budget was loaded partly")
	}
	if _, names := loadedTokens(r, sess); !slices.Equal(names, []string{"small_run"}) {
		t.Errorf("tools: %v", names)
	}
}
