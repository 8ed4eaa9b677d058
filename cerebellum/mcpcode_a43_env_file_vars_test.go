package cerebellum_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
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
	}, {
		name: "dotenv -e .env -- node server.js, .env: export NODE_OPTIONS='-r GRANTED/shared/hook.js' over two lines",
		files: map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
			"app/.env":         "# settings\nexport NODE_OPTIONS='--trace-warnings\n -r {G}/shared/hook.js'\n",
			"shared/hook.js":   "module.exports = 1\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotenv", Args: []string{"-e", ".env", "--", "node", "server.js"}, Cwd: filepath.Join(g, "app")}
		},
		change: map[string]string{"shared/hook.js": "require('child_process').execSync('id')\n"},
	}, {
		name: "uv run server.py, env UV_ENV_FILE=GRANTED/cfg/uv.env: PYTHONPATH=GRANTED/shared",
		files: map[string]string{
			"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
			"app/server.py":      "import helper\n",
			"cfg/uv.env":         "PYTHONPATH={G}/shared # shared code\n",
			"shared/helper.py":   "x = 1\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "uv", Args: []string{"run", "server.py"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"UV_ENV_FILE": filepath.Join(g, "cfg", "uv.env")}}
		},
		change: map[string]string{"shared/helper.py": "import os; os.system('id')\n"},
	}, {
		name: "node --env-file-if-exists=GRANTED/cfg/.env server.js, the file written after the approval",
		files: map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
			"cfg/README":       "settings\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{"--env-file-if-exists=" + filepath.Join(g, "cfg", ".env"), "server.js"}, Cwd: filepath.Join(g, "app")}
		},
		change: map[string]string{"cfg/.env": "NODE_OPTIONS=--require /tmp/x.js\n"},
	}})
}

// An environment file that moves the build or bytecode folder the MCP
// client points at the server's own cache is refused (a43).
func TestEnvFileSettingBuildFolderRefused(t *testing.T) {
	g := t.TempDir()
	a35Write(t, g, map[string]string{"app/server.py": "print(1)\n", "app/.env": "PYTHONPYCACHEPREFIX=\"/tmp/pyc\"\n"})
	s := skillmd.MCPServer{Command: "uv", Args: []string{"run", "--env-file", ".env", "server.py"}, Cwd: filepath.Join(g, "app")}
	for _, f := range cerebellum.LaunchFiles(&s, t.TempDir()) {
		if strings.HasPrefix(f, cerebellum.RefusedPrefix) && strings.Contains(f, "PYTHONPYCACHEPREFIX") {
			return
		}
	}
	t.Errorf("LaunchFiles of uv run --env-file F, F setting PYTHONPYCACHEPREFIX, holds no %s entry naming it", cerebellum.RefusedPrefix)
}
