package cerebellum_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// QA (session 4): a capability loaded in a conversation, removed from disk
// and Resynced, then put back and Resynced again before the conversation's
// next request, came back loaded in that conversation (the window's loaded
// strip showed it gone, then back; its tools were sent to the model). With
// a request in between it stays unloaded. Resync promises "every
// conversation keeps its loaded set minus what disappeared", so the
// re-added capability must not be loaded until the model loads it again.
func TestRemovedThenReaddedCapabilityIsNotLoadedAgain(t *testing.T) {
	e := newEnv(t)
	md := skill("back", "Comes back.", "back_run")
	e.addWorkspace("back", md, true)
	r := e.open()
	sess := r.NewSession("c", nil)
	ctx := context.Background()
	if _, err := r.Call(ctx, sess, "back_run", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(r.LoadedNames(sess), "back") {
		t.Fatalf("back not loaded after its call: %v", r.LoadedNames(sess))
	}
	if err := os.RemoveAll(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "back")); err != nil {
		t.Fatal(err)
	}
	if d, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil || !slices.Equal(d.Removed, []string{"back"}) {
		t.Fatalf("resync after removal: %+v %v", d, err)
	}
	// No request of the conversation happens here (none asks for
	// LoadedNames with the live session).
	e.addWorkspace("back", md, true)
	if d, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil || !slices.Equal(d.Added, []string{"back"}) {
		t.Fatalf("resync after re-adding: %+v %v", d, err)
	}
	if names := r.LoadedNames(sess); slices.Contains(names, "back") {
		t.Errorf("loaded set after remove, Resync, re-add, Resync: %v; want it without back (it disappeared in between)", names)
	}
}

// A capability that disappears or stops being usable in any published
// snapshot leaves every conversation that had it loaded, whether the
// conversation's session is live (a running turn) or restored from its
// saved set (the next turn, the window's loaded strip), and stays out when
// it comes back, until the model loads it again.
func TestVanishedCapabilityLeavesLoadedSets(t *testing.T) {
	md := skill("back", "Comes back.", "back_run")
	folder := func(e *env) string { return filepath.Join(cerebellum.CapabilitiesDir(e.ws), "back") }
	type step func(t *testing.T, e *env, r *cerebellum.Registry)
	resync := func(t *testing.T, r *cerebellum.Registry) {
		t.Helper()
		if _, err := manage.New(r, manage.Options{}).Resync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(t *testing.T, e *env, r *cerebellum.Registry) {
		if err := os.RemoveAll(folder(e)); err != nil {
			t.Fatal(err)
		}
		resync(t, r)
	}
	readd := func(t *testing.T, e *env, r *cerebellum.Registry) { e.addWorkspace("back", md, true); resync(t, r) }
	breakIt := func(t *testing.T, e *env, r *cerebellum.Registry) {
		if err := os.WriteFile(filepath.Join(folder(e), "SKILL.md"), []byte("---\nname: [\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		resync(t, r)
	}
	fix := func(t *testing.T, e *env, r *cerebellum.Registry) {
		if err := os.WriteFile(filepath.Join(folder(e), "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
		resync(t, r)
	}
	disable := func(t *testing.T, _ *env, r *cerebellum.Registry) {
		if err := manage.New(r, manage.Options{}).Disable("back"); err != nil {
			t.Fatal(err)
		}
	}
	enable := func(t *testing.T, _ *env, r *cerebellum.Registry) {
		if err := manage.New(r, manage.Options{}).Enable("back", nil); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(t *testing.T, e *env, r *cerebellum.Registry) {
		if err := os.WriteFile(filepath.Join(folder(e), "SKILL.md"), []byte(skill("back", "Edited.", "back_run")), 0o644); err != nil {
			t.Fatal(err)
		}
		resync(t, r)
	}
	for _, tc := range []struct {
		name  string
		steps []step
		// restored: read the set through a new session made from the
		// saved one (as the next turn and the loaded strip do) instead of
		// the live session.
		restored bool
		want     bool // back loaded at the end
	}{
		{"remove, re-add: live session", []step{remove, readd}, false, false},
		{"remove, re-add: restored session", []step{remove, readd}, true, false},
		{"break, fix: live session", []step{breakIt, fix}, false, false},
		{"break, fix: restored session", []step{breakIt, fix}, true, false},
		{"disable, enable: live session", []step{disable, enable}, false, false},
		{"disable, enable: restored session", []step{disable, enable}, true, false},
		{"edit stays loaded: live", []step{edit}, false, true},
		{"edit stays loaded: restored", []step{edit}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.addWorkspace("back", md, true)
			r := e.open()
			var saved []string
			sess := r.NewSession("c", nil)
			sess.OnChange(func(l []string) { saved = slices.Clone(l) })
			if _, err := r.Call(context.Background(), sess, "back_run", []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(saved, "back") {
				t.Fatalf("saved set after the call: %v", saved)
			}
			for _, s := range tc.steps {
				s(t, e, r)
			}
			var names []string
			if tc.restored {
				names = r.LoadedNames(r.NewSession("c", saved))
			} else {
				names = r.LoadedNames(sess)
			}
			if got := slices.Contains(names, "back"); got != tc.want {
				t.Fatalf("back loaded = %v (%v), want %v", got, names, tc.want)
			}
			if tc.want {
				return
			}
			// The model loading it again brings it back, for good.
			if _, err := r.Call(context.Background(), sess, "back_run", []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
			if names := r.LoadedNames(r.NewSession("c", saved)); !slices.Contains(names, "back") {
				t.Fatalf("after loading it again: %v (saved %v)", names, saved)
			}
			if names := r.LoadedNames(sess); !slices.Contains(names, "back") {
				t.Fatalf("live session after loading it again: %v", names)
			}
		})
	}
}
