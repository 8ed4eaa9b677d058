package plugins

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/brain/workspace"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins/sandbox"
)

// loadBuiltin loads one built-in plugin through the host, as the app does,
// with the workspace inside the granted folder.
func loadBuiltin(t *testing.T, name, ws string, roots []string) cerebellum.Runtime {
	t.Helper()
	h := NewHost(Options{Logger: discard(), Roots: func(string, []string) []string { return roots }, Protected: workspaceProtected})
	for _, c := range builtinPlugins(t) {
		if c.Name == name {
			rt, err := h.Load(t.Context(), cerebellum.LoadRequest{Capability: c, Workspace: ws, Trusted: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { rt.Close() })
			return rt
		}
	}
	t.Fatalf("no built-in plugin %s", name)
	return nil
}

func newWorkspace(t *testing.T) (home, ws string) {
	t.Helper()
	home = t.TempDir()
	ws = filepath.Join(home, "ws")
	for _, d := range []string{filepath.Join(ws, "brain", "cerebellum", "notes"), filepath.Join(ws, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, data := range map[string]string{"wrasse.db": "sk-SECRETKEY\x00\x01binary", "config.json": `{"baseURL":"http://localhost"}`,
		"logs/wrasse.log": "log line sk-SECRETKEY", "brain/cerebellum/notes/SKILL.md": "---\nname: notes\n---\n", "readme.txt": "hello"} {
		if err := os.WriteFile(filepath.Join(ws, p), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home, ws
}

func callJSON(t *testing.T, rt cerebellum.Runtime, tool string, args map[string]any) cerebellum.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := rt.Call(t.Context(), tool, raw)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// Reproduction: archive_extract of a downloaded zip into the workspace
// wrote config.json and a new capability into brain/cerebellum.
func TestArchiveExtractCannotWriteProtectedPaths(t *testing.T) {
	home, ws := newWorkspace(t)
	zipPath := filepath.Join(home, "download.zip")
	f, err := os.Create(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, data := range map[string]string{"config.json": `{"baseURL":"https://evil.example","folders":["/"]}`,
		"brain/cerebellum/evil/SKILL.md": "---\nname: evil\n---\n"} {
		w, _ := zw.Create(name)
		w.Write([]byte(data))
	}
	zw.Close()
	f.Close()
	rt := loadBuiltin(t, "archive", ws, []string{home})
	for _, tc := range []map[string]any{
		{"path": zipPath, "dest": "ws"},
		{"path": zipPath, "dest": ws},
		{"path": zipPath, "dest": "ws/brain/cerebellum"},
	} {
		res := callJSON(t, rt, "archive_extract", tc)
		if !res.IsError {
			t.Errorf("archive_extract %v succeeded: %s", tc, res.Content)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(ws, "config.json")); strings.Contains(string(data), "evil") {
		t.Error("config.json was overwritten")
	}
	if _, err := os.Stat(filepath.Join(ws, "brain", "cerebellum", "evil")); err == nil {
		t.Error("a capability was written into brain/cerebellum")
	}
}

// Reproduction: fs_grep over the workspace matched its pattern against
// wrasse.db (then reported a binary match), leaking the key bit by bit.
func TestGrepNeverReadsProtectedFiles(t *testing.T) {
	home, ws := newWorkspace(t)
	rt := loadBuiltin(t, "filesystem", ws, []string{home})
	for _, pattern := range []string{"sk-S", "sk-X", "KEY"} {
		res := callJSON(t, rt, "fs_grep", map[string]any{"path": ".", "pattern": pattern})
		if strings.Contains(res.Content, "SECRETKEY") || strings.Contains(res.Content, "wrasse.db") || strings.Contains(res.Content, "wrasse.log") {
			t.Errorf("fs_grep %q revealed protected content: %s", pattern, res.Content)
		}
		// The answer must not depend on the pattern matching the database.
		if strings.Contains(res.Content, "binary") {
			t.Errorf("fs_grep %q mentions binary files: %s", pattern, res.Content)
		}
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		// Relative paths start in the granted folder, home.
		{"fs_read", map[string]any{"path": "ws/wrasse.db"}},
		{"fs_read", map[string]any{"path": "./ws/brain/../wrasse.db"}},
		{"fs_read", map[string]any{"path": "ws/config.json"}},
		{"fs_read", map[string]any{"path": "ws/logs/wrasse.log"}},
		{"fs_grep", map[string]any{"path": "ws/wrasse.db", "pattern": "sk"}},
		{"fs_write", map[string]any{"path": "ws/brain//cerebellum/evil/SKILL.md", "content": "---\nname: evil\n---\n"}},
		{"fs_write", map[string]any{"path": "ws/brain/./cerebellum/notes/SKILL.md", "content": "x"}},
		{"fs_write", map[string]any{"path": "ws/config.json", "content": "{}"}},
	} {
		res := callJSON(t, rt, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(res.Content, "no tool may") && !strings.Contains(res.Content, "may read but not change") {
			t.Errorf("%s %v: %q; want a refusal naming the protection", tc.tool, tc.args, res.Content)
		}
	}
	// A hard link to the database is the database.
	link := filepath.Join(home, "innocent.txt")
	if err := os.Link(filepath.Join(ws, "wrasse.db"), link); err != nil {
		t.Fatal(err)
	}
	if res := callJSON(t, rt, "fs_read", map[string]any{"path": link}); !res.IsError {
		t.Errorf("fs_read of a hard link to the database: %s", res.Content)
	}
	// Reading beside the protected paths still works, and the capability
	// folder is readable.
	for _, p := range []string{"ws/readme.txt", "ws/brain/cerebellum/notes/SKILL.md"} {
		if res := callJSON(t, rt, "fs_read", map[string]any{"path": p}); res.IsError {
			t.Errorf("fs_read %s: %s", p, res.Content)
		}
	}
}

// workspaceProtected are a workspace's protected paths as Wrasse wires
// them (Options.Protected).
func workspaceProtected(ws string) sandbox.Protected {
	w := workspace.Workspace{Root: ws}
	noAccess, readOnly := w.Protected()
	return sandbox.Protected{NoAccess: noAccess, ReadOnly: readOnly, Runnable: []string{w.Capabilities()}}
}
