package cerebellum_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// checkLoader is the fake loader that is also a Checker and SourceChecker,
// recording what was checked and with which grants.
type checkLoader struct {
	*fakeLoader
	mu      sync.Mutex
	checks  map[string]int
	sources map[string][]string // grants each source check was given
}

func newCheckLoader() *checkLoader {
	return &checkLoader{fakeLoader: newFakeLoader(), checks: map[string]int{}, sources: map[string][]string{}}
}

func (l *checkLoader) Check(_ context.Context, req cerebellum.LoadRequest) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.checks[req.Capability.Name]++
	return nil
}

func (l *checkLoader) CheckSource(_ context.Context, req cerebellum.LoadRequest) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sources[req.Capability.Name] = slices.Clone(req.Granted)
	return nil
}

func (l *checkLoader) ran(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fakeLoader.mu.Lock()
	defer l.fakeLoader.mu.Unlock()
	return l.loads[name] + l.checks[name]
}

const (
	attackRunner = "---\nname: runner\ndescription: Runs builds for the project.\npermissions: [exec, network]\n" +
		"tools:\n  - name: runner_go\n    description: Builds Go.\n---\nRun builds.\n"
	attackGuide = "---\nname: howto\ndescription: How to build the project.\nallowed-tools: [runner_go, runner]\n---\nUse runner_go.\n"
)

// openAttack opens a registry over e with l as the plugin loader.
func openAttack(t *testing.T, e *env, l cerebellum.Loader) *cerebellum.Registry {
	t.Helper()
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, Pinned: e.pinned,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: l}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// Every way into the registry the model or the CLI has, tried on a plugin
// with none and then part of its grants (pinned in config.json too, and
// named by a guide's allowed-tools): none loads or checks-by-running it,
// none marks it failed, and the conversation never counts it loaded.
// CheckPlugins checks its source only, against what it declares.
func TestUngrantedPluginNoPathRunsIt(t *testing.T) {
	for _, pinned := range []bool{false, true} {
		e := newEnv(t)
		e.addWorkspace("runner", attackRunner, true)
		e.addWorkspace("howto", attackGuide, false)
		if pinned {
			e.pinned = []string{"runner"}
		}
		l := newCheckLoader()
		r := openAttack(t, e, l)
		ctx := context.Background()
		for _, grant := range [][]string{nil, {"exec"}} {
			if grant != nil {
				if err := manage.New(r, manage.Options{}).Enable("runner", grant); err != nil {
					t.Fatal(err)
				}
			}
			sess := r.NewSession("c", nil)
			calls := []struct{ tool, args string }{
				{"tool_search", `{"query":"runner"}`},
				{"tool_search", `{"query":"runner_go"}`},
				{"tool_search", `{"query":"runs builds for the project"}`},
				{"tool_activate", `{"capability":"runner"}`},
				{"tool_activate", `{"capability":"Runner"}`},
				{"skill_read_source", `{"capability":"howto"}`},
				{"skill_read_source", `{"capability":"runner"}`},
				{"tool_activate", `{"capability":"howto"}`},
				{"runner_go", `{}`},
				{"RUNNER_GO", `{}`},
			}
			for _, c := range calls {
				res, err := r.Call(ctx, sess, c.tool, json.RawMessage(c.args))
				if c.tool == "runner_go" && !errors.Is(err, cerebellum.ErrNotGranted) {
					t.Errorf("pinned=%v grant=%v: %s: %v; want ErrNotGranted", pinned, grant, c.tool, err)
				}
				if strings.Contains(res.Content, "runner_go {}") {
					t.Errorf("pinned=%v grant=%v: %s %s reached the plugin: %q", pinned, grant, c.tool, c.args, res.Content)
				}
				if strings.Contains(res.Content, "loaded and callable now: runner_go") {
					t.Errorf("pinned=%v grant=%v: %s says the ungranted tool is callable: %q", pinned, grant, c.tool, res.Content)
				}
			}
			if _, err := r.Activate(sess, "runner"); !errors.Is(err, cerebellum.ErrNotGranted) {
				t.Errorf("pinned=%v grant=%v: Activate: %v", pinned, grant, err)
			}
			if sess.IsLoaded("runner") {
				t.Errorf("pinned=%v grant=%v: the conversation counts the ungranted plugin loaded", pinned, grant)
			}
			manage.New(r, manage.Options{}).CheckPlugins(ctx, 2)
			if n := l.ran("runner"); n != 0 {
				t.Fatalf("pinned=%v grant=%v: the plugin was loaded or run-checked %d times before all its grants", pinned, grant, n)
			}
			l.mu.Lock()
			got := l.sources["runner"]
			l.mu.Unlock()
			if !slices.Equal(got, []string{"exec", "network"}) {
				t.Errorf("pinned=%v grant=%v: source checked with grants %v; want what it declares", pinned, grant, got)
			}
			if c := stateOf(t, r, "runner"); c.State != cerebellum.StateOK {
				t.Errorf("pinned=%v grant=%v: state %s %q; an ungranted plugin is not failed", pinned, grant, c.State, c.Error)
			}
		}
	}
}

// Grants are for one code: after the user grants everything, an edit that
// adds a permission, or one that changes the code, or breaks SKILL.md
// leaves the plugin unloaded once applied; revoking closes what was loaded.
// Removing the permission line makes it run with no grants at all.
func TestGrantsAfterEdits(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.addWorkspace("runner", attackRunner, true)
	l := newCheckLoader()
	r := openAttack(t, e, l)
	dir := filepath.Join(cerebellum.CapabilitiesDir(e.ws), "runner")
	grantAll := func() {
		t.Helper()
		if err := manage.New(r, manage.Options{}).Enable("runner", []string{"exec", "network"}); err != nil {
			t.Fatal(err)
		}
	}
	call := func() error {
		_, err := r.Call(ctx, r.NewSession("c", nil), "runner_go", json.RawMessage(`{}`))
		return err
	}
	grantAll()
	if err := call(); err != nil {
		t.Fatalf("granted: %v", err)
	}
	if err := manage.New(r, manage.Options{}).Revoke("runner", []string{"network"}); err != nil {
		t.Fatal(err)
	}
	if l.closes["runner"] != 1 {
		t.Errorf("revoking left the loaded plugin running (%d closes)", l.closes["runner"])
	}
	if err := call(); !errors.Is(err, cerebellum.ErrNotGranted) {
		t.Errorf("after revoking network: %v; want ErrNotGranted", err)
	}
	grantAll()
	loads := l.loads["runner"]

	// A SKILL.md that does not parse declares no tools: the call finds none.
	edits := []struct {
		name, skill, src string
		want             error
	}{
		{"adds a permission", strings.Replace(attackRunner, "[exec, network]", "[exec, network, files]", 1), "", cerebellum.ErrNotGranted},
		{"changes the code", "", pluginSrc + "\n// changed\n", cerebellum.ErrNotGranted},
		{"breaks SKILL.md", "---\nname: runner\npermissions: [exec\n---\n", "", cerebellum.ErrUnknownTool},
		{"case trick", strings.Replace(attackRunner, "[exec, network]", "[EXEC, Network]", 1), "", cerebellum.ErrUnknownTool},
	}
	for _, ed := range edits {
		if ed.skill != "" {
			writeFile(t, filepath.Join(dir, "SKILL.md"), ed.skill)
		}
		if ed.src != "" {
			writeFile(t, filepath.Join(dir, "plugin", "main.go"), ed.src)
		}
		if _, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil {
			t.Fatal(err)
		}
		if err := call(); !errors.Is(err, ed.want) {
			t.Errorf("%s: %v; want %v", ed.name, err, ed.want)
		}
		if l.loads["runner"] != loads {
			t.Fatalf("%s: the edited plugin was loaded with the grants of the old code", ed.name)
		}
		// Put the granted code back; its grants lapsed with the edit.
		writeFile(t, filepath.Join(dir, "SKILL.md"), attackRunner)
		writeFile(t, filepath.Join(dir, "plugin", "main.go"), pluginSrc)
		if _, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil {
			t.Fatal(err)
		}
		grantAll()
	}

	// Without the permission line it declares nothing: it runs, granted
	// nothing (the old grants were for the old SKILL.md).
	writeFile(t, filepath.Join(dir, "SKILL.md"), strings.Replace(attackRunner, "permissions: [exec, network]\n", "", 1))
	if _, err := manage.New(r, manage.Options{}).Resync(ctx); err != nil {
		t.Fatal(err)
	}
	if c := stateOf(t, r, "runner"); len(c.Granted) != 0 {
		t.Errorf("granted %v after the permission line went; want nothing", c.Granted)
	}
}

// A guide, or an MCP capability, declaring permissions runs no plugin
// code: a guide with plugin/ sources but no tools is never loaded.
func TestGuideWithPermissionsAndSourceNeverLoads(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("sneaky", "---\nname: sneaky\ndescription: Sneaky guide.\npermissions: [exec]\n---\nRead me.\n", true)
	l := newCheckLoader()
	r := openAttack(t, e, l)
	sess := r.NewSession("c", nil)
	for _, c := range []struct{ tool, args string }{
		{"skill_read_source", `{"capability":"sneaky"}`},
		{"tool_activate", `{"capability":"sneaky"}`},
		{"tool_search", `{"query":"sneaky"}`},
	} {
		if _, err := r.Call(context.Background(), sess, c.tool, json.RawMessage(c.args)); err != nil && !errors.Is(err, cerebellum.ErrNotGranted) {
			t.Logf("%s: %v", c.tool, err)
		}
	}
	manage.New(r, manage.Options{}).CheckPlugins(context.Background(), 2)
	if n := l.ran("sneaky"); n != 0 {
		t.Errorf("a guide's plugin/ source was loaded %d times", n)
	}
}
