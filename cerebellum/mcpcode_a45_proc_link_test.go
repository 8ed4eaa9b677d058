package cerebellum_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a45: a43 refuses a path through /proc/self, /proc/PID or /dev/fd when
// the command line, cwd or env spells it (perProcessPath), or when a
// link among the code, or the named file itself, leads there
// (linkThroughProc on the whole path). A link in the middle of the
// named path is neither: GRANTED/me -> /proc/self makes
// GRANTED/me/cwd/server.py the server's own working folder's server.py
// (GRANTED/app/server.py) to python, and Wrasse's working folder's to
// EvalSymlinks, where there is none, so nothing is hashed and nothing is
// refused. A link to /proc itself (target "/proc" or "/proc/", which
// perProcessPath does not take for a per-process folder) does the same
// through GRANTED/p/self/cwd/server.py. The link lies in the granted
// folder beside the project, not in the project walked by codeFiles.
// A sandboxed command rewrites GRANTED/app/server.py, and the next start
// runs it with the server's secrets, the approval unchanged.
func TestA45ProcThroughLinkInPath(t *testing.T) {
	for _, c := range []struct {
		name, link, target string
		script             func(g string) string
	}{
		{"GRANTED/me -> /proc/self, python3 GRANTED/me/cwd/server.py", "me", "/proc/self",
			func(g string) string { return filepath.Join(g, "me", "cwd", "server.py") }},
		{"GRANTED/p -> /proc, python3 GRANTED/p/self/cwd/server.py", "p", "/proc",
			func(g string) string { return filepath.Join(g, "p", "self", "cwd", "server.py") }},
		{"GRANTED/p -> /proc/, python3 ../p/thread-self/cwd/server.py", "p", "/proc/",
			func(g string) string { return "../p/thread-self/cwd/server.py" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "granted")
			a35Write(t, g, map[string]string{
				"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
				"app/server.py":      "print(1)\n",
			})
			if err := os.Symlink(c.target, filepath.Join(g, c.link)); err != nil {
				t.Fatal(err)
			}
			s := skillmd.MCPServer{Command: "python3", Args: []string{c.script(g)}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
			capDir := t.TempDir()
			files := cerebellum.LaunchFiles(&s, capDir)
			for _, f := range files {
				if strings.HasPrefix(f, cerebellum.RefusedPrefix) {
					return // refused: fine
				}
			}
			before := cerebellum.ApprovalKey(&s, capDir)
			a35Write(t, g, map[string]string{"app/server.py": a35Evil})
			if after := cerebellum.ApprovalKey(&s, capDir); after == before {
				t.Errorf("python3 %q (cwd %q) runs GRANTED/app/server.py through the link %s -> %s; it changed after the approval and the approval is the same, nor is the start refused\nLaunchFiles: %q",
					s.Args, s.Cwd, c.link, c.target, files)
			}
		})
	}
}
