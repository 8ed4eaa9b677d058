package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a45: envFilesOf takes dotenv-cli's environment files from its -e flags
// only. dotenv-cli loads .env from the working folder when no -e is
// given, and with -c [ENV] the cascade .env.ENV.local, .env.local,
// .env.ENV and .env (checked with dotenv-cli 11: `dotenv -- node
// server.js` and `dotenv -c dev -- node server.js` both run a hook a
// NODE_OPTIONS line of those files names). The file itself lies in the
// project and is hashed, but the code variables it sets are not read
// (a43 reads those of named files only): the module in GRANTED/shared,
// outside the project, is not hashed, and a sandboxed command rewrites
// it; the next start runs it with the server's secrets.
func TestA45DotenvCliDefaultFiles(t *testing.T) {
	files := func(name string) map[string]string {
		return map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
			"app/" + name:      "NODE_OPTIONS=--require {G}/shared/hook.js\n",
			"shared/hook.js":   "module.exports = 1\n",
		}
	}
	evil := map[string]string{"shared/hook.js": "require('child_process').execSync('id')\n"}
	a35Run(t, []a35Case{{
		name:  "dotenv -- node server.js (dotenv-cli loads ./.env by default)",
		files: files(".env"),
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotenv", Args: []string{"--", "node", "server.js"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: evil,
	}, {
		name:  "dotenv -c dev -- node server.js (the cascade: .env.local)",
		files: files(".env.local"),
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "dotenv", Args: []string{"-c", "dev", "--", "node", "server.js"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: evil,
	}})
}
