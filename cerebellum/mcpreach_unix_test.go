//go:build unix

package cerebellum_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
	"golang.org/x/sys/unix"
)

// a39 A2: a named pipe among a server's code reads as whatever another
// process writes into it; it refuses the start (naming it), and looking
// for it never opens it (which would block: no writer here).
func TestA39NamedPipeAmongTheCodeIsRefused(t *testing.T) {
	g := t.TempDir()
	a35Write(t, g, map[string]string{
		"app/package.json":  "{\"name\":\"app\"}",
		"app/server.js":     "require('./lib')\n",
		"app/lib/index.js":  "// v1\n",
		"env/pyvenv.cfg":    "home = /usr/bin\n",
		"env/lib/README.md": "x\n",
	})
	cases := []struct {
		name, pipe string
		s          skillmd.MCPServer
	}{
		{"node PROJECT/server.js: lib.js a pipe beside lib/", "app/lib.js", skillmd.MCPServer{Command: "node", Args: []string{filepath.Join(g, "app/server.js")}}},
		{"a pipe named as the preload", "app/pre.js", skillmd.MCPServer{Command: "node", Args: []string{"--require", filepath.Join(g, "app/pre.js"), filepath.Join(g, "app/server.js")}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(g, tc.pipe)
			if err := unix.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(p)
			for _, f := range cerebellum.LaunchFiles(&tc.s, t.TempDir()) {
				if why, ok := strings.CutPrefix(f, cerebellum.RefusedPrefix); ok && strings.Contains(why, p) && strings.Contains(why, "named pipe") {
					return
				}
			}
			t.Errorf("LaunchFiles holds no %s entry for the named pipe %s: %q", cerebellum.RefusedPrefix, p, cerebellum.LaunchFiles(&tc.s, t.TempDir()))
		})
	}
}

// A link in a project to a named pipe elsewhere refuses the start, and
// the approval never opens it.
func TestA39LinkToANamedPipeIsRefused(t *testing.T) {
	g := t.TempDir()
	a35Write(t, g, map[string]string{"app/package.json": "{}", "app/server.js": "require('./lib')\n"})
	pipe := filepath.Join(t.TempDir(), "pipe")
	if err := unix.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(pipe, filepath.Join(g, "app/lib.js")); err != nil {
		t.Fatal(err)
	}
	s := skillmd.MCPServer{Command: "node", Args: []string{filepath.Join(g, "app/server.js")}}
	if key := cerebellum.ApprovalKey(&s, t.TempDir()); key == "" {
		t.Fatal("no approval key")
	}
	for _, f := range cerebellum.LaunchFiles(&s, t.TempDir()) {
		if strings.HasPrefix(f, cerebellum.RefusedPrefix) && strings.Contains(f, "named pipe") {
			return
		}
	}
	t.Errorf("LaunchFiles holds no %s entry for the link to a named pipe", cerebellum.RefusedPrefix)
}
