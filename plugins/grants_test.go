package plugins

import (
	"github.com/wrasse-app/wrasse/cerebellum/hint"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
)

// markerPlugin is testdata/initmarker with its marker folder set to dir.
func markerPlugin(t *testing.T, dir string) *cerebellum.Capability {
	t.Helper()
	root := filepath.Join("testdata", "initmarker")
	skill, err := os.ReadFile(filepath.Join(root, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "plugin", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	return inline(t, string(skill), map[string]string{"main.go": strings.ReplaceAll(string(src), "@MARKER@", filepath.ToSlash(dir))})
}

// markers lists the marker files the plugin's code left in dir.
func markers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// No code of a plugin that does not ship with Wrasse runs before every
// permission it declares is granted: not a package-level variable's
// initialiser, not init, not Init; with part of the grants (files, which
// would let it write) neither. Source checks run none of it. In process
// and in a plugin process alike.
func TestNoCodeRunsBeforeEveryGrant(t *testing.T) {
	for _, mode := range []string{"in process", "child"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			opts := Options{Logger: discard(), Roots: func(string, []string) []string { return []string{dir} }}
			if mode == "child" {
				opts.Child = childArgv(childArg)
			}
			h := NewHost(opts)
			c := markerPlugin(t, dir)
			if err := h.CheckSource(t.Context(), request(c, false, "files", "exec", "network")); err != nil {
				t.Fatalf("CheckSource: %v", err)
			}
			for _, granted := range [][]string{nil, {"files"}, {"files", "exec"}, {"exec", "network"}} {
				if rt, err := h.Load(t.Context(), request(c, false, granted...)); !errors.Is(err, ErrNotGranted) {
					if rt != nil {
						rt.Close()
					}
					t.Fatalf("Load with %v: %v; want ErrNotGranted", granted, err)
				} else if h, ok := hint.Of(err); !ok || !strings.Contains(h.CommandLine(), "--grant exec,files,network") || h.Page != hint.PageCapabilities {
					t.Errorf("Load with %v: %q does not say how to grant", granted, err)
				}
				if err := h.Check(t.Context(), request(c, false, granted...)); !errors.Is(err, ErrNotGranted) {
					t.Fatalf("Check with %v: %v; want ErrNotGranted", granted, err)
				}
			}
			if got := markers(t, dir); len(got) > 0 {
				t.Fatalf("plugin code ran before its permissions were granted: %v", got)
			}
			rt, err := h.Load(t.Context(), request(c, false, "files", "exec", "network"))
			if err != nil {
				t.Fatalf("Load with every grant: %v", err)
			}
			defer rt.Close()
			if res, err := rt.Call(t.Context(), "initmarker_run", nil); err != nil || res.Content != "ran" {
				t.Fatalf("call: %+v %v", res, err)
			}
			if got := strings.Join(markers(t, dir), ","); got != "Init,init,var" {
				t.Fatalf("markers after the grant: %q; want Init,init,var", got)
			}
		})
	}
}

// The child refuses a load without every grant by itself too, whatever
// sent it; plugins that ship with Wrasse are reviewed and always run.
func TestRequireGrants(t *testing.T) {
	c := markerPlugin(t, t.TempDir())
	perms := c.Manifest.Permissions
	cases := []struct {
		trusted bool
		granted []string
		want    error
	}{
		{false, nil, ErrNotGranted},
		{false, []string{"files", "network"}, ErrNotGranted},
		{false, []string{"Files", " exec", "network"}, nil},
		{false, []string{"files", "exec", "network", "env"}, nil},
		{true, nil, nil},
	}
	for _, tc := range cases {
		if err := requireGrants("initmarker", tc.trusted, perms, tc.granted); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("trusted=%v granted=%v: %v; want %v", tc.trusted, tc.granted, err, tc.want)
		}
	}
}

// A load that fails in package initialisation returns no runtime at all,
// not a nil *pluginRuntime inside the interface (the registry would keep
// it and panic closing it).
func TestFailedLoadReturnsNilRuntime(t *testing.T) {
	rt, err := NewHost(Options{Logger: discard()}).Load(t.Context(), request(fixture(t, "initpanic"), false))
	if err == nil || rt != nil {
		t.Fatalf("Load = %#v, %v; want nil and an error", rt, err)
	}
}
