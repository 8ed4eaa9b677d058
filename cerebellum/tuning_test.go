package cerebellum_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

func TestSetTuningPinsAndBudgetsWithoutReopening(t *testing.T) {
	e := newEnv(t)
	for i := range 6 {
		n := fmt.Sprintf("cap-%d", i)
		e.addWorkspace(n, skill(n, strings.Repeat("A long description of capability "+n+". ", 3), fmt.Sprintf("tool_%d", i)), true)
	}
	r := e.open()
	var reasons []string
	var mu sync.Mutex
	cancel := r.Subscribe(func(c cerebellum.Change) { mu.Lock(); reasons = append(reasons, c.Reason); mu.Unlock() })
	defer cancel()
	sess := r.NewSession("c", nil)
	wideIndex := r.Index(sess)

	if err := manage.New(r, manage.Options{}).SetTuning(cerebellum.Tuning{Pinned: []string{"cap-3", "cap-1", "cap-3", "not-installed"}, IndexBudget: cerebellum.MinIndexBudget}); err != nil {
		t.Fatal(err)
	}
	if got := r.LoadedNames(sess); !slices.Equal(got, []string{"tool-discovery", "cap-1", "cap-3"}) {
		t.Errorf("loaded names after pinning: %v", got)
	}
	if c := stateOf(t, r, "cap-1"); !c.Pinned {
		t.Error("cap-1 is not marked pinned in the new snapshot")
	}
	if got := r.UnknownPinned(); !slices.Equal(got, []string{"not-installed"}) {
		t.Errorf("unknown pinned: %v", got)
	}
	if got := r.Tuning(); !slices.Equal(got.Pinned, []string{"cap-1", "cap-3", "not-installed"}) || got.IndexBudget != cerebellum.MinIndexBudget {
		t.Errorf("tuning in force: %+v", got)
	}
	if narrow := r.Index(sess); len(narrow) >= len(wideIndex) {
		t.Errorf("the smaller index budget did not shrink the index (%d >= %d bytes)", len(narrow), len(wideIndex))
	}

	// A tool budget of one capability's schemas keeps only the most recent.
	one := 0
	for _, n := range []string{"cap-0", "cap-2", "cap-4"} {
		one = max(one, r.Snapshot().SchemaTokens(n))
	}
	if err := manage.New(r, manage.Options{}).SetTuning(cerebellum.Tuning{ToolBudget: one}); err != nil {
		t.Fatal(err)
	}
	if c := stateOf(t, r, "cap-1"); c.Pinned {
		t.Error("cap-1 is still pinned after unpinning")
	}
	for _, n := range []string{"cap-0", "cap-2", "cap-4"} {
		if _, err := r.Activate(sess, n); err != nil {
			t.Fatal(err)
		}
	}
	if got := sess.Loaded(); !slices.Equal(got, []string{"cap-4"}) {
		t.Errorf("loaded set under a tool budget of one capability: %v", got)
	}
	if got := r.Tuning().IndexBudget; got != cerebellum.DefaultIndexBudget {
		t.Errorf("index budget 0 gives %d; want the default %d", got, cerebellum.DefaultIndexBudget)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(reasons, []string{"tuning", "tuning"}) {
		t.Errorf("changes reported: %v", reasons)
	}
}

func TestSetTuningRejectsNegativeBudgets(t *testing.T) {
	r := newEnv(t).open()
	before := r.Tuning()
	for _, tu := range []cerebellum.Tuning{{IndexBudget: -1}, {ToolBudget: -5}} {
		if err := manage.New(r, manage.Options{}).SetTuning(tu); err == nil {
			t.Errorf("SetTuning(%+v) succeeded", tu)
		}
	}
	if got := r.Tuning(); got.IndexBudget != before.IndexBudget || got.ToolBudget != before.ToolBudget {
		t.Errorf("a rejected tuning changed the registry: %+v", got)
	}
}

func TestReloadRuntimesLoadsAfresh(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("one", skill("one", "One.", "one_go"), true)
	e.addWorkspace("two", skill("two", "Two.", "two_go"), true)
	r := e.open()
	ctx := context.Background()
	call := func(tool string) {
		t.Helper()
		if res, err := r.Call(ctx, nil, tool, nil); err != nil || res.IsError {
			t.Fatalf("%s: %+v %v", tool, res, err)
		}
	}
	counts := func(name string) (int, int) {
		e.loader.mu.Lock()
		defer e.loader.mu.Unlock()
		return e.loader.loads[name], e.loader.closes[name]
	}
	call("one_go")
	call("two_go")
	r.ReloadRuntimes("one")
	if l, c := counts("one"); l != 1 || c != 1 {
		t.Errorf("one after its reload: %d loads, %d closes; want 1, 1", l, c)
	}
	if l, c := counts("two"); l != 1 || c != 0 {
		t.Errorf("two after one's reload: %d loads, %d closes; want 1, 0", l, c)
	}
	call("one_go")
	if l, _ := counts("one"); l != 2 {
		t.Errorf("one was not loaded afresh: %d loads", l)
	}
	r.ReloadRuntimes()
	if _, c := counts("two"); c != 1 {
		t.Errorf("reloading all did not close two: %d closes", c)
	}
	r.ReloadRuntimes("not-loaded", "one") // a name without a runtime is fine
}

func TestReloadRuntimesForgetsLoadFailures(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("flaky", skill("flaky", "Flaky.", "flaky_go"), true)
	e.loader.fail["flaky"] = errors.New("the granted folder does not exist")
	r := e.open()
	if _, err := r.Call(context.Background(), nil, "flaky_go", nil); !errors.Is(err, cerebellum.ErrFailed) {
		t.Fatalf("first call: %v", err)
	}
	if c := stateOf(t, r, "flaky"); c.State != cerebellum.StateFailed {
		t.Fatalf("state after a failed load: %s", c.State)
	}
	e.loader.mu.Lock()
	delete(e.loader.fail, "flaky")
	e.loader.mu.Unlock()
	r.ReloadRuntimes("flaky")
	if c := stateOf(t, r, "flaky"); c.State != cerebellum.StateOK {
		t.Fatalf("state after reload: %s (%s)", c.State, c.Error)
	}
	if res, err := r.Call(context.Background(), nil, "flaky_go", nil); err != nil || res.IsError {
		t.Fatalf("call after reload: %+v %v", res, err)
	}
}

// blockingLoader's runtimes hold every call until release is closed, and
// say when a call has started.
type blockingLoader struct {
	started chan struct{}
	release chan struct{}
	mu      sync.Mutex
	loads   int
	closed  []int // load number of each closed runtime, in order
}

type blockingRuntime struct {
	l *blockingLoader
	n int
}

func (l *blockingLoader) Load(context.Context, cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.loads++
	return blockingRuntime{l, l.loads}, nil
}

func (b blockingRuntime) Call(ctx context.Context, tool string, _ json.RawMessage) (cerebellum.Result, error) {
	if b.n == 1 {
		b.l.started <- struct{}{}
		<-b.l.release
	}
	return cerebellum.Result{Content: fmt.Sprintf("%s from load %d", tool, b.n)}, nil
}

func (b blockingRuntime) Close() error {
	b.l.mu.Lock()
	b.l.closed = append(b.l.closed, b.n)
	b.l.mu.Unlock()
	return nil
}

// A reload while a call runs builds the new runtime for the next call and
// closes the old one only when the running call has returned.
func TestReloadWaitsForCallsInFlight(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("slow", skill("slow", "Slow.", "slow_go"), true)
	l := &blockingLoader{started: make(chan struct{}), release: make(chan struct{})}
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: l}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	type outcome struct {
		res cerebellum.Result
		err error
	}
	first := make(chan outcome, 1)
	go func() {
		res, err := r.Call(ctx, nil, "slow_go", nil)
		first <- outcome{res, err}
	}()
	<-l.started
	r.ReloadRuntimes("slow")
	l.mu.Lock()
	closedEarly := len(l.closed)
	l.mu.Unlock()
	if closedEarly != 0 {
		t.Fatal("the runtime was closed under a call in flight")
	}
	// The next call gets a fresh runtime while the first still runs.
	res, err := r.Call(ctx, nil, "slow_go", nil)
	if err != nil || res.Content != "slow_go from load 2" {
		t.Fatalf("call after reload: %+v %v", res, err)
	}
	close(l.release)
	o := <-first
	if o.err != nil || o.res.Content != "slow_go from load 1" {
		t.Fatalf("call in flight: %+v %v", o.res, o.err)
	}
	l.mu.Lock()
	closed := append([]int(nil), l.closed...)
	l.mu.Unlock()
	if !slices.Equal(closed, []int{1}) {
		t.Fatalf("closed runtimes after the call returned: %v; want [1]", closed)
	}
}
