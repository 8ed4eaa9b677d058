package builtin_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	builtin "github.com/wrasse-app/wrasse/brain/cerebellum"
	"github.com/wrasse-app/wrasse/brain/gate"
	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/plugins"
)

// Attack (a7) on F1 (links resolved in the gate's path checks): the gate
// resolves a link when it checks the call, and fs_read opens it later,
// following links that stay in the granted folders. A background job of
// an earlier command (the shell leaves one running when its output goes
// to a file) swaps docs/n between a.txt and ../.env; the gate sees a.txt
// and allows the call unasked, the tool reads .env. Real gate, real
// plugin host, real files.
func TestLinkFlippedBetweenGateAndOpen(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	home := t.TempDir()
	if r, err := filepath.EvalSymlinks(home); err == nil {
		home = r
	}
	project := filepath.Join(home, "project")
	ws := filepath.Join(home, "ws")
	for _, err := range []error{
		os.MkdirAll(filepath.Join(project, "docs"), 0o755),
		os.MkdirAll(ws, 0o755),
		os.WriteFile(filepath.Join(project, ".env"), []byte("OPENAI_API_KEY="+flipSecret+"\n"), 0o600),
		os.WriteFile(filepath.Join(project, "a.txt"), []byte("harmless\n"), 0o644),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	host := plugins.NewHost(plugins.Options{
		Roots: func(string, []string) []string { return []string{project} },
		Hosts: func(string, []string) []string { return nil },
	})
	reg, err := cerebellum.Open(cerebellum.Options{Builtin: builtin.FS(), Workspace: ws,
		Loaders: map[cerebellum.Kind]cerebellum.Loader{cerebellum.KindPlugin: host}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	sess := reg.NewSession("a7", nil)
	env := gate.Env{Home: home, Folders: []string{project}, Workspace: ws, TempDirs: []string{os.TempDir()}}
	link := filepath.Join(project, "docs", "n")
	args, _ := json.Marshal(map[string]any{"path": link})
	stop := flipLink(t, link, "../a.txt", "../.env")
	defer stop()
	allowed := 0
	for i := range 2000 {
		v := gate.CheckIn(reg.Snapshot(), env, "fs_read", args)
		if v.Decision != gate.Allow {
			continue
		}
		allowed++
		res, err := reg.Call(t.Context(), sess, "fs_read", args)
		if err == nil && strings.Contains(res.Content, flipSecret) {
			t.Fatalf("round %d: the gate allowed fs_read %s unasked (it pointed to a.txt) and the tool returned .env: %q",
				i, link, res.Content)
		}
	}
	if allowed == 0 {
		t.Skip("the gate never saw the harmless side")
	}
}
