package sdk

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveStaysInsideRoots(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, "ws", "sub"), 0o755)
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	env := &Env{Roots: []string{root}, Workspace: filepath.Join(root, "ws")}
	tests := []struct {
		arg  string
		want string // "" means refused
	}{
		// Relative paths start in the first granted folder, not the workspace.
		{"sub", filepath.Join(root, "sub")},
		{"", root},
		{"ws/sub", filepath.Join(root, "ws", "sub")},
		{filepath.Join(root, "notes.txt"), filepath.Join(root, "notes.txt")},
		{"../../x", ""},
		{"/etc/passwd", ""},
		{"../escape/secret", ""},
		{filepath.Join(root, "escape", "new-file"), ""},
	}
	for _, tt := range tests {
		got, err := env.ResolveArg(tt.arg)
		if tt.want == "" {
			var te *ToolError
			if err == nil || !errors.As(err, &te) || !strings.Contains(err.Error(), "outside the folders") {
				t.Errorf("ResolveArg(%q) = %q, %v; want a refusal", tt.arg, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ResolveArg(%q) = %q, %v; want %q", tt.arg, got, err, tt.want)
		}
	}
	none := &Env{}
	if _, err := none.ResolveArg("x"); err == nil || !strings.Contains(err.Error(), "no folder is granted") {
		t.Errorf("no roots: %v", err)
	}
	if _, err := none.Resolve("", "x"); !errors.Is(err, ErrOutsideRoots) {
		t.Errorf("Resolve without roots: %v", err)
	}
}

func TestRequestAccessors(t *testing.T) {
	req, err := NewRequest("t", []byte(`{"s":"x","n":3,"f":1.5,"b":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.String("s", "") != "x" || req.Int("n", 0) != 3 || req.Float("f", 0) != 1.5 || !req.Bool("b", false) {
		t.Fatalf("accessors: %+v", req.Args)
	}
	if req.String("missing", "d") != "d" || req.Int("s", 7) != 7 || req.Has("missing") {
		t.Fatal("defaults")
	}
	var v struct{ N int }
	if err := req.Decode(&v); err != nil || v.N != 3 {
		t.Fatalf("decode: %v %v", v, err)
	}
	if _, err := NewRequest("t", []byte(`[1]`)); err == nil {
		t.Fatal("a JSON array was accepted as arguments")
	}
	empty, _ := NewRequest("t", nil)
	if empty.Args == nil {
		t.Fatal("nil args")
	}
}

func TestPluginRegistry(t *testing.T) {
	p := NewPlugin()
	p.Handle("b", nil)
	p.Handle("a", nil)
	closed := false
	p.OnClose(func() error { closed = true; return nil })
	if got := strings.Join(p.ToolNames(), ","); got != "a,b" {
		t.Fatalf("ToolNames = %s", got)
	}
	if err := p.Close(); err != nil || !closed {
		t.Fatal("OnClose not run")
	}
	var l *Logger
	l.Info("nil logger is safe")
	if !(&Env{Hosts: []string{"*"}}).AllowsHost("x") || (&Env{Hosts: []string{"a.com"}}).AllowsHost("b.com") {
		t.Fatal("AllowsHost")
	}
}
