package cerebellum_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/store"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// TestStatesSurviveReopen: enable/disable, grants and the Authored badge
// live in the workspace database and come back after a restart.
func TestStatesSurviveReopen(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("runner", "---\nname: runner\ndescription: R.\npermissions: [exec, network]\ntools:\n  - name: runner_go\n    description: Go.\n---\nx\n", true)
	e.addWorkspace("quiet", skill("quiet", "Quiet."), false)
	dbPath := filepath.Join(t.TempDir(), "wrasse.db")
	open := func() (*store.DB, *cerebellum.Registry) {
		db, err := store.Open(dbPath, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: db,
			Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
		if err != nil {
			t.Fatal(err)
		}
		return db, r
	}
	db, r := open()
	if err := manage.New(r, manage.Options{}).Enable("runner", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(r, manage.Options{}).Disable("quiet"); err != nil {
		t.Fatal(err)
	}
	r.Close()
	db.Close()

	db, r = open()
	defer db.Close()
	defer r.Close()
	runner, _ := r.Get("runner")
	quiet, _ := r.Get("quiet")
	if runner.State != cerebellum.StateOK || strings.Join(runner.Granted, ",") != "exec" {
		t.Fatalf("runner after reopen: %s %v", runner.State, runner.Granted)
	}
	if quiet.State != cerebellum.StateDisabled {
		t.Fatalf("quiet after reopen: %s", quiet.State)
	}
}
