package builtin_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
	"github.com/wrasse-app/wrasse/plugins/sdk"
)

// TestBuiltinToolsRunInterpreted runs every tool of every built-in plugin
// the way a conversation does: through the registry (schema validation,
// lazy loading) and the yaegi plugin host, interpreted from the embedded
// source. Each tool gets one valid call and one call its schema refuses.
func TestBuiltinToolsRunInterpreted(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes/todo.txt", "alpha\nbeta\ngamma\n")
	write("data/people.csv", "name,age\nada,36\nalan,41\ngrace,85\n")
	write("src/a.go", "package a\n// FINDME\n")

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>T</title><script>x()</script></head><body><h1>Hello wrasse</h1><p>Body text.</p></body></html>")
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)

	host := plugins.NewHost(plugins.Options{
		Roots: func(string, []string) []string { return []string{root} },
		// The test server is on loopback, which "*" does not cover: name it.
		Hosts: func(string, []string) []string { return []string{u.Hostname()} },
	})
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: builtin.FS(), Workspace: filepath.Join(root, "ws"),
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: host}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	sess := reg.NewSession("t", nil)

	rel := func(p string) string { return filepath.Join(root, p) }
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	calls := []struct {
		tool, args, want string
	}{
		{"shell_exec", js(map[string]any{"command": "echo hi-from-shell", "cwd": root}), "hi-from-shell"},
		{"fs_read", js(map[string]any{"path": rel("notes/todo.txt"), "start_line": 2, "end_line": 2}), "beta"},
		{"fs_write", js(map[string]any{"path": rel("out/new.txt"), "content": "written", "create_dirs": true}), "new.txt"},
		{"fs_patch", js(map[string]any{"path": rel("notes/todo.txt"), "search": "gamma", "replace": "delta"}), "todo.txt"},
		{"fs_list", js(map[string]any{"path": rel("notes")}), "todo.txt"},
		{"fs_find", js(map[string]any{"pattern": "**/*.go", "path": root}), "a.go"},
		{"fs_grep", js(map[string]any{"pattern": "FINDME", "path": root}), "a.go:2"},
		{"system_info", `{}`, runtime.GOOS},
		{"disk_space", js(map[string]any{"path": root}), "free"},
		{"web_fetch", js(map[string]any{"url": srv.URL}), "Hello wrasse"},
		{"archive_create", js(map[string]any{"dest": rel("pack.zip"), "sources": []string{rel("notes")}}), "pack.zip"},
		{"archive_list", js(map[string]any{"path": rel("pack.zip")}), "todo.txt"},
		{"archive_extract", js(map[string]any{"path": rel("pack.zip"), "dest": rel("unpacked")}), "unpacked"},
		{"data_query", js(map[string]any{"path": rel("data/people.csv"), "where": "age > 40", "select": []string{"name"}}), "grace"},
		{"calc_eval", js(map[string]any{"expression": "2^10 + sqrt(16)"}), "1028"},
		{"calc_convert", js(map[string]any{"value": 1, "from": "mi", "to": "km"}), "1.609"},
		{"calc_date", js(map[string]any{"op": "diff", "date": "2026-01-01", "other": "2026-03-01"}), "59"},
	}
	if runtime.GOOS == "windows" {
		t.Skip("commands above are POSIX")
	}
	covered := map[string]bool{}
	// A conversation decides which hosts web_fetch reaches (the agent
	// installs the check); here every host is allowed.
	ctx := sdk.WithHostCheck(context.Background(), func(context.Context, string) error { return nil })
	for _, c := range calls {
		t.Run(c.tool, func(t *testing.T) {
			res, err := reg.Call(ctx, sess, c.tool, json.RawMessage(c.args))
			if err != nil || res.IsError {
				t.Fatalf("%s(%s): %+v %v", c.tool, c.args, res, err)
			}
			if !strings.Contains(strings.ToLower(res.Content), strings.ToLower(c.want)) {
				t.Fatalf("%s result lacks %q:\n%s", c.tool, c.want, res.Content)
			}
			// The schema refuses a call with an unknown argument before the plugin runs.
			res, err = reg.Call(ctx, sess, c.tool, json.RawMessage(`{"no_such_argument": 1}`))
			if !errors.Is(err, cerebellum.ErrInvalidArgs) || !res.IsError {
				t.Fatalf("schema did not refuse a bad call: %+v %v", res, err)
			}
		})
		covered[c.tool] = true
	}
	// system_open would start the desktop's opener; it is covered natively.
	covered["system_open"] = true
	var missing []string
	for _, c := range reg.List() {
		if c.Kind != cerebellum.KindPlugin || !c.HasPluginSource() {
			continue
		}
		if c.State != cerebellum.StateOK {
			t.Errorf("%s is %s: %s", c.Name, c.State, c.Error)
		}
		for _, tool := range c.Tools() {
			if !covered[tool.Name] {
				missing = append(missing, tool.Name)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("built-in tools without an interpreted test: %v", missing)
	}
	data, _ := os.ReadFile(rel("notes/todo.txt"))
	if !strings.Contains(string(data), "delta") {
		t.Errorf("fs_patch did not change the file: %q", data)
	}
}
