package cerebellum_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// TestAppliedStatePersists: a Resync appends what it changed to the
// applied-state file, and a registry opened later (a new process) diffs
// against the state the last Resync applied, whether the file was written
// whole, appended to, in the older one-object form, or torn at its end;
// appending stops growing the file past about one entry per capability.
func TestAppliedStatePersists(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	for _, f := range []string{"alpha", "bravo", "charlie"} {
		e.addWorkspace(f, skill(f, "Version 0."), false)
	}
	applied := filepath.Join(t.TempDir(), "applied.json")
	open := func() *cerebellum.Registry {
		r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, AppliedState: applied,
			ManifestCache: filepath.Join(filepath.Dir(applied), "cache")})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	resync := func(r *cerebellum.Registry, folders ...string) cerebellum.Diff {
		t.Helper()
		d, err := manage.New(r, manage.Options{}).ResyncFolders(ctx, folders)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	r := open()
	e.addWorkspace("bravo", skill("bravo", "Version 1."), false)
	if d := resync(r, "bravo"); strings.Join(d.Changed, ",") != "bravo" {
		t.Fatalf("edit bravo: %+v", d)
	}
	if data, _ := os.ReadFile(applied); bytes.Count(data, []byte("\n")) != 1 {
		t.Fatalf("one edit should append one line to the whole state:\n%s", data)
	}
	// Edited and removed while no Wrasse runs.
	e.addWorkspace("charlie", skill("charlie", "Version 1."), false)
	if err := os.RemoveAll(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "alpha")); err != nil {
		t.Fatal(err)
	}
	r.Close()
	r = open()
	d := resync(r)
	if strings.Join(d.Changed, ",") != "charlie" || strings.Join(d.Removed, ",") != "alpha" || !strings.Contains(strings.Join(d.Unchanged, ","), "bravo") {
		t.Fatalf("a new process should see the edits since the last Resync: %+v", d)
	}
	r.Close()

	// The older form: one JSON object, here one that predates charlie's edit.
	old := map[string]string{}
	for _, c := range open().List() {
		old[c.Name] = c.Hash
	}
	old["charlie"] = "an older hash"
	data, _ := json.Marshal(old)
	if err := os.WriteFile(applied, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r = open()
	if d := resync(r); strings.Join(d.Changed, ",") != "charlie" || len(d.Added)+len(d.Removed) != 0 {
		t.Fatalf("against the one-object file: %+v", d)
	}
	r.Close()

	// A torn last line is ignored; what it would have said is reported again.
	e.addWorkspace("delta", skill("delta", "Version 0."), false)
	r = open()
	if d := resync(r, "delta"); strings.Join(d.Added, ",") != "delta" {
		t.Fatalf("add delta: %+v", d)
	}
	r.Close()
	data, _ = os.ReadFile(applied)
	cut := bytes.LastIndexByte(data, '\n')
	if err := os.WriteFile(applied, append(data[:cut+1], `{"delta":"ab`...), 0o600); err != nil {
		t.Fatal(err)
	}
	r = open()
	if d := resync(r); strings.Join(d.Added, ",") != "delta" {
		t.Fatalf("after a torn line: %+v", d)
	}
	// That save wrote the file whole again.
	if data, _ := os.ReadFile(applied); bytes.Count(data, []byte("\n")) != 0 {
		t.Fatalf("a torn file should be written whole on the next save:\n%s", data)
	}

	// Many edits: the file is written whole again now and then.
	for i := range 150 {
		e.addWorkspace("bravo", skill("bravo", fmt.Sprintf("Version %d.", i+2)), false)
		if d := resync(r, "bravo"); strings.Join(d.Changed, ",") != "bravo" {
			t.Fatalf("edit %d: %+v", i, d)
		}
	}
	if data, _ := os.ReadFile(applied); bytes.Count(data, []byte("\n")) > 64 {
		t.Fatalf("150 edits left %d appended lines", bytes.Count(data, []byte("\n")))
	}
	r.Close()
	r = open()
	defer r.Close()
	if d := resync(r); !d.Empty() {
		t.Fatalf("after reopening, nothing changed since the last Resync: %+v", d)
	}
}

// TestAppliedStateFirstUse: Open reads the applied state only when a Resync
// or Pending needs it, but without a file it still saves the state it
// opened with, so edits made before the next process starts are reported.
func TestAppliedStateFirstUse(t *testing.T) {
	e := newEnv(t)
	for _, f := range []string{"alpha", "bravo"} {
		e.addWorkspace(f, skill(f, "Version 0."), false)
	}
	applied := filepath.Join(t.TempDir(), "applied.json")
	open := func() *cerebellum.Registry {
		t.Helper()
		r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, AppliedState: applied,
			ManifestCache: filepath.Join(filepath.Dir(applied), "cache")})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	open().Close()
	if _, err := os.Stat(applied); err != nil {
		t.Fatalf("Open without an applied state should save the one it opened with: %v", err)
	}
	e.addWorkspace("alpha", skill("alpha", "Version 1."), false)
	for _, c := range []struct {
		name    string
		pending func(*cerebellum.Registry) (cerebellum.Diff, error)
	}{
		{"Pending", func(r *cerebellum.Registry) (cerebellum.Diff, error) {
			return manage.New(r, manage.Options{}).Pending()
		}},
		{"PendingFolders", func(r *cerebellum.Registry) (cerebellum.Diff, error) {
			return manage.New(r, manage.Options{}).PendingFolders([]string{"alpha"})
		}},
		{"Resync", func(r *cerebellum.Registry) (cerebellum.Diff, error) {
			return manage.New(r, manage.Options{}).Resync(context.Background())
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := open()
			defer r.Close()
			d, err := c.pending(r)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(d.Changed, ",") != "alpha" || len(d.Added)+len(d.Removed) != 0 {
				t.Fatalf("the edit made while no registry ran: %+v", d)
			}
		})
	}
}
