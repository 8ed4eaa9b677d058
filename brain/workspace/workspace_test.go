package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveOrder(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvHome {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		name, flag, env, want string
	}{
		{"flag wins", "/tmp/a", "/tmp/b", "/tmp/a"},
		{"env next", "", "/tmp/b", "/tmp/b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Resolve(tt.flag, env(tt.env))
			if err != nil || w.Root != tt.want {
				t.Fatalf("Resolve = %q, %v; want %q", w.Root, err, tt.want)
			}
		})
	}
	w, err := Resolve("", env(""))
	if err != nil || !strings.HasSuffix(w.Root, "wrasse") {
		t.Fatalf("default workspace = %q, %v", w.Root, err)
	}
}

func TestConfigRoundTripAndErrors(t *testing.T) {
	w := Workspace{Root: t.TempDir()}
	c, err := w.LoadConfig()
	if err != nil || c.Provider != "" {
		t.Fatalf("missing config: %+v, %v", c, err)
	}
	if d := c.WithDefaults(); d.BaseURL != DefaultBaseURL || d.MaxSteps != DefaultMaxSteps {
		t.Fatalf("defaults: %+v", d)
	}
	want := Config{Provider: "anthropic", Model: "m", PinnedCapabilities: []string{"web"}, AutoResync: true}
	if err := w.SaveConfig(want); err != nil {
		t.Fatal(err)
	}
	got, err := w.LoadConfig()
	if err != nil || got.Provider != "anthropic" || got.PinnedCapabilities[0] != "web" || !got.AutoResync {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	bad := []struct{ name, text, want string }{
		{"syntax", "{\n  \"model\": \"x\",\n  oops\n}", "config.json:3:3"},
		{"type", "{\"maxSteps\": \"ten\"}", "maxSteps must be a whole number, not a string"},
	}
	for _, tt := range bad {
		_, err := ParseConfig([]byte(tt.text), "config.json")
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestEnsureCreatesLayout(t *testing.T) {
	w := Workspace{Root: filepath.Join(t.TempDir(), "ws")}
	if err := w.Ensure(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{w.Capabilities(), w.Identity()} {
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	}
}
