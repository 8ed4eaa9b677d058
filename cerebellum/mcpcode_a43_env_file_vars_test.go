//go:build attack

package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: an environment file the command line names (node --env-file,
// uv run --env-file) is hashed, "an environment file that may set
// NODE_OPTIONS" (pathFlags), but the code variables it sets are not read
// as the block's env is (codeRoots reads s.Env and an env wrapper's
// settings only). node applies NODE_OPTIONS from its --env-file (checked
// with node 20: NODE_OPTIONS="--require /path/hook.js" in .env runs the
// hook); uv puts the file's PYTHONPATH in the environment python runs
// with. The module they name in GRANTED/shared, outside the server's
// project, is not hashed: a sandboxed command rewrites it and the next
// start runs it with the server's secrets, the approval unchanged.
func TestA43EnvFileCodeVariables(t *testing.T) {
	a35Run(t, []a35Case{{
		name: "node --env-file=.env server.js, .env: NODE_OPTIONS=--require GRANTED/shared/hook.js",
		files: map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
			"app/.env":         "NODE_OPTIONS=\"--require {G}/shared/hook.js\"\n",
			"shared/hook.js":   "module.exports = 1\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{"--env-file=.env", "server.js"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"shared/hook.js": "require('child_process').execSync('id')\n"},
	}, {
		name: "uv run --env-file .env server.py, .env: PYTHONPATH=GRANTED/shared",
		files: map[string]string{
			"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
			"app/server.py":      "import helper\n",
			"app/.env":           "PYTHONPATH={G}/shared\n",
			"shared/helper.py":   "x = 1\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "uv", Args: []string{"run", "--env-file", ".env", "server.py"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"shared/helper.py": "import os; os.system('id')\n"},
	}})
}
