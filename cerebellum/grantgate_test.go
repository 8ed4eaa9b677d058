package cerebellum_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/manage"
	"github.com/wrasse-app/wrasse/plugins"
)

// grantFixture copies testdata/grantgate/<name> to a fresh folder, with
// @MARKER@ in its source replaced by marker.
func grantFixture(t *testing.T, name, marker string) (dir, skillMD, src string) {
	t.Helper()
	root := filepath.Join("testdata", "grantgate", name)
	s, err := os.ReadFile(filepath.Join(root, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.ReadFile(filepath.Join(root, "plugin", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	skillMD, src = string(s), strings.ReplaceAll(string(p), "@MARKER@", filepath.ToSlash(marker))
	dir = filepath.Join(t.TempDir(), name)
	writeFile(t, filepath.Join(dir, "SKILL.md"), skillMD)
	writeFile(t, filepath.Join(dir, "plugin", "main.go"), src)
	return dir, skillMD, src
}

// openWithHost opens a registry with the real plugin host and the
// built-in skills capability (skill_validate).
func openWithHost(t *testing.T) *cerebellum.Registry {
	t.Helper()
	e := newEnv(t)
	data, err := os.ReadFile(filepath.Join("..", "brain", "cerebellum", "skills", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	e.addBuiltin("skills", string(data), false)
	r, err := openServing(cerebellum.Options{Builtin: e.builtin, Workspace: e.ws, States: e.states,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: plugins.NewHost(plugins.Options{})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestNoPluginCodeBeforeEveryGrant is issue 10's "a plugin that declares
// exec and network runs its init before they are granted", through every
// path of the registry: validate, install, list, CheckPlugins (caps list
// and caps show), skill_validate and a call. The marker plugin's
// package-level variable and init write files once they run; the boom
// plugin's panic, whose message would show in the error. With files
// granted but exec and network not, the marker plugin could write: it must
// not run either. Once everything is granted it runs.
func TestNoPluginCodeBeforeEveryGrant(t *testing.T) {
	ctx := context.Background()
	marks := t.TempDir()
	r := openWithHost(t)
	sess := r.NewSession("c", nil)
	ranCode := func(when string) {
		t.Helper()
		if entries, _ := os.ReadDir(marks); len(entries) > 0 {
			t.Fatalf("%s: plugin code ran before its permissions were granted (%d marker files)", when, len(entries))
		}
		for _, name := range []string{"marker", "boom"} {
			if c, err := r.Get(name); err == nil && strings.Contains(c.Error+c.Detail, "boom code ran") {
				t.Fatalf("%s: the boom plugin's initialisation ran: %s", when, c.Error)
			}
		}
	}
	for _, name := range []string{"marker", "boom"} {
		dir, skillMD, src := grantFixture(t, name, marks)
		if rep := manage.New(r, manage.Options{}).Validate(ctx, os.DirFS(dir), name, dir, manage.ValidateOptions{}); !rep.OK() {
			t.Fatalf("validate %s: %+v", name, rep)
		}
		ranCode("validate " + name)
		args, _ := json.Marshal(map[string]any{"skill_md": skillMD, "plugin_files": map[string]string{"main.go": src}})
		// skill_validate refuses the name of an installed capability, so it
		// runs before the install.
		if res, err := r.Call(ctx, sess, "skill_validate", args); err != nil || res.IsError {
			t.Fatalf("skill_validate %s: %+v %v", name, res, err)
		}
		ranCode("skill_validate " + name)
		if _, err := manage.New(r, manage.Options{}).Install(ctx, dir, manage.InstallOptions{}); err != nil {
			t.Fatalf("install %s: %v", name, err)
		}
		ranCode("install " + name)
	}
	r.List()
	manage.New(r, manage.Options{}).CheckPlugins(ctx, 0)
	ranCode("CheckPlugins")
	for _, name := range []string{"marker", "boom"} {
		// Waiting for grants is not a failure: marker's source uses os,
		// which its declared files permission allows once granted.
		if c := stateOf(t, r, name); c.State != cerebellum.StateOK || len(c.MissingGrants()) == 0 {
			t.Errorf("%s before its grants: %s (%s), missing %v; want ok, waiting for grants", name, c.State, c.Error, c.MissingGrants())
		}
		res, err := r.Call(ctx, sess, name+"_run", []byte(`{}`))
		if err == nil && !res.IsError {
			t.Fatalf("%s ran without its grants: %+v", name, res)
		}
		ranCode("ungranted call of " + name)
	}

	// Part of the grants is not enough: files alone would let marker write.
	if err := manage.New(r, manage.Options{}).Enable("marker", []string{"files"}); err != nil {
		t.Fatal(err)
	}
	if err := manage.New(r, manage.Options{}).Enable("boom", []string{"exec"}); err != nil {
		t.Fatal(err)
	}
	manage.New(r, manage.Options{}).CheckPlugins(ctx, 0)
	ranCode("CheckPlugins with part of the grants")
	for _, name := range []string{"marker", "boom"} {
		res, err := r.Call(ctx, sess, name+"_run", []byte(`{}`))
		msg := res.Content
		if err != nil {
			msg = err.Error()
		}
		if (err == nil && !res.IsError) || !strings.Contains(msg, "none of its code runs until all are granted") {
			t.Fatalf("%s with part of its grants: %+v %v; want it refused, saying what to grant", name, res, err)
		}
		ranCode("call of " + name + " with part of the grants")
	}

	// Every grant: now it may run.
	if err := manage.New(r, manage.Options{}).Enable("marker", []string{"files", "exec", "network"}); err != nil {
		t.Fatal(err)
	}
	if res, err := r.Call(ctx, sess, "marker_run", []byte(`{}`)); err != nil || res.Content != "ran" {
		t.Fatalf("granted call: %+v %v", res, err)
	}
	for _, m := range []string{"var", "init", "Init"} {
		if _, err := os.Stat(filepath.Join(marks, m)); err != nil {
			t.Errorf("after every grant the plugin's %s did not run", m)
		}
	}
	if err := manage.New(r, manage.Options{}).Enable("boom", []string{"exec", "network"}); err != nil {
		t.Fatal(err)
	}
	res, err := r.Call(ctx, sess, "boom_run", []byte(`{}`))
	msg := res.Content
	if err != nil {
		msg = err.Error()
	}
	if !strings.Contains(msg, "boom code ran in package variable") {
		t.Fatalf("granted boom: %+v %v; want its initialiser's panic", res, err)
	}
}
