package assistant

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wrasse-app/wrasse/brain/workspace"
)

// TestBrokenConfigNeverLocksTheDoor: a config.json with a syntax error,
// a value of the wrong type, or nothing in it opens the workspace with
// what could be read and defaults for the rest, and says where the
// problem is. On main each of these stopped Open.
func TestBrokenConfigNeverLocksTheDoor(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		model    string // the effective model
		maxSteps int
		problem  string // in ConfigErrors, "" for none
	}{
		{"syntax error", "{\n  \"model\": \"qwen\",\n  \"maxSteps\": 7\n  \"folders\": [\"/x\"]\n}", "qwen", 7, "config.json:4:3: invalid character"},
		{"wrong type", "{\"model\": \"qwen\", \"maxSteps\": \"seven\"}", "qwen", workspace.DefaultMaxSteps, "config.json:1:31: maxSteps must be a whole number, not a string"},
		{"empty", "", workspace.DefaultModel, workspace.DefaultMaxSteps, ""},
		{"cut short", "{\"model\": \"qwen\"", "qwen", workspace.DefaultMaxSteps, "the file ends before its closing }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ws := workspace.Workspace{Root: dir}
			if err := os.WriteFile(ws.Config(), []byte(tt.text), 0o600); err != nil {
				t.Fatal(err)
			}
			a, err := Open(Options{Workspace: dir, Retries: -1})
			if err != nil {
				t.Fatalf("Open with a broken config.json: %v", err)
			}
			defer a.Close()
			if m := a.Model(); m.Model != tt.model || m.MaxSteps != tt.maxSteps {
				t.Fatalf("effective config %+v, want model %s and maxSteps %d", m, tt.model, tt.maxSteps)
			}
			errs := a.ConfigErrors()
			all := a.ConfigProblems()
			if tt.problem == "" {
				if len(errs) != 0 || len(all) != 0 {
					t.Fatalf("problems %v / %v, want none", errs, all)
				}
				return
			}
			if len(errs) != 1 || !strings.Contains(errs[0].String(), tt.problem) || !strings.Contains(all[0].String(), tt.problem) {
				t.Fatalf("ConfigErrors %v, ConfigProblems %v; want %q", errs, all, tt.problem)
			}
			// Rewriting it would drop what could not be read: refused.
			if _, err := a.SetConfig("model", "llama3.2"); !errors.Is(err, workspace.ErrBadConfig) || !strings.Contains(err.Error(), tt.problem) {
				t.Fatalf("SetConfig on a broken file = %v, want ErrBadConfig naming the problem", err)
			}
			if data, _ := os.ReadFile(ws.Config()); string(data) != tt.text {
				t.Fatalf("the refused change wrote %q", data)
			}
			// Replacing it keeps what was read, and the old file beside it.
			cfg, err := a.ReplaceConfig(func(c *workspace.Config) error { return c.Set("model", "llama3.2") })
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Model != "llama3.2" || (tt.maxSteps != workspace.DefaultMaxSteps && cfg.MaxSteps != tt.maxSteps) {
				t.Fatalf("replaced config %+v", cfg)
			}
			if old, _ := os.ReadFile(ws.Config() + BrokenConfigSuffix); string(old) != tt.text {
				t.Fatalf("config.json.broken = %q, want the file as it was", old)
			}
			if errs := a.ConfigErrors(); len(errs) != 0 || a.Model().Model != "llama3.2" {
				t.Fatalf("after the repair: problems %v, model %s", errs, a.Model().Model)
			}
			// A sound file takes changes as before.
			if _, err := a.SetConfig("maxSteps", "9"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTemporaryFilesSweptAtOpen: temporary files of writes a kill cut
// short (a Resync's manifest cache, config.json) are gone after the next
// open. On main they stayed for good.
func TestTemporaryFilesSweptAtOpen(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(Options{Workspace: dir, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ws := a.Workspace()
	a.Close()
	left := []string{ws.ManifestCache() + "-not-a-temp", ws.Root + "/.config.json.tmp-123", ws.Root + "/.cache/.manifests.json.tmp-4567",
		ws.Root + "/.cache/.applied.json.tmp-89", ws.Backups() + "/.wrasse-20260301T090000.000Z.db.tmp-11"}
	for _, p := range left {
		if err := os.MkdirAll(p[:strings.LastIndex(p, "/")], 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, err = Open(Options{Workspace: dir, Retries: -1, Clock: func() time.Time { return time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := os.Stat(left[0]); err != nil {
		t.Fatalf("a file that is not a temporary one was removed: %v", err)
	}
	for _, p := range left[1:] {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there", p)
		}
	}
}
