package cerebellum_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: /proc/self/cwd is a different folder to each process: to the
// server, its working folder (the block's cwd); to Wrasse, which hashes
// what the command line names (LaunchFiles resolves links with
// EvalSymlinks), Wrasse's own working folder. A block naming its script
// as /proc/self/cwd/server.py (or PYTHONPATH=/proc/self/cwd/lib) runs
// GRANTED/app/server.py, and the approval hashed whatever lay at that
// path below Wrasse's working folder (nothing): a sandboxed command
// that rewrites GRANTED/app/server.py chose what the next start ran,
// the approval unchanged. Such a block is now refused (a Refused entry
// naming the path), as is a link in its code through such a folder; the
// server's standard streams (/proc/self/fd/1, /dev/fd/2) stay allowed.
func TestA43ProcSelfCwdScript(t *testing.T) {
	files := map[string]string{
		"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
		"app/server.py":      "print(1)\n",
		"app/package.json":   "{\"name\":\"app\"}\n",
		"app/server.js":      "console.log(1)\n",
	}
	for _, c := range []struct {
		name    string
		block   func(g string) skillmd.MCPServer
		refused string
	}{
		{"python3 /proc/self/cwd/server.py", func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"/proc/self/cwd/server.py"}, Cwd: filepath.Join(g, "app")}
		}, "/proc/self"},
		{"node /proc/self/cwd/server.js", func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{"/proc/self/cwd/server.js"}, Cwd: filepath.Join(g, "app")}
		}, "/proc/self"},
		{"PYTHONPATH=/proc/thread-self/cwd", func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"-m", "server"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"PYTHONPATH": "/x:/proc/thread-self/cwd"}}
		}, "/proc/thread-self"},
		{"node --require=/proc/1234/cwd/hook.js", func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{"--require=/proc/1234/cwd/hook.js", "server.js"}, Cwd: filepath.Join(g, "app")}
		}, "/proc/1234"},
		{"bash -c 'source /dev/fd/3'", func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "bash", Args: []string{"-c", "source /dev/fd/3; exec node server.js"}, Cwd: filepath.Join(g, "app")}
		}, "/dev/fd"},
		{"env NODE_OPTIONS=-r/proc/self/root/x.js node", func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "env", Args: []string{"NODE_OPTIONS=-r/proc/self/root/x.js", "node", "server.js"}, Cwd: filepath.Join(g, "app")}
		}, "/proc/self"},
		{"a link in the project through /proc/self/cwd", func(g string) skillmd.MCPServer {
			if err := os.Symlink("/proc/self/cwd/server.py", filepath.Join(g, "app", "lib.py")); err != nil {
				t.Fatal(err)
			}
			return skillmd.MCPServer{Command: "python3", Args: []string{"server.py"}, Cwd: filepath.Join(g, "app")}
		}, "/proc/self"},
		{"logs to /proc/self/fd/2 and /dev/fd/1", func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{"server.js", "--log=/proc/self/fd/2", "--out", "/dev/fd/1"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"LOG": "/dev/fd/2"}}
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "granted")
			a35Write(t, g, files)
			s := c.block(g)
			var why []string
			for _, f := range cerebellum.LaunchFiles(&s, t.TempDir()) {
				if w, ok := strings.CutPrefix(f, cerebellum.RefusedPrefix); ok {
					why = append(why, w)
				}
			}
			switch {
			case c.refused == "" && len(why) > 0:
				t.Errorf("LaunchFiles of %s %q refuses it: %q", s.Command, s.Args, why)
			case c.refused != "" && (len(why) == 0 || !strings.Contains(why[0], c.refused)):
				t.Errorf("LaunchFiles of %s %q (env %v) holds no %s entry naming %s: %q", s.Command, s.Args, s.Env, cerebellum.RefusedPrefix, c.refused, why)
			}
		})
	}
}
