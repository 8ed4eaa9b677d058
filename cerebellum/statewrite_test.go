package cerebellum_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// Concurrent state changes of many capabilities, and of one capability's
// grants, are each a read-modify-write under one lock: none is lost.
func TestConcurrentStateChangesLoseNothing(t *testing.T) {
	e := newEnv(t)
	perms := skillmd.KnownPermissions
	const granted, toggled, revoked = 8, 8, 4
	md := func(name string) string {
		return fmt.Sprintf("---\nname: %s\ndescription: D.\npermissions: [%s]\ntools:\n  - name: %s_go\n    description: Go.\n---\nx\n",
			name, strings.Join(perms, ", "), name)
	}
	for i := range granted {
		e.addWorkspace(fmt.Sprintf("grant-%d", i), md(fmt.Sprintf("grant-%d", i)), true)
	}
	for i := range toggled {
		e.addWorkspace(fmt.Sprintf("toggle-%d", i), md(fmt.Sprintf("toggle-%d", i)), true)
	}
	for i := range revoked {
		e.addWorkspace(fmt.Sprintf("revoke-%d", i), md(fmt.Sprintf("revoke-%d", i)), true)
	}
	// A store that is safe on its own, as the workspace database is, so a
	// lost update shows in the checks below and not only under -race.
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: &lockedStates{m: cerebellum.MemoryStates{}},
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	for i := range revoked {
		if err := manage.New(r, manage.Options{}).Enable(fmt.Sprintf("revoke-%d", i), perms); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	run := func(fn func() error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fn(); err != nil {
				t.Error(err)
			}
		}()
	}
	// 8×4 grants of one permission each, 8 disables, 4×(len(perms)-1)
	// revokes of one permission each: 52 goroutines.
	for i := range granted {
		for _, p := range perms {
			run(func() error { return manage.New(r, manage.Options{}).Enable(fmt.Sprintf("grant-%d", i), []string{p}) })
		}
	}
	for i := range toggled {
		run(func() error { return manage.New(r, manage.Options{}).Disable(fmt.Sprintf("toggle-%d", i)) })
	}
	for i := range revoked {
		for _, p := range perms[1:] {
			run(func() error { return manage.New(r, manage.Options{}).Revoke(fmt.Sprintf("revoke-%d", i), []string{p}) })
		}
	}
	wg.Wait()

	check := func(where string, c *cerebellum.Capability, st cerebellum.CapState, wantDisabled bool, wantGrants []string) {
		t.Helper()
		if st.Disabled != wantDisabled || !slices.Equal(st.Granted, wantGrants) {
			t.Errorf("%s %s: stored disabled=%v granted=%v; want disabled=%v granted=%v", where, c.Name, st.Disabled, st.Granted, wantDisabled, wantGrants)
		}
		if (c.State == cerebellum.StateDisabled) != wantDisabled || !slices.Equal(c.Granted, wantGrants) {
			t.Errorf("%s %s: snapshot state=%s granted=%v; want disabled=%v granted=%v", where, c.Name, c.State, c.Granted, wantDisabled, wantGrants)
		}
	}
	all := slices.Sorted(slices.Values(perms))
	for _, c := range r.List() {
		st, err := manage.New(r, manage.Options{}).State(c.Name)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(c.Folder, "grant-"):
			check("granted", c, st, false, all)
		case strings.HasPrefix(c.Folder, "toggle-"):
			check("toggled", c, st, true, nil)
		case strings.HasPrefix(c.Folder, "revoke-"):
			check("revoked", c, st, false, perms[:1])
		}
	}
}

type lockedStates struct {
	mu sync.Mutex
	m  cerebellum.MemoryStates
}

func (l *lockedStates) States() (map[string]cerebellum.CapState, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.States()
}

func (l *lockedStates) SetState(name string, s cerebellum.CapState) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.SetState(name, s)
}

func (l *lockedStates) DeleteState(name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.DeleteState(name)
}
