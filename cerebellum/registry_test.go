package cerebellum_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
)

// skill renders a SKILL.md with the given name, description and tool names.
func skill(name, desc string, tools ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\n", name, desc)
	if len(tools) > 0 {
		b.WriteString("tools:\n")
		for _, t := range tools {
			fmt.Fprintf(&b, "  - name: %s\n    description: Does %s.\n    parameters:\n      type: object\n      properties:\n        x: {type: string}\n", t, t)
		}
	}
	b.WriteString("---\n# " + name + "\n\nInstructions.\n")
	return b.String()
}

const pluginSrc = "package p\n\n// Init is a stand-in; tests use a fake loader.\nfunc Init() {}\n"

// fakeLoader serves every tool by echoing its name and arguments.
type fakeLoader struct {
	mu     sync.Mutex
	loads  map[string]int
	closes map[string]int
	fail   map[string]error
}

func newFakeLoader() *fakeLoader {
	return &fakeLoader{loads: map[string]int{}, closes: map[string]int{}, fail: map[string]error{}}
}

type fakeRuntime struct {
	l    *fakeLoader
	name string
}

func (f *fakeLoader) Load(_ context.Context, req cerebellum.LoadRequest) (cerebellum.Runtime, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.fail[req.Capability.Name]; err != nil {
		return nil, err
	}
	f.loads[req.Capability.Name]++
	return fakeRuntime{f, req.Capability.Name}, nil
}

func (r fakeRuntime) Call(_ context.Context, tool string, args json.RawMessage) (cerebellum.Result, error) {
	return cerebellum.Result{Content: tool + " " + string(args)}, nil
}

func (r fakeRuntime) Close() error {
	r.l.mu.Lock()
	r.l.closes[r.name]++
	r.l.mu.Unlock()
	return nil
}

// env is a registry under test: built-ins in memory, a workspace on disk.
type env struct {
	t       *testing.T
	builtin fstest.MapFS
	ws      string
	states  cerebellum.MemoryStates
	loader  *fakeLoader
	pinned  []string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, builtin: fstest.MapFS{}, ws: t.TempDir(), states: cerebellum.MemoryStates{}, loader: newFakeLoader()}
	e.addBuiltin("tool-discovery", readBuiltinDiscovery(t), false)
	return e
}

func readBuiltinDiscovery(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join("..", "brain", "cerebellum", "tool-discovery", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func (e *env) addBuiltin(folder, skillMD string, plugin bool) {
	e.builtin[folder+"/SKILL.md"] = &fstest.MapFile{Data: []byte(skillMD)}
	if plugin {
		e.builtin[folder+"/plugin/main.go"] = &fstest.MapFile{Data: []byte(pluginSrc)}
	}
}

func (e *env) addWorkspace(folder, skillMD string, plugin bool) {
	e.t.Helper()
	dir := filepath.Join(cerebellum.CapabilitiesDir(e.ws), folder)
	if err := os.MkdirAll(filepath.Join(dir, "plugin"), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if skillMD != "" {
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skillMD), 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
	if plugin {
		if err := os.WriteFile(filepath.Join(dir, "plugin", "main.go"), []byte(pluginSrc), 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
}

func (e *env) open() *cerebellum.Registry {
	e.t.Helper()
	r, err := openServing(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states, Pinned: e.pinned,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { r.Close() })
	return r
}

func stateOf(t *testing.T, r *cerebellum.Registry, name string) *cerebellum.Capability {
	t.Helper()
	c, err := r.Get(name)
	if err != nil {
		t.Fatalf("Get(%s): %v", name, err)
	}
	return c
}

func TestScanOrderIsDeterministic(t *testing.T) {
	e := newEnv(t)
	e.addBuiltin("zeta", skill("zeta", "Built-in zeta."), false)
	e.addBuiltin("alpha", skill("alpha", "Built-in alpha."), false)
	for _, n := range []string{"mango", "apple", "kiwi"} {
		e.addWorkspace(n, skill(n, "Fruit "+n+"."), false)
	}
	r := e.open()
	var got []string
	for _, c := range r.List() {
		got = append(got, fmt.Sprintf("%s:%s:%s", c.Source, c.Name, c.Badge))
	}
	want := []string{"builtin:alpha:Official", "builtin:tool-discovery:Official", "builtin:zeta:Official",
		"workspace:apple:Unknown", "workspace:kiwi:Unknown", "workspace:mango:Unknown"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("order:\n got %v\nwant %v", got, want)
	}
	// A second registry over the same folders sees the same thing, hashes included.
	r2 := e.open()
	for i, c := range r2.List() {
		if c.Hash != r.List()[i].Hash || c.Name != r.List()[i].Name {
			t.Fatalf("rescan differs at %d: %s/%s vs %s/%s", i, c.Name, c.Hash, r.List()[i].Name, r.List()[i].Hash)
		}
	}
}

func TestCapabilityStates(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(e *env)
		check   string // capability to look at
		state   cerebellum.State
		kind    cerebellum.Kind
		errWant string
	}{
		{"guide loads", func(e *env) { e.addWorkspace("notes", skill("notes", "Take notes."), false) },
			"notes", cerebellum.StateOK, cerebellum.KindGuide, ""},
		{"plugin loads", func(e *env) { e.addWorkspace("echo", skill("echo", "Echo.", "echo_say"), true) },
			"echo", cerebellum.StateOK, cerebellum.KindPlugin, ""},
		{"shadows built-in folder", func(e *env) {
			e.addBuiltin("web", skill("web", "Fetch pages."), false)
			e.addWorkspace("web", skill("web", "Mine."), false)
		}, "web@workspace", cerebellum.StateFailed, cerebellum.KindGuide, "shadows"},
		{"shadows built-in name", func(e *env) {
			e.addBuiltin("web", skill("web", "Fetch pages."), false)
			e.addWorkspace("my-web", skill("web", "Mine."), false)
		}, "my-web", cerebellum.StateFailed, cerebellum.KindGuide, "shadows a built-in"},
		{"duplicate name in workspace", func(e *env) {
			e.addWorkspace("a-notes", skill("notes", "One."), false)
			e.addWorkspace("b-notes", skill("notes", "Two."), false)
		}, "b-notes", cerebellum.StateFailed, cerebellum.KindGuide, "already named \"notes\" (folder a-notes)"},
		{"tools without plugin", func(e *env) { e.addWorkspace("ghost", skill("ghost", "Ghost.", "ghost_run"), false) },
			"ghost", cerebellum.StateFailed, cerebellum.KindPlugin, "no plugin/*.go"},
		{"missing SKILL.md", func(e *env) { e.addWorkspace("empty", "", false) },
			"empty", cerebellum.StateFailed, cerebellum.KindGuide, "no SKILL.md"},
		{"broken YAML", func(e *env) { e.addWorkspace("broken", "---\nname: broken\ndescription: a: b\n---\n", false) },
			"broken", cerebellum.StateFailed, cerebellum.KindGuide, "broken/SKILL.md:3:"},
		{"missing requirement", func(e *env) {
			e.addWorkspace("needy", "---\nname: needy\ndescription: Needs.\nrequires: [absent]\n---\nx\n", false)
		}, "needy", cerebellum.StateFailed, cerebellum.KindGuide, "requires absent is not installed"},
		{"disabled requirement", func(e *env) {
			e.addWorkspace("base", skill("base", "Base."), false)
			e.addWorkspace("needy", "---\nname: needy\ndescription: Needs.\nrequires: [base]\n---\nx\n", false)
			e.states["base"] = cerebellum.CapState{Disabled: true}
		}, "needy", cerebellum.StateFailed, cerebellum.KindGuide, "base is disabled"},
		{"requirement chain fails through", func(e *env) {
			e.addWorkspace("a", "---\nname: a\ndescription: A.\nrequires: [b]\n---\nx\n", false)
			e.addWorkspace("b", "---\nname: b\ndescription: B.\nrequires: [c]\n---\nx\n", false)
		}, "a", cerebellum.StateFailed, cerebellum.KindGuide, "requires b failed to load"},
		{"disabled", func(e *env) {
			e.addWorkspace("quiet", skill("quiet", "Quiet.", "quiet_run"), true)
			e.states["quiet"] = cerebellum.CapState{Disabled: true}
		}, "quiet", cerebellum.StateDisabled, cerebellum.KindPlugin, ""},
		{"core honoured only for built-ins", func(e *env) {
			e.addWorkspace("wannabe", "---\nname: wannabe\ndescription: W.\ncore: true\n---\nx\n", false)
		}, "wannabe", cerebellum.StateOK, cerebellum.KindGuide, ""},
		{"mcp without client", func(e *env) {
			e.addWorkspace("remote", "---\nname: remote\ndescription: R.\nmcp:\n  command: server\n---\nx\n", false)
		}, "remote", cerebellum.StateFailed, cerebellum.KindMCP, "MCP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			tt.setup(e)
			r := e.open()
			c := stateOf(t, r, tt.check)
			if c.State != tt.state || c.Kind != tt.kind {
				t.Fatalf("%s: state %s kind %s (error %q); want %s %s", tt.check, c.State, c.Kind, c.Error, tt.state, tt.kind)
			}
			if !strings.Contains(c.Error, tt.errWant) {
				t.Fatalf("error %q lacks %q", c.Error, tt.errWant)
			}
			if c.State == cerebellum.StateFailed && len(r.Snapshot().Patterns()) != 0 {
				t.Fatalf("failed capability registered patterns")
			}
			if c.Core && c.Source == cerebellum.SourceWorkspace {
				t.Fatal("workspace capability became core")
			}
		})
	}
}

func TestToolCollisionFailsLaterCapability(t *testing.T) {
	e := newEnv(t)
	e.addBuiltin("files", skill("files", "Built-in files.", "read_file"), true)
	e.addWorkspace("alpha", skill("alpha", "A.", "alpha_go", "shared_tool"), true)
	e.addWorkspace("beta", skill("beta", "B.", "shared_tool", "beta_go", "read_file"), true)
	r := e.open()
	if c := stateOf(t, r, "alpha"); c.State != cerebellum.StateOK {
		t.Fatalf("alpha: %s %s", c.State, c.Error)
	}
	beta := stateOf(t, r, "beta")
	if beta.State != cerebellum.StateFailed ||
		!strings.Contains(beta.Error, "read_file (already provided by files)") ||
		!strings.Contains(beta.Error, "shared_tool (already provided by alpha)") {
		t.Fatalf("beta: %s %q", beta.State, beta.Error)
	}
	// None of beta's tools are registered, not even its unique one.
	if _, ok := r.Snapshot().Owner("beta_go"); ok {
		t.Fatal("beta_go registered from a failed capability")
	}
	if owner, _ := r.Snapshot().Owner("shared_tool"); owner.Name != "alpha" {
		t.Fatalf("shared_tool owner = %s", owner.Name)
	}
}

func TestWarningsDoNotFail(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("folder-name", "---\nname: other-name\ndescription: D.\nfuture-key: 1\ncore: true\n---\nBody\n", false)
	r := e.open()
	c := stateOf(t, r, "other-name")
	if c.State != cerebellum.StateOK {
		t.Fatalf("state %s: %s", c.State, c.Error)
	}
	var msgs []string
	for _, w := range c.Manifest.Warnings {
		msgs = append(msgs, w.String())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"differs from its folder name", "future-key: unknown key is ignored", "core is honoured only"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}

func TestAgentSkillsLoadAsGuides(t *testing.T) {
	e := newEnv(t)
	for _, name := range []string{"pdf-forms", "brand-voice"} {
		copyDir(t, filepath.Join("testdata", "agentskills", name), filepath.Join(cerebellum.CapabilitiesDir(e.ws), name))
	}
	r := e.open()
	pdf := stateOf(t, r, "pdf-forms")
	if pdf.State != cerebellum.StateOK || pdf.Kind != cerebellum.KindGuide {
		t.Fatalf("pdf-forms: %s %s %s", pdf.State, pdf.Kind, pdf.Error)
	}
	if got := strings.Join(pdf.Manifest.AllowedTools, ","); got != "Bash,Read,Write" {
		t.Fatalf("allowed-tools = %q", got)
	}
	if pdf.Manifest.Metadata["version"] != "2.1" || pdf.Manifest.License != "Apache-2.0" {
		t.Fatalf("metadata/license: %+v %q", pdf.Manifest.Metadata, pdf.Manifest.License)
	}
	if len(pdf.Manifest.Warnings) != 0 {
		t.Fatalf("an Agent Skill should load without warnings: %v", pdf.Manifest.Warnings)
	}
	if c := stateOf(t, r, "brand-voice"); c.State != cerebellum.StateOK {
		t.Fatalf("brand-voice: %s", c.Error)
	}

	overview, err := r.ReadSource("pdf-forms", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# PDF forms", "references/field-types.md", "scripts/fill_form.py", "assets/template.txt"} {
		if !strings.Contains(overview, want) {
			t.Errorf("overview lacks %q:\n%s", want, overview)
		}
	}
	if strings.Contains(overview, "allowed-tools") {
		t.Error("overview includes frontmatter")
	}
	ref, err := r.ReadSource("pdf-forms", "references/field-types.md")
	if err != nil || !strings.Contains(ref, "checkbox") {
		t.Fatalf("read reference: %q %v", ref, err)
	}
	for _, bad := range []string{"../brand-voice/SKILL.md", "/etc/passwd", "references/../../x", "references"} {
		if _, err := r.ReadSource("pdf-forms", bad); err == nil {
			t.Errorf("ReadSource(%q) succeeded", bad)
		}
	}
	// A symlink inside the folder must not lead outside it.
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("s3cret"), 0o600)
	if err := os.Symlink(secret, filepath.Join(cerebellum.CapabilitiesDir(e.ws), "pdf-forms", "references", "leak.md")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	r2 := e.open()
	if out, err := r2.ReadSource("pdf-forms", "references/leak.md"); !errors.Is(err, cerebellum.ErrOutsideFolder) {
		t.Fatalf("symlink escape: %q %v", out, err)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLRUEvictionAndInvisibleReload(t *testing.T) {
	e := newEnv(t)
	var names []string
	for i := 0; i < 12; i++ {
		n := fmt.Sprintf("cap-%02d", i)
		names = append(names, n)
		e.addWorkspace(n, skill(n, "Capability "+n+".", fmt.Sprintf("tool_%02d", i)), true)
	}
	r := e.open()
	sess := r.NewSession("c1", nil)
	var changes [][]string
	sess.OnChange(func(l []string) { changes = append(changes, l) })
	for _, n := range names {
		if _, err := r.Activate(sess, n); err != nil {
			t.Fatal(err)
		}
	}
	loaded := sess.Loaded()
	if len(loaded) != 10 || loaded[0] != "cap-02" || loaded[9] != "cap-11" {
		t.Fatalf("after 12 activations: %v", loaded)
	}
	// Using cap-02 (the least recent) makes cap-03 the next to go.
	if _, err := r.Call(context.Background(), sess, "tool_02", json.RawMessage(`{"x":"a"}`)); err != nil {
		t.Fatal(err)
	}
	if got := sess.Loaded(); got[0] != "cap-03" || got[9] != "cap-02" {
		t.Fatalf("call did not count as use: %v", got)
	}
	// Calling a tool of an evicted capability loads it and runs the call.
	res, err := r.Call(context.Background(), sess, "tool_00", json.RawMessage(`{"x":"b"}`))
	if err != nil || res.IsError || res.Content != `tool_00 {"x":"b"}` {
		t.Fatalf("evicted call: %+v %v", res, err)
	}
	if !sess.IsLoaded("cap-00") || sess.IsLoaded("cap-03") {
		t.Fatalf("reactivation did not evict the LRU: %v", sess.Loaded())
	}
	if len(changes) == 0 || len(changes[len(changes)-1]) != 10 {
		t.Fatalf("OnChange not reported: %v", changes)
	}
	// Another conversation is untouched.
	other := r.NewSession("c2", nil)
	if len(other.Loaded()) != 0 {
		t.Fatal("sessions share state")
	}
	// Tools of the request = core + loaded set, stable order.
	var tools []string
	for _, td := range r.Tools(sess) {
		tools = append(tools, td.Name)
	}
	if tools[0] != "tool_search" || len(tools) != 3+10 {
		t.Fatalf("request tools: %v", tools)
	}
	// Loaded tools in load order: using cap-02 did not move it, evicting
	// cap-03 removed it, reloading cap-00 appended it.
	if got, want := strings.Join(tools[3:], ","), "tool_02,tool_04,tool_05,tool_06,tool_07,tool_08,tool_09,tool_10,tool_11,tool_00"; got != want {
		t.Fatalf("loaded tools %s, want them in load order %s", got, want)
	}
}

func TestPinnedAlwaysLoadedNeverEvicted(t *testing.T) {
	e := newEnv(t)
	e.pinned = []string{"pinned-one", "not-installed"}
	e.addWorkspace("pinned-one", skill("pinned-one", "Pinned.", "pin_tool"), true)
	for i := 0; i < 11; i++ {
		n := fmt.Sprintf("cap-%02d", i)
		e.addWorkspace(n, skill(n, "C.", fmt.Sprintf("tool_%02d", i)), true)
	}
	r := e.open()
	sess := r.NewSession("c", nil)
	for i := 0; i < 11; i++ {
		r.Activate(sess, fmt.Sprintf("cap-%02d", i))
	}
	names := r.LoadedNames(sess)
	if names[0] != "tool-discovery" || names[1] != "pinned-one" || len(names) != 12 {
		t.Fatalf("loaded names: %v", names)
	}
	if sess.IsLoaded("pinned-one") {
		t.Fatal("pinned capability took an LRU slot")
	}
	if idx := r.Index(sess); !strings.Contains(idx, "- pinned-one (1 tool) — Pinned. [loaded]") {
		t.Fatalf("index:\n%s", idx)
	}
}

func TestCallErrors(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("quiet", skill("quiet", "Quiet.", "quiet_run"), true)
	e.addWorkspace("loud", "---\nname: loud\ndescription: L.\ntools:\n  - name: loud_run\n    description: Run.\n    parameters:\n      type: object\n      properties:\n        n: {type: integer, minimum: 1}\n      required: [n]\n---\nx\n", true)
	e.addWorkspace("crashy", skill("crashy", "Crashy.", "crashy_run"), true)
	e.states["quiet"] = cerebellum.CapState{Disabled: true}
	e.loader.fail["crashy"] = errors.New("plugin/main.go:3:1: expected declaration")
	r := e.open()
	sess := r.NewSession("c", nil)
	ctx := context.Background()
	tests := []struct {
		tool, args string
		sentinel   error
		want       string
	}{
		{"no_such_tool", `{}`, cerebellum.ErrUnknownTool, "use tool_search"},
		{"quiet_run", `{}`, cerebellum.ErrDisabled, "switched off"},
		{"loud_run", `{}`, cerebellum.ErrInvalidArgs, "missing property 'n'"},
		{"loud_run", `{"n":0}`, cerebellum.ErrInvalidArgs, "/n"},
		{"loud_run", `{"n":`, cerebellum.ErrInvalidArgs, "not valid JSON"},
		{"crashy_run", `{}`, cerebellum.ErrFailed, "plugin/main.go:3:1"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+tt.args, func(t *testing.T) {
			res, err := r.Call(ctx, sess, tt.tool, json.RawMessage(tt.args))
			if !errors.Is(err, tt.sentinel) || !res.IsError || !strings.Contains(res.Content, tt.want) {
				t.Fatalf("Call = %+v, %v; want %v containing %q", res, err, tt.sentinel, tt.want)
			}
		})
	}
	// The load failure is now on the capability, and its tools are gone.
	if c := stateOf(t, r, "crashy"); c.State != cerebellum.StateFailed || !strings.Contains(c.Error, "expected declaration") {
		t.Fatalf("crashy after failed load: %s %q", c.State, c.Error)
	}
	if _, ok := r.Snapshot().Owner("crashy_run"); ok {
		t.Fatal("failed plugin still owns its tool")
	}
	res, err := r.Call(ctx, sess, "loud_run", json.RawMessage(`{"n":2}`))
	if err != nil || res.Content != `loud_run {"n":2}` {
		t.Fatalf("good call: %+v %v", res, err)
	}
}

func TestActivateErrors(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("archive", skill("archive", "Zip files.", "archive_list"), true)
	e.addWorkspace("notes", skill("notes", "Notes guide."), false)
	r := e.open()
	sess := r.NewSession("c", nil)
	if _, err := r.Activate(sess, "archiv"); !errors.Is(err, cerebellum.ErrNotFound) || !strings.Contains(err.Error(), "did you mean archive") {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := r.Activate(sess, "notes"); err != nil || sess.IsLoaded("notes") {
		t.Fatalf("guide activation: %v (loaded=%v)", err, sess.IsLoaded("notes"))
	}
	if _, err := r.Activate(sess, "tool-discovery"); err != nil || sess.IsLoaded("tool-discovery") {
		t.Fatalf("core activation: %v", err)
	}
}

func TestDiscoveryTools(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("archive", "---\nname: archive\ndescription: List, extract and create zip and tar.gz archives safely.\nkeywords: [zip, unzip, compress]\ntools:\n  - name: archive_extract\n    description: Extract an archive into a folder.\n  - name: archive_create\n    description: Create a zip archive.\n---\nx\n", true)
	e.addWorkspace("weather", skill("weather", "Forecasts for a city.", "weather_now"), true)
	e.addWorkspace("video-edit", skill("video-edit", "Cut and resize videos.", "video_cut"), true)
	e.states["video-edit"] = cerebellum.CapState{Disabled: true}
	r := e.open()
	sess := r.NewSession("c", nil)
	ctx := context.Background()
	call := func(tool, args string) string {
		t.Helper()
		res, err := r.Call(ctx, sess, tool, json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return res.Content
	}
	out := call("tool_search", `{"query":"unzip a compressed file"}`)
	if !strings.Contains(out, "Loaded archive") || !strings.HasPrefix(strings.Split(out, "\n")[2], "1. archive") {
		t.Fatalf("search:\n%s", out)
	}
	if !sess.IsLoaded("archive") {
		t.Fatal("best match was not auto-loaded")
	}
	// The next request of the turn carries its tools.
	found := false
	for _, td := range r.Tools(sess) {
		found = found || td.Name == "archive_extract"
	}
	if !found {
		t.Fatal("auto-loaded tools missing from the request")
	}
	// Exact tool name ranks first.
	if out := call("tool_search", `{"query":"weather_now"}`); !strings.Contains(strings.Split(out, "\n")[2], "weather") {
		t.Fatalf("exact tool name:\n%s", out)
	}
	// Only a disabled capability matches: the empty result says so.
	if out := call("tool_search", `{"query":"resize videos"}`); !strings.Contains(out, "switched off: video-edit") {
		t.Fatalf("disabled explanation:\n%s", out)
	}
	if out := call("tool_search", `{"query":"quantum teleportation"}`); !strings.Contains(out, "Nothing installed matches") {
		t.Fatalf("no match:\n%s", out)
	}
	res, err := r.Call(ctx, sess, "tool_search", json.RawMessage(`{"query":"  "}`))
	if err != nil || !res.IsError {
		t.Fatalf("empty query: %+v %v", res, err)
	}
	if out := call("tool_activate", `{"capability":"weather"}`); !strings.Contains(out, "Loaded weather") {
		t.Fatalf("activate: %s", out)
	}
	res, _ = r.Call(ctx, sess, "tool_activate", json.RawMessage(`{"capability":"wether"}`))
	if !res.IsError || !strings.Contains(res.Content, "did you mean weather") {
		t.Fatalf("activate typo: %+v", res)
	}
	if out := call("skill_read_source", `{"capability":"archive"}`); !strings.Contains(out, `<skill name="archive">`) {
		t.Fatalf("read source: %s", out)
	}
}

func TestToolBudgetEvictsLeastRecentlyUsed(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 6; i++ {
		n := fmt.Sprintf("cap-%d", i)
		e.addWorkspace(n, skill(n, "Capability "+n+".", fmt.Sprintf("tool_%d_a", i), fmt.Sprintf("tool_%d_b", i)), true)
	}
	probe := e.open()
	one := probe.Snapshot().SchemaTokens("cap-0")
	if one == 0 {
		t.Fatal("no schema tokens")
	}
	// Room for three capabilities' schemas.
	r, err := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, ToolBudget: 3*one + one/2,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
	if err != nil {
		t.Fatal(err)
	}
	sess := r.NewSession("c", nil)
	for i := 0; i < 5; i++ {
		if _, err := r.Activate(sess, fmt.Sprintf("cap-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(sess.Loaded(), ","); got != "cap-2,cap-3,cap-4" {
		t.Fatalf("loaded within budget: %s", got)
	}
	// A call to an evicted capability's tool still works and makes room again.
	if res, err := r.Call(context.Background(), sess, "tool_0_a", json.RawMessage(`{}`)); err != nil || res.IsError {
		t.Fatalf("call after budget eviction: %+v %v", res, err)
	}
	if got := strings.Join(sess.Loaded(), ","); got != "cap-3,cap-4,cap-0" {
		t.Fatalf("after call: %s", got)
	}
	// A capability none of whose tools fits the budget is not loaded: no
	// request could carry it (it used to be loaded whole, whatever its size).
	tiny, _ := cerebellum.Open(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, ToolBudget: 1,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: e.loader}})
	s2 := tiny.NewSession("d", nil)
	if _, err := tiny.Activate(s2, "cap-1"); !errors.Is(err, cerebellum.ErrOverBudget) {
		t.Fatalf("activating a capability bigger than the budget: %v; want ErrOverBudget", err)
	}
	if got := strings.Join(s2.Loaded(), ","); got != "" || len(tiny.Tools(s2)) != len(tiny.Tools(nil)) {
		t.Fatalf("oversized: loaded %q", got)
	}
}

func TestSearchNamesADisabledExactMatch(t *testing.T) {
	e := newEnv(t)
	e.addWorkspace("plug-one", skill("plug-one", "Does plugging.", "plug_one_run"), true)
	e.addWorkspace("plugger", skill("plugger", "Plug one thing into another; plug one cable.", "plugger_run"), true)
	e.states["plug-one"] = cerebellum.CapState{Disabled: true}
	r := e.open()
	res, err := r.Search(nil, "plug-one", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Unusable) != 1 || res.Unusable[0].Capability.Name != "plug-one" {
		t.Fatalf("unusable: %+v", res.Unusable)
	}
	if out := cerebellum.FormatSearch(res, nil, nil); !strings.Contains(out, "plug-one matches exactly but is switched off") {
		t.Fatalf("format:\n%s", out)
	}
}

// openServing opens a registry that serves the built-in skills capability
// as the app does: manage.Authoring through Options.Native, bound to the
// registry's Manager once it is open.
func openServing(opts cerebellum.Options) (*cerebellum.Registry, error) {
	var mgr *manage.Manager
	native := map[string]cerebellum.Runtime{manage.AuthoringName: manage.Authoring(func() *manage.Manager { return mgr })}
	for k, v := range opts.Native {
		native[k] = v
	}
	opts.Native = native
	r, err := cerebellum.Open(opts)
	if err == nil {
		mgr = manage.New(r, manage.Options{})
	}
	return r, err
}
