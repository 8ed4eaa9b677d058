package cerebellum_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// checkingLoader counts full checks and source-only checks.
type checkingLoader struct {
	*fakeLoader
	mu           sync.Mutex
	checks, srcs map[string]int
	bad          map[string]error
}

func (l *checkingLoader) Check(_ context.Context, req cerebellum.LoadRequest) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.checks[req.Capability.Name]++
	return l.bad[req.Capability.Name]
}

func (l *checkingLoader) CheckSource(_ context.Context, req cerebellum.LoadRequest) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.srcs[req.Capability.Name]++
	return errors.New("plugin/main.go:5:2: import \"os/exec\" needs the exec permission")
}

func TestCheckPluginsRemembersVerdicts(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("good", skill("good", "Good.", "good_run"), true)
	e.addWorkspace("broken", skill("broken", "Broken.", "broken_run"), true)
	e.addWorkspace("needs", "---\nname: needs\ndescription: N.\npermissions: [exec]\ntools:\n  - name: needs_run\n    description: R.\n---\nx\n", true)
	cache := filepath.Join(t.TempDir(), "checks.json")
	l := &checkingLoader{fakeLoader: newFakeLoader(), checks: map[string]int{}, srcs: map[string]int{},
		bad: map[string]error{"broken": errors.New("plugin/main.go:3:1: expected declaration")}}
	open := func() *cerebellum.Registry {
		r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, CheckCache: cache,
			Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: l}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := open()
	manage.New(r, manage.Options{}).CheckPlugins(context.Background(), 2)
	state := func(r *cerebellum.Registry, name string) (cerebellum.State, string) {
		c, _ := r.Get(name)
		return c.State, c.Error
	}
	if s, _ := state(r, "good"); s != cerebellum.StateOK {
		t.Fatalf("good: %s", s)
	}
	if s, msg := state(r, "broken"); s != cerebellum.StateFailed || !strings.Contains(msg, "main.go:3:1") {
		t.Fatalf("broken: %s %s", s, msg)
	}
	// Without its grant the plugin is only read, never run, and says what it needs.
	if s, msg := state(r, "needs"); s != cerebellum.StateFailed || !strings.Contains(msg, "needs the exec permission") || l.checks["needs"] != 0 {
		t.Fatalf("needs: %s %s (full checks %d)", s, msg, l.checks["needs"])
	}
	// A new process remembers every verdict without checking again.
	r2 := open()
	manage.New(r2, manage.Options{}).CheckPlugins(context.Background(), 2)
	if l.checks["good"] != 1 || l.checks["broken"] != 1 || l.srcs["needs"] != 1 {
		t.Fatalf("checked again: %v %v", l.checks, l.srcs)
	}
	if s, _ := state(r2, "broken"); s != cerebellum.StateFailed {
		t.Fatal("remembered failure not applied")
	}
	// Granting changes the key: the plugin is checked for real now.
	if err := manage.New(r2, manage.Options{}).Enable("needs", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	manage.New(r2, manage.Options{}).CheckPlugins(context.Background(), 2)
	if s, _ := state(r2, "needs"); s != cerebellum.StateOK || l.checks["needs"] != 1 {
		t.Fatalf("after grant: %s, full checks %d", s, l.checks["needs"])
	}
}
