//go:build attack

package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: /proc/self/cwd is a different folder to each process: to the
// server, its working folder (the block's cwd); to Wrasse, which hashes
// what the command line names (LaunchFiles resolves links with
// EvalSymlinks), Wrasse's own working folder. A block naming its script
// as /proc/self/cwd/server.py (or PYTHONPATH=/proc/self/cwd/lib) runs
// GRANTED/app/server.py, and the approval hashes whatever lies at that
// path below Wrasse's working folder (nothing): a sandboxed command
// that rewrites GRANTED/app/server.py chooses what the next start runs,
// the approval unchanged.
func TestA43ProcSelfCwdScript(t *testing.T) {
	a35Run(t, []a35Case{{
		name: "python3 /proc/self/cwd/server.py, cwd GRANTED/app",
		files: map[string]string{
			"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
			"app/server.py":      "print(1)\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "python3", Args: []string{"/proc/self/cwd/server.py"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"app/server.py": "import os; os.system('id')\n"},
	}, {
		name: "node /proc/self/cwd/server.js, cwd GRANTED/app",
		files: map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{"/proc/self/cwd/server.js"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"app/server.js": "require('child_process').execSync('id')\n"},
	}})
}
