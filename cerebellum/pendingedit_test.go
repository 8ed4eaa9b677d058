package cerebellum_test

// Found by the session 5 attack review (/work/notes/s5-A.md, H1).

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

const staleSkill = "---\nname: stale\ndescription: Says which code runs.\npermissions: [exec]\ntools:\n  - name: stale_run\n    description: Says which code runs.\n---\nx\n"

func staleSrc(text string) string {
	return "package stale\n\nimport (\n\t\"context\"\n\n\t\"github.com/wrasse-app/wrasse/plugins/sdk\"\n)\n\n" +
		"func Init(env *sdk.Env) (*sdk.Plugin, error) {\n\tp := sdk.NewPlugin()\n" +
		"\tp.Handle(\"stale_run\", func(ctx context.Context, req *sdk.Request) (*sdk.Result, error) {\n\t\treturn sdk.Text(\"" + text + "\"), nil\n\t})\n\treturn p, nil\n}\n"
}

// grantedStale installs the stale plugin with its "granted code", applied
// and granted exec, and returns the registry and its folder.
func grantedStale(t *testing.T) (*cerebellum.Registry, string) {
	t.Helper()
	r := openWithHost(t)
	dir := filepath.Join(cerebellum.CapabilitiesDir(r.Workspace()), "stale")
	writeFile(t, filepath.Join(dir, "SKILL.md"), staleSkill)
	writeFile(t, filepath.Join(dir, "plugin", "main.go"), staleSrc("granted code"))
	if _, err := manage.New(r, manage.Options{}).Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(r, manage.Options{}).Enable("stale", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	return r, dir
}

// Grants are for one exact code and lapse when it changes. In the window
// a hand edit is only pending until the user applies it (Resync; no
// autoResync), so the snapshot still holds the old CodeHash and its
// grants. A load in that time (the first call, a settings change) must not
// run the edited, never-granted code with those grants. Found by session 5
// attack review (s5-A).
func TestPendingEditDoesNotRunWithOldGrants(t *testing.T) {
	ctx := context.Background()
	r, dir := grantedStale(t)
	// Not loaded yet; now the folder changes and nobody applies it.
	writeFile(t, filepath.Join(dir, "plugin", "main.go"), staleSrc("edited code"))
	if d, err := manage.New(r, manage.Options{}).Pending(); err != nil || len(d.Changed) == 0 {
		t.Fatalf("the edit is not pending: %+v, %v", d, err)
	}
	sess := r.NewSession("c", nil)
	res, err := r.Call(ctx, sess, "stale_run", json.RawMessage(`{}`))
	if err == nil && strings.Contains(res.Content, "edited code") {
		t.Fatalf("the pending, never granted edit ran with the grants given to the old code: %q", res.Content)
	}
	if !errors.Is(err, cerebellum.ErrChangedOnDisk) || !strings.Contains(err.Error(), "apply the changes (Resync)") {
		t.Fatalf("pending edit: %v; want ErrChangedOnDisk saying to apply it", err)
	}
	if h, ok := hint.Of(err); !ok || strings.Join(h.Command, " ") != "caps resync" {
		t.Errorf("hint %+v; want caps resync", h)
	}
	if c, _ := r.Get("stale"); c.State != cerebellum.StateOK {
		t.Errorf("a pending edit marked it %s (%s)", c.State, c.Error)
	}

	// Applied, the edit is new code: its grants lapse until given again.
	if _, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Call(ctx, sess, "stale_run", json.RawMessage(`{}`)); !errors.Is(err, cerebellum.ErrNotGranted) {
		t.Fatalf("after Resync: %v; want the grants lapsed", err)
	}
	if err := manage.New(r, manage.Options{}).Enable("stale", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Call(ctx, sess, "stale_run", json.RawMessage(`{}`)); err != nil || res.Content != "edited code" {
		t.Fatalf("granted again: %q, %v", res.Content, err)
	}
}

// The same through a reload: the plugin is loaded with the granted code,
// the folder changes (pending), and any state change (here the user
// granting again; also a settings change) drops the runtime; the next
// call must not load the edited code with the old grants.
func TestReloadAfterPendingEditDoesNotRunIt(t *testing.T) {
	ctx := context.Background()
	r, dir := grantedStale(t)
	sess := r.NewSession("c", nil)
	if res, err := r.Call(ctx, sess, "stale_run", json.RawMessage(`{}`)); err != nil || res.Content != "granted code" {
		t.Fatalf("granted: %q, %v", res.Content, err)
	}
	writeFile(t, filepath.Join(dir, "plugin", "main.go"), staleSrc("edited code"))
	if err := manage.New(r, manage.Options{}).Enable("stale", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	res, err := r.Call(ctx, sess, "stale_run", json.RawMessage(`{}`))
	if err == nil && strings.Contains(res.Content, "edited code") {
		t.Fatalf("the reload ran the pending, never granted edit with the old grants: %q", res.Content)
	}
}
