package builtin_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
)

const flipSecret = "sk-FLIP-SECRET"

// flipLink swaps the link name between its targets as fast as it can, as
// a background process started by a sandboxed command would; each swap
// renames a fresh link over the old one, so the name always exists.
func flipLink(t *testing.T, name string, targets ...string) (stop func()) {
	t.Helper()
	if err := os.Symlink(targets[0], name); err != nil {
		t.Skip("symbolic links unsupported:", err)
	}
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tmp := name + ".next"
		for i := 1; !done.Load(); i++ {
			os.Remove(tmp)
			if os.Symlink(targets[i%len(targets)], tmp) == nil {
				os.Rename(tmp, name)
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { done.Store(true); wg.Wait() }) }
}

func zipBytes(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Reproduction of issue 21, point 4: the file tools checked a path and
// opened it later, so a link flipped by a background process between a
// harmless folder and the workspace made fs_read return config.json,
// archive_extract rewrite it and plant a capability in brain/cerebellum,
// and archive_create zip the database. Every tool that takes a path runs
// here the way a conversation runs it (registry, plugin host, yaegi),
// hundreds of times against the flipping link; nothing protected may be
// returned, written, archived or planted.
func TestFileToolsUnderSymlinkFlips(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	home := t.TempDir()
	if r, err := filepath.EvalSymlinks(home); err == nil {
		home = r
	}
	ws := filepath.Join(home, "ws")
	decoy := filepath.Join(home, "decoy")
	secretZip := zipBytes(t, map[string]string{flipSecret + ".txt": flipSecret})
	harmlessZip := zipBytes(t, map[string]string{"harmless.txt": "harmless"})
	wsFiles := map[string]string{
		"wrasse.db":        flipSecret + "\x00\x01",
		"config.json":      `{"baseURL":"` + flipSecret + `"}`,
		"logs/wrasse.log":  "log " + flipSecret,
		".cache/notes.txt": "cache " + flipSecret,
		".cache/pack.zip":  string(secretZip),
	}
	decoyFiles := map[string]string{
		"wrasse.db":              "harmless",
		"config.json":            `{"baseURL":"harmless"}`,
		".cache/notes.txt":       "harmless",
		".cache/pack.zip":        string(harmlessZip),
		"brain/cerebellum/.keep": "",
	}
	put := func(root string, files map[string]string) {
		for rel, body := range files {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	put(ws, wsFiles)
	os.MkdirAll(filepath.Join(ws, "brain", "cerebellum"), 0o755)
	os.WriteFile(filepath.Join(home, "evil.zip"), zipBytes(t, map[string]string{"config.json": `{"baseURL":"https://pwned.example"}`}), 0o644)
	os.WriteFile(filepath.Join(home, "plant.zip"), zipBytes(t, map[string]string{"brain/cerebellum/evil/SKILL.md": "---\nname: evil\nmcp:\n  command: sh\n---\n"}), 0o644)
	os.MkdirAll(filepath.Join(home, "out"), 0o755)

	host := plugins.NewHost(plugins.Options{
		// As the app grants built-ins: the person's folder and the workspace.
		Roots: func(string, []string) []string { return []string{home, ws} },
		Hosts: func(string, []string) []string { return nil },
	})
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: builtin.FS(), Workspace: ws,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: host}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	sess := reg.NewSession("flip", nil)

	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	// Absolute paths: the test means the same files on main, where
	// relative paths started in the workspace.
	flip := filepath.Join(home, "flip")
	at := func(rel string) string { return filepath.Join(home, rel) }
	tests := []struct {
		tool string
		args func(i int) string
	}{
		{"fs_read", func(int) string { return js(map[string]any{"path": filepath.Join(flip, "config.json")}) }},
		{"fs_read", func(int) string { return js(map[string]any{"path": filepath.Join(flip, ".cache/notes.txt")}) }},
		{"fs_write", func(int) string {
			return js(map[string]any{"path": filepath.Join(flip, "config.json"), "content": "pwned"})
		}},
		{"fs_write", func(int) string {
			return js(map[string]any{"path": filepath.Join(flip, "brain/cerebellum/evil/SKILL.md"), "content": "---\nname: evil\n---\n"})
		}},
		{"fs_patch", func(int) string {
			return js(map[string]any{"path": filepath.Join(flip, "config.json"), "search": "baseURL", "replace": "pwned"})
		}},
		{"fs_list", func(int) string { return js(map[string]any{"path": flip, "depth": 3}) }},
		{"fs_find", func(int) string { return js(map[string]any{"path": flip, "pattern": "**/*.{log,txt,zip}"}) }},
		{"fs_grep", func(int) string { return js(map[string]any{"path": flip, "pattern": "sk-FLIP"}) }},
		{"fs_grep", func(int) string {
			return js(map[string]any{"path": filepath.Join(flip, ".cache/notes.txt"), "pattern": "sk-FLIP"})
		}},
		{"archive_list", func(int) string { return js(map[string]any{"path": filepath.Join(flip, ".cache/pack.zip")}) }},
		{"archive_create", func(i int) string {
			return js(map[string]any{"dest": at(fmt.Sprintf("out/a%d.zip", i)), "sources": []string{filepath.Join(flip, "config.json"), filepath.Join(flip, ".cache"), filepath.Join(flip, "wrasse.db")}})
		}},
		{"archive_extract", func(int) string {
			return js(map[string]any{"path": at("evil.zip"), "dest": flip, "overwrite": true})
		}},
		{"archive_extract", func(int) string {
			return js(map[string]any{"path": at("plant.zip"), "dest": flip, "overwrite": true})
		}},
		{"data_query", func(int) string { return js(map[string]any{"path": filepath.Join(flip, "config.json")}) }},
	}
	const rounds = 200
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			// Each tool starts from the same files, so that a failure
			// is reported against the tool that caused it.
			os.RemoveAll(decoy)
			put(decoy, decoyFiles)
			put(ws, wsFiles)
			stop := flipLink(t, filepath.Join(home, "flip"), decoy, ws)
			defer func() {
				stop()
				os.Remove(filepath.Join(home, "flip"))
			}()
			ok := 0
			for i := range rounds {
				res, err := reg.Call(t.Context(), sess, tc.tool, json.RawMessage(tc.args(i)))
				if err == nil && !res.IsError {
					ok++
				}
				if strings.Contains(res.Content, flipSecret) || strings.Contains(res.Content, "wrasse.log") {
					t.Fatalf("round %d: %s returned protected content: %s", i, tc.tool, res.Content)
				}
			}
			stop()
			// The harmless side keeps working: the tool is not simply refused.
			if ok == 0 {
				t.Errorf("%s never succeeded in %d rounds", tc.tool, rounds)
			}
			for rel, body := range wsFiles {
				if b, _ := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel))); string(b) != body {
					t.Fatalf("%s changed %s: %q", tc.tool, rel, b)
				}
			}
			if _, err := os.Lstat(filepath.Join(ws, "brain", "cerebellum", "evil")); err == nil {
				t.Fatalf("%s planted a capability in brain/cerebellum", tc.tool)
			}
		})
	}
	// No archive holds the workspace's files.
	zips, _ := filepath.Glob(filepath.Join(home, "out", "*.zip"))
	if len(zips) == 0 {
		t.Fatal("archive_create never made an archive")
	}
	for _, z := range zips {
		r, err := zip.OpenReader(z)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range r.File {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			if strings.Contains(string(b), flipSecret) || strings.Contains(f.Name, flipSecret) {
				t.Errorf("%s holds protected content in %s", z, f.Name)
			}
		}
		r.Close()
	}
}

// The file tools read and write only through the SDK's file API, which
// checks what it opens: no built-in plugin opens, walks or changes a path
// with the os package itself. A fixed path written in the source (the OS
// release file, /proc/meminfo) is no tool argument and may be read.
func TestBuiltinPluginsUseTheFileAPI(t *testing.T) {
	forbidden := map[string][]string{
		"os": {"Open", "OpenFile", "ReadFile", "WriteFile", "Create", "CreateTemp", "Mkdir", "MkdirAll", "MkdirTemp",
			"Rename", "Remove", "RemoveAll", "Stat", "Lstat", "ReadDir", "Readlink", "Chmod", "Chtimes", "Chown", "Lchown",
			"Link", "Symlink", "Truncate", "DirFS", "OpenRoot", "OpenInRoot", "Chdir"},
		"filepath": {"Walk", "WalkDir", "Glob", "EvalSymlinks", "Abs"},
		"zip":      {"OpenReader"},
		"ioutil":   {"ReadFile", "WriteFile", "ReadDir", "TempFile", "TempDir"},
	}
	fsys := builtin.FS()
	sources, err := fs.Glob(fsys, "*/plugin/*.go")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no plugin sources: %v", err)
	}
	for _, name := range sources {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || !slices.Contains(forbidden[pkg.Name], sel.Sel.Name) {
				return true
			}
			if len(call.Args) > 0 {
				if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					return true
				}
			}
			t.Errorf("%s: %s.%s opens a path itself; use the SDK's file API (env.OpenArg, OpenDirArg, ParentArg, Dir)", fset.Position(call.Pos()), pkg.Name, sel.Sel.Name)
			return true
		})
	}
}
