//go:build attack

package cerebellum_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: Python's bytecode cache moved out of the project
// (PYTHONPYCACHEPREFIX in the block's env, or python -X
// pycache_prefix=DIR): python loads DIR/<source path>/NAME.cpython-3X.pyc
// instead of compiling NAME.py whenever the pyc's header (the source's
// mtime and size) matches, never checking the code in it. The approval
// hashes the project's own __pycache__ (inside the project), but DIR is
// no code root and PYTHONPYCACHEPREFIX no code variable, so a sandboxed
// command that writes a pyc there (the header copied from the one the
// server wrote, the code its own) chooses what the next start runs with
// the server's secrets (checked with python 3.11: "EVIL from pyc" from a
// helper.py that prints "helper ok"). The build-folder case of a42, for
// python.
func TestA43PycachePrefixOutsideProject(t *testing.T) {
	for _, c := range []struct {
		name  string
		block func(g string) skillmd.MCPServer
	}{{
		name: "python3 server.py, env PYTHONPYCACHEPREFIX=GRANTED/pycache",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"server.py"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"PYTHONPYCACHEPREFIX": filepath.Join(g, "pycache"), "TOKEN": "t"}}
		},
	}, {
		name: "python3 -X pycache_prefix=GRANTED/pycache server.py",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"-X", "pycache_prefix=" + filepath.Join(g, "pycache"), "server.py"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"TOKEN": "t"}}
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "granted")
			a35Write(t, g, map[string]string{
				"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
				"app/server.py":      "import helper\n",
				"app/helper.py":      "print('helper ok')\n",
			})
			// What the server's earlier start wrote there.
			pyc := filepath.Join(g, "pycache", g, "app", "helper.cpython-311.pyc")
			if err := os.MkdirAll(filepath.Dir(pyc), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(pyc, []byte("\xa7\r\r\n\x00\x00\x00\x00 good code"), 0o644); err != nil {
				t.Fatal(err)
			}
			s := c.block(g)
			capDir := t.TempDir()
			before := cerebellum.ApprovalKey(&s, capDir)
			if err := os.WriteFile(pyc, []byte("\xa7\r\r\n\x00\x00\x00\x00 the command's code"), 0o644); err != nil {
				t.Fatal(err)
			}
			if after := cerebellum.ApprovalKey(&s, capDir); after == before {
				t.Errorf("%s %q (env %v): %s, the bytecode python runs for helper.py, changed after the approval without changing it: the next start runs it with the server's secrets\nLaunchFiles: %q",
					s.Command, s.Args, s.Env, pyc, cerebellum.LaunchFiles(&s, capDir))
			}
		})
	}
}
