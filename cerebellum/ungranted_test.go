package cerebellum_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// A workspace plugin whose declared permissions are not granted is listed
// (so the user and the model can see what it asks for) but never loaded:
// loading, calling and searching say what to grant, it does not turn
// failed, and granting alone makes it work.
func TestUngrantedPluginIsNeverLoaded(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("runner", "---\nname: runner\ndescription: Runs builds.\npermissions: [exec, network]\ntools:\n  - name: runner_go\n    description: Go.\n---\nx\n", true)
	r := e.open()
	ctx := context.Background()
	sess := r.NewSession("c", nil)

	wantHint := hint.Hint{Action: "Grant exec and network to runner", Command: []string{"caps", "enable", "runner", "--grant", "exec,network"},
		Page: hint.PageCapability, Target: "runner"}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, cerebellum.ErrNotGranted) {
			t.Fatalf("%s: %v; want ErrNotGranted", what, err)
		}
		if want := "runner's plugin needs the exec and network permissions, which the user has not granted"; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %q does not say %q", what, err, want)
		}
		if h, ok := hint.Of(err); !ok || h.Action != wantHint.Action || strings.Join(h.Command, " ") != strings.Join(wantHint.Command, " ") {
			t.Errorf("%s: hint %+v; want %+v", what, h, wantHint)
		}
	}

	_, err := r.Activate(sess, "runner")
	check("activate", err)
	if sess.IsLoaded("runner") {
		t.Error("an ungranted plugin was loaded into the conversation")
	}
	for i := range 2 { // the second call must not find it failed
		res, err := r.Call(ctx, sess, "runner_go", json.RawMessage(`{}`))
		check("call", err)
		if !res.IsError || !strings.Contains(res.Content, "not granted") {
			t.Errorf("call %d: the model reads %+v", i, res)
		}
	}
	if n := e.loader.loads["runner"]; n != 0 {
		t.Errorf("the plugin's code was loaded %d times before its grants", n)
	}
	if c, _ := r.Get("runner"); c.State != cerebellum.StateOK || c.Error != "" {
		t.Errorf("state %s (%q) after calls; an ungranted plugin is not failed", c.State, c.Error)
	}

	res, err := r.Call(ctx, sess, "tool_search", json.RawMessage(`{"query":"runner builds"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "runner (1 tool) [needs exec and network: only the user can grant it"; !strings.Contains(res.Content, want) {
		t.Errorf("tool_search does not say %q:\n%s", want, res.Content)
	}
	if strings.Contains(res.Content, "Loaded runner") || sess.IsLoaded("runner") {
		t.Errorf("tool_search loaded the ungranted plugin:\n%s", res.Content)
	}

	if err := manage.New(r, manage.Options{}).Enable("runner", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	_, err = r.Call(ctx, sess, "runner_go", json.RawMessage(`{}`))
	if !errors.Is(err, cerebellum.ErrNotGranted) || !strings.Contains(err.Error(), "needs the network permission, which the user has not granted, and none of its code runs until all are granted; ask the user to grant it") {
		t.Fatalf("with exec granted: %v", err)
	}
	if err := manage.New(r, manage.Options{}).Enable("runner", []string{"network"}); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Call(ctx, sess, "runner_go", json.RawMessage(`{}`)); err != nil || res.Content != "runner_go {}" {
		t.Fatalf("granted: %+v, %v", res, err)
	}
	if n := e.loader.loads["runner"]; n != 1 {
		t.Errorf("loaded %d times once granted; want 1", n)
	}
}

// A guide whose allowed-tools name an ungranted plugin's tools tells the
// model they wait for the user's grants, rather than leaving them out.
func TestAllowedToolsSayWhatWaitsForGrants(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("runner", "---\nname: runner\ndescription: Runs builds.\npermissions: [exec, network]\ntools:\n  - name: runner_go\n    description: Go.\n---\nx\n", true)
	e.addWorkspace("howto", "---\nname: howto\ndescription: How to build.\nallowed-tools: [runner_go]\n---\nUse runner_go.\n", false)
	r := e.open()
	sess := r.NewSession("c", nil)
	res, err := r.Call(context.Background(), sess, "skill_read_source", json.RawMessage(`{"capability":"howto"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Waiting for permissions only the user can grant (in Settings → Capabilities): runner (needs exec and network)."; !strings.Contains(res.Content, want) {
		t.Errorf("skill_read_source does not say %q:\n%s", want, res.Content)
	}
	if sess.IsLoaded("runner") || e.loader.loads["runner"] != 0 {
		t.Error("reading the guide loaded the ungranted plugin")
	}
}
