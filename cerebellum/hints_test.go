package cerebellum_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/hint"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// Errors a person can fix carry the fix as a hint (a command and a page);
// their text says it in words and pastes no command.
func TestEngineErrorsCarryHints(t *testing.T) {
	e := newEnv(t)
	e.addBuiltin("core-thing", "---\nname: core-thing\ndescription: C.\ncore: true\n---\nx\n", false)
	e.addBuiltin("official", "---\nname: official\ndescription: O.\n---\nx\n", false)
	e.addWorkspace("runner", "---\nname: runner\ndescription: R.\npermissions: [exec, network]\ntools:\n  - name: runner_go\n    description: Go.\n---\nx\n", true)
	e.addWorkspace("notes", skill("notes", "Notes.", "notes_add"), true)
	e.addWorkspace("gone", skill("gone", "Gone.", "gone_go"), true)
	e.loader.fail["runner"] = errors.New("plugin needs exec, which is not granted")
	r := e.open()
	ctx := context.Background()
	if err := manage.New(r, manage.Options{}).Disable("notes"); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(r, manage.Options{}).Remove(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	dup := filepath.Join(t.TempDir(), "notes.md")
	writeFile(t, dup, skill("notes", "Again."))

	_, activateErr := r.Activate(nil, "notes")
	_, callDisabledErr := r.Call(ctx, nil, "notes_add", nil)
	_, callUngrantedErr := r.Call(ctx, nil, "runner_go", nil)
	_, activateUngrantedErr := r.Activate(nil, "runner")
	_, installErr := manage.New(r, manage.Options{}).Install(ctx, dup, manage.InstallOptions{})
	cases := []struct {
		name string
		err  error
		is   error
		want hint.Hint
	}{
		{"activate disabled", activateErr, cerebellum.ErrDisabled,
			hint.Hint{Action: "Enable notes", Command: []string{"caps", "enable", "notes"}, Page: hint.PageCapabilities, Target: "notes"}},
		{"call disabled", callDisabledErr, cerebellum.ErrDisabled,
			hint.Hint{Action: "Enable notes", Command: []string{"caps", "enable", "notes"}, Page: hint.PageCapabilities, Target: "notes"}},
		{"load without grants", callUngrantedErr, cerebellum.ErrNotGranted,
			hint.Hint{Action: "Grant exec and network to runner", Command: []string{"caps", "enable", "runner", "--grant", "exec,network"}, Page: hint.PageCapability, Target: "runner"}},
		{"activate without grants", activateUngrantedErr, cerebellum.ErrNotGranted,
			hint.Hint{Action: "Grant exec and network to runner", Command: []string{"caps", "enable", "runner", "--grant", "exec,network"}, Page: hint.PageCapability, Target: "runner"}},
		{"already installed", installErr, cerebellum.ErrExists,
			hint.Hint{Action: "Replace the installed notes", Command: []string{"caps", "install", dup, "--replace"}, Page: hint.PageCapabilities, Target: "notes"}},
		{"remove a built-in", manage.New(r, manage.Options{}).Remove(ctx, "official"), cerebellum.ErrReadOnly,
			hint.Hint{Action: "Switch off official", Command: []string{"caps", "disable", "official"}, Page: hint.PageCapability, Target: "official"}},
		{"restore a misspelt name", manage.New(r, manage.Options{}).Restore(ctx, "gon"), cerebellum.ErrNotInTrash,
			hint.Hint{Action: "Restore gone", Command: []string{"caps", "restore", "gone"}, Page: hint.PageCapabilities, Target: "gone"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.is) {
				t.Fatalf("error %v is not %v", tc.err, tc.is)
			}
			if strings.Contains(tc.err.Error(), "wrasse ") || strings.Contains(tc.err.Error(), "--") {
				t.Errorf("the text pastes a command: %v", tc.err)
			}
			h, ok := hint.Of(tc.err)
			if !ok {
				t.Fatalf("no hint on %v", tc.err)
			}
			if h.Action != tc.want.Action || !slices.Equal(h.Command, tc.want.Command) || h.Page != tc.want.Page || h.Target != tc.want.Target {
				t.Errorf("hint = %+v; want %+v", h, tc.want)
			}
		})
	}
}

// Removing and disabling a core capability give one answer.
func TestCoreCapabilityOneAnswer(t *testing.T) {
	e := newEnv(t)
	e.addBuiltin("core-thing", "---\nname: core-thing\ndescription: C.\ncore: true\n---\nx\n", false)
	r := e.open()
	removeErr := manage.New(r, manage.Options{}).Remove(context.Background(), "core-thing")
	disableErr := manage.New(r, manage.Options{}).Disable("core-thing")
	for _, err := range []error{removeErr, disableErr} {
		if !errors.Is(err, cerebellum.ErrReadOnly) {
			t.Fatalf("error %v is not ErrReadOnly", err)
		}
	}
	if removeErr.Error() != disableErr.Error() || !strings.Contains(removeErr.Error(), "neither removed nor disabled") {
		t.Errorf("remove: %v\ndisable: %v", removeErr, disableErr)
	}
}

func TestRestoreWithNothingRemoved(t *testing.T) {
	r := newEnv(t).open()
	err := manage.New(r, manage.Options{}).Restore(context.Background(), "anything")
	if !errors.Is(err, cerebellum.ErrNotInTrash) || !strings.Contains(err.Error(), "nothing is restorable now") {
		t.Errorf("restore with an empty trash: %v", err)
	}
	if _, ok := hint.Of(err); ok {
		t.Errorf("a hint with nothing to restore: %v", err)
	}
}
