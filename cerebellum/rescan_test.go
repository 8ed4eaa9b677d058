package cerebellum_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/captest"
	"github.com/wrasse-app/wrasse/cerebellum/fsclocktest"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// recordHandler keeps every log record, to count them.
type recordHandler struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

// count returns how many records have this message, and all records.
func (h *recordHandler) count(msg string) (n, all int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.records {
		if r.Message == msg {
			n++
		}
	}
	return n, len(h.records)
}

// failingChecker fails the check of every plugin.
type failingChecker struct {
	*fakeLoader
	mu     sync.Mutex
	checks int
}

func (l *failingChecker) Check(_ context.Context, req cerebellum.LoadRequest) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.checks++
	return fmt.Errorf("plugin/main.go:3:12: %s: expected ')'", req.Capability.Name)
}

// TestBrokenPluginsLoggedOncePerChange: 400 plugins that fail their check
// are published in one snapshot per pass and logged once each; a restart
// with the same failures logs one summary line, and an edit of one of them
// logs that one again.
func TestBrokenPluginsLoggedOncePerChange(t *testing.T) {
	const broken = 400
	ws := t.TempDir()
	caps := captest.Generate(broken, broken, 7)
	if err := captest.Write(cerebellum.CapabilitiesDir(ws), caps); err != nil {
		t.Fatal(err)
	}
	cacheDir := t.TempDir()
	loader := &failingChecker{fakeLoader: newFakeLoader()}
	open := func(h *recordHandler) (*cerebellum.Registry, *int) {
		r, err := cerebellum.Open(cerebellum.Options{Workspace: ws, Logger: slog.New(h),
			ManifestCache: filepath.Join(cacheDir, "manifests"), CheckCache: filepath.Join(cacheDir, "checks.json"),
			Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: loader}})
		if err != nil {
			t.Fatal(err)
		}
		failures := new(int)
		var mu sync.Mutex
		r.Subscribe(func(c cerebellum.Change) {
			if c.Reason == "failure" {
				mu.Lock()
				*failures++
				mu.Unlock()
			}
		})
		return r, failures
	}
	countFailed := func(r *cerebellum.Registry) int {
		n := 0
		for _, c := range r.List() {
			if c.State == cerebellum.StateFailed {
				n++
			}
		}
		return n
	}

	first := &recordHandler{}
	r, snaps := open(first)
	manage.New(r, manage.Options{}).CheckPlugins(context.Background(), 2)
	if got := countFailed(r); got != broken {
		t.Fatalf("%d failed after the check, want %d", got, broken)
	}
	if *snaps != 1 {
		t.Fatalf("the check published %d failure snapshots, want 1 for the whole pass", *snaps)
	}
	if n, all := first.count("capability failed"); n != broken || all != broken {
		t.Fatalf("first start logged %d failures in %d lines, want %d in %d", n, all, broken, broken)
	}
	// Checking again changes nothing and logs nothing.
	manage.New(r, manage.Options{}).CheckPlugins(context.Background(), 2)
	if _, all := first.count("capability failed"); all != broken {
		t.Fatalf("a second pass logged %d more lines", all-broken)
	}
	r.Close()

	second := &recordHandler{}
	r, snaps = open(second)
	manage.New(r, manage.Options{}).CheckPlugins(context.Background(), 2)
	if got := countFailed(r); got != broken || *snaps != 0 {
		t.Fatalf("restart: %d failed, %d failure snapshots after Open; want %d failed from the remembered verdicts at Open, none after", got, *snaps, broken)
	}
	if n, all := second.count("capability failed"); n != 0 || all > 1 {
		t.Fatalf("restart with the same failures logged %d failures in %d lines, want none and at most a summary", n, all)
	}
	if loader.checks != broken {
		t.Fatalf("%d checks, want %d: verdicts are remembered", loader.checks, broken)
	}

	// An edit changes one failure's state: that one is logged again.
	edited := caps[0]
	src := filepath.Join(cerebellum.CapabilitiesDir(ws), edited.Name, "plugin", "main.go")
	if err := os.WriteFile(src, []byte(edited.Plugin+"\n// edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := manage.New(r, manage.Options{}).ResyncFolders(context.Background(), []string{edited.Name}); err != nil {
		t.Fatal(err)
	}
	manage.New(r, manage.Options{}).CheckPlugins(context.Background(), 2)
	if got := countFailed(r); got != broken {
		t.Fatalf("%d failed after the edit and check, want %d", got, broken)
	}
	if n, _ := second.count("capability no longer failing"); n != 1 {
		t.Fatalf("recovery of the edited plugin logged %d times, want once", n)
	}
	if n, _ := second.count("capability failed"); n != 1 {
		t.Fatalf("the edited plugin's new failure logged %d times, want once", n)
	}
	r.Close()
}

// TestResyncFolders: a folder Resync reads only the folders named and
// reports edits, additions and removals as a full Resync would;
// PendingFolders reports without applying and remembers what it noticed.
func TestResyncFolders(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("alpha", skill("alpha", "A."), false)
	e.addWorkspace("beta", skill("beta", "B."), false)
	e.addWorkspace("gamma", skill("gamma", "G."), false)
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, ManifestCache: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if d, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil || !d.Empty() {
		t.Fatalf("first resync %+v %v", d, err)
	}
	e.addWorkspace("beta", skill("beta", "B edited."), false)
	e.addWorkspace("delta", skill("delta", "D."), false)
	if err := os.RemoveAll(filepath.Join(cerebellum.CapabilitiesDir(e.ws), "gamma")); err != nil {
		t.Fatal(err)
	}
	// Pending, one folder at a time: what was noticed before still counts.
	if d, err := manage.New(r, manage.Options{}).PendingFolders([]string{"beta"}); err != nil || strings.Join(d.Changed, ",") != "beta" || len(d.Added)+len(d.Removed) != 0 {
		t.Fatalf("pending beta: %+v %v", d, err)
	}
	d, err := manage.New(r, manage.Options{}).PendingFolders([]string{"delta", ".hidden", "_x"})
	if err != nil || strings.Join(d.Changed, ",") != "beta" || strings.Join(d.Added, ",") != "delta" {
		t.Fatalf("pending beta+delta: %+v %v", d, err)
	}
	if c, _ := r.Get("beta"); c.Description() != "B." {
		t.Fatal("PendingFolders applied a change")
	}
	d, err = manage.New(r, manage.Options{}).ResyncFolders(ctx, []string{"gamma"})
	if err != nil || strings.Join(d.Changed, ",") != "beta" || strings.Join(d.Added, ",") != "delta" || strings.Join(d.Removed, ",") != "gamma" {
		t.Fatalf("resync: %+v %v", d, err)
	}
	if c, _ := r.Get("beta"); c.Description() != "B edited." {
		t.Fatalf("beta not applied: %q", c.Description())
	}
	var folders []string
	for _, c := range r.List() {
		if c.Source == cerebellum.SourceWorkspace {
			folders = append(folders, c.Folder)
		}
	}
	if got := strings.Join(folders, ","); got != "alpha,beta,delta" {
		t.Fatalf("workspace folders %s, want alpha,beta,delta in order", got)
	}
	if d, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil || !d.Empty() {
		t.Fatalf("a full Resync after the folder one found %+v %v", d, err)
	}
}

// TestStatCacheSeesEveryEdit: a folder whose files are old is served from
// the cache, and every kind of edit is still seen: content of the same size
// with the modification time put back (the change time catches it on
// Linux), a new file, a removed file.
func TestStatCacheSeesEveryEdit(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("notes", skill("notes", "First."), false)
	dir := filepath.Join(cerebellum.CapabilitiesDir(e.ws), "notes")
	old := time.Now().Add(-time.Hour)
	age := func() {
		t.Helper()
		filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
			if err == nil {
				err = os.Chtimes(p, old, old)
			}
			return err
		})
	}
	age()
	cache := filepath.Join(t.TempDir(), "cache")
	open := func() *cerebellum.Capability {
		t.Helper()
		r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, ManifestCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		c, err := r.Get("notes")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	first := open()
	if c := open(); c.Hash != first.Hash || c.Description() != "First." {
		t.Fatalf("cached open differs: %s %q", c.Hash, c.Description())
	}
	for _, tc := range []struct {
		name string
		edit func() error
		want func(c *cerebellum.Capability) bool
	}{
		{"same size, time put back", func() error {
			if runtime.GOOS != "linux" {
				// Only Linux's stat gives the change time the cache compares.
				return nil
			}
			return os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill("notes", "Other.")), 0o644)
		}, func(c *cerebellum.Capability) bool { return runtime.GOOS != "linux" || c.Description() == "Other." }},
		{"new file", func() error {
			return os.WriteFile(filepath.Join(dir, "extra.txt"), []byte("x"), 0o644)
		}, func(c *cerebellum.Capability) bool { return strings.Contains(strings.Join(c.Files, ","), "extra.txt") }},
		{"removed file", func() error {
			return os.Remove(filepath.Join(dir, "extra.txt"))
		}, func(c *cerebellum.Capability) bool { return !strings.Contains(strings.Join(c.Files, ","), "extra.txt") }},
	} {
		// The edit's change time must differ from the cached one.
		fsclocktest.WaitChangeTick(t, filepath.Join(dir, "SKILL.md"))
		if err := tc.edit(); err != nil {
			t.Fatal(err)
		}
		age()
		if c := open(); !tc.want(c) {
			t.Errorf("%s: not seen through the cache: %q %v", tc.name, c.Description(), c.Files)
		}
	}
}

// verifiedTree is a built-in tree that says which plugins were verified.
type verifiedTree struct {
	fstest.MapFS
	hashes map[string]string
}

func (v verifiedTree) Verified() map[string]string { return v.hashes }

// TestVerifiedBuiltinsAreNotChecked: a built-in plugin whose code matches
// its build-time verdict is trusted without a check; one whose code differs
// is checked as before.
func TestVerifiedBuiltinsAreNotChecked(t *testing.T) {
	e := newEnv(t)
	e.addBuiltin("tidy", skill("tidy", "T.", "tidy_run"), true)
	e.addBuiltin("messy", skill("messy", "M.", "messy_run"), true)
	probe, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin})
	if err != nil {
		t.Fatal(err)
	}
	tidy, _ := probe.Get("tidy")
	tree := verifiedTree{MapFS: e.builtin, hashes: map[string]string{"tidy": tidy.CodeHash, "messy": "0000000000000000"}}
	l := &checkingLoader{fakeLoader: newFakeLoader(), checks: map[string]int{}, srcs: map[string]int{}, bad: map[string]error{"messy": errors.New("does not build")}}
	r, err := cerebellum.Open(cerebellum.Options{Builtin: tree, Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: l}})
	if err != nil {
		t.Fatal(err)
	}
	manage.New(r, manage.Options{}).CheckPlugins(context.Background(), 2)
	if l.checks["tidy"] != 0 || l.checks["messy"] != 1 {
		t.Fatalf("checks %v: want none of the verified plugin and one of the changed one", l.checks)
	}
	if c, _ := r.Get("messy"); c.State != cerebellum.StateFailed {
		t.Fatalf("messy: %s", c.State)
	}
}

// TestResyncWithNothingChangedKeepsTheSnapshot: a Resync that finds the
// same folders and stored states publishes nothing new; a state stored
// behind the registry's back (as install does before its Resync) is seen.
func TestResyncWithNothingChangedKeepsTheSnapshot(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("alpha", skill("alpha", "A."), false)
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, ManifestCache: filepath.Join(t.TempDir(), "cache")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	before := r.Snapshot()
	if d, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil || !d.Empty() {
		t.Fatalf("resync %+v %v", d, err)
	}
	if d, err := manage.New(r, manage.Options{}).ResyncFolders(ctx, []string{"alpha"}); err != nil || !d.Empty() {
		t.Fatalf("folder resync %+v %v", d, err)
	}
	if r.Snapshot() != before {
		t.Fatal("a Resync with nothing changed published a new snapshot")
	}
	e.states["alpha"] = cerebellum.CapState{Disabled: true}
	if _, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil {
		t.Fatal(err)
	}
	if c, _ := r.Get("alpha"); c.State != cerebellum.StateDisabled {
		t.Fatalf("a stored state was not applied by Resync: %s", c.State)
	}
}
