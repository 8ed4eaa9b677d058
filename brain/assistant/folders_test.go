package assistant

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/provider/providertest"
	"github.com/wrasse-app/wrasse/brain/workspace"
)

// fakeHome is a home folder with Documents and projects folders and a
// private key, as a person's has.
func fakeHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{"Documents", "projects", ".ssh"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "Documents", "notes.txt"), []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func openHome(t *testing.T, ws, home string) *App {
	t.Helper()
	a, err := Open(Options{Workspace: ws, Home: home, Retries: -1,
		Clock: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// A new workspace grants no folder: the home folder's files, its keys
// among them, are out of the tools' reach, the model is told to ask for a
// folder, and the common folders are offered. On main the home folder was
// granted and fs_read returned the key.
func TestNewWorkspaceGrantsNoFolder(t *testing.T) {
	home := fakeHome(t)
	a := openHome(t, t.TempDir(), home)
	if got := a.Folders(); len(got) != 0 {
		t.Fatalf("a new workspace grants %v; want nothing", got)
	}
	want := []string{filepath.Join(home, "Documents"), filepath.Join(home, "projects")}
	if got := a.SuggestedFolders(); !slices.Equal(got, want) {
		t.Errorf("suggested %v; want %v", got, want)
	}
	for _, path := range []string{filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(home, "Documents", "notes.txt")} {
		args, _ := json.Marshal(map[string]string{"path": path})
		out, err := a.CallTool(t.Context(), "fs_read", args, nil)
		if err == nil && out.Ran && !out.Result.IsError || strings.Contains(out.Result.Content, "PRIVATE KEY") || strings.Contains(out.Result.Content, "notes") && !out.Result.IsError {
			t.Errorf("fs_read %s with no folder granted: %+v, %v", path, out, err)
		}
	}
	// The model learns it from its system prompt.
	m := providertest.NewModel(t, providertest.OpenAI)
	m.Reply(providertest.Text("Please grant a folder."))
	useModel(t, a, m, "m")
	if _, err := a.Turn(t.Context(), 0, "What is in my notes?", TurnOptions{}); err != nil {
		t.Fatal(err)
	}
	if sys := m.Requests()[0].System; !strings.Contains(sys, "No folder is granted yet") || !strings.Contains(sys, "Settings → Folders") {
		t.Errorf("the system prompt does not say that no folder is granted:\n%s", sys)
	}
	// A folder granted reaches the tools, and the prompt names it.
	if _, err := a.GrantFolders(filepath.Join(home, "Documents")); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"path": filepath.Join(home, "Documents", "notes.txt")})
	if out, err := a.CallTool(t.Context(), "fs_read", args, nil); err != nil || out.Result.IsError || !strings.Contains(out.Result.Content, "notes") {
		t.Errorf("fs_read in a granted folder: %+v, %v", out, err)
	}
}

// A config.json written when the home folder was the default (no folders
// key) grants nothing now either: the choice docs/configuration.md states.
func TestConfigWithoutFoldersKeyGrantsNothing(t *testing.T) {
	home := fakeHome(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "config.json"), []byte(`{"model": "llama3.1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a := openHome(t, ws, home)
	if got := a.Folders(); len(got) != 0 {
		t.Errorf("folders %v; want none", got)
	}
}

// Granting adds to what is granted and says what it added; it never
// replaces. On main the drop's offer left only the new folder.
func TestGrantFoldersAdds(t *testing.T) {
	home := fakeHome(t)
	a := openHome(t, t.TempDir(), home)
	docs, projects := filepath.Join(home, "Documents"), filepath.Join(home, "projects")
	if _, err := a.SetConfig("folders", "~/Documents"); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	added, err := a.GrantFolders(tmp)
	if err != nil || !slices.Equal(added, []string{tmp}) {
		t.Fatalf("GrantFolders = %v, %v", added, err)
	}
	if got := a.Folders(); !slices.Equal(got, []string{docs, tmp}) {
		t.Errorf("folders %v; want %s kept and %s added", got, docs, tmp)
	}
	// Already granted, or inside a granted folder: nothing to add.
	sub := filepath.Join(docs, "sub")
	os.Mkdir(sub, 0o700)
	if added, err := a.GrantFolders(docs, sub, "~/Documents"); err != nil || len(added) != 0 {
		t.Errorf("granting what is granted added %v, %v", added, err)
	}
	// Two grants at once, as two drops' offers answered together: both land.
	more := []string{t.TempDir(), t.TempDir(), projects}
	var wg sync.WaitGroup
	for _, d := range more {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := a.GrantFolders(d); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got := a.Folders()
	for _, d := range append([]string{docs, tmp}, more...) {
		if !slices.Contains(got, d) {
			t.Errorf("folders %v lack %s", got, d)
		}
	}
	// A file or a missing folder is refused, naming it.
	if _, err := a.GrantFolders(filepath.Join(docs, "notes.txt")); !errors.Is(err, workspace.ErrBadValue) || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("granting a file: %v", err)
	}
	if _, err := a.GrantFolders(filepath.Join(home, "nope")); err == nil {
		t.Error("granting a missing folder succeeded")
	}
	if err := a.RevokeFolder(tmp); err != nil || slices.Contains(a.Folders(), tmp) {
		t.Errorf("revoke: %v, %v", a.Folders(), err)
	}
	if cfg, _ := a.ws.LoadConfig(); !slices.Contains(cfg.Folders, "~/Documents") {
		t.Errorf("config.json lost the folder as written: %v", cfg.Folders)
	}
}
