//go:build attack

package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a45: node resolves a preload named as a package (--require hookmod,
// -r dotenv/config, --import tsx; in NODE_OPTIONS or on the command
// line) from the working folder's node_modules and those above it
// (Module._preloadModules: "a dummy parent module which is deemed to
// exist in the current working directory"; checked with node 20: "BARE
// HOOK RAN" from WORK/node_modules/hookmod). codeRoots takes such a
// value as a path relative to the working folder (WORK/hookmod, which
// does not exist) and, for node running a script by its path, does not
// count the working folder's project: when cwd is not the script's
// project (a folder the server works in), the preloaded package is not
// hashed. A sandboxed command rewrites it and the next start runs it
// with the server's secrets.
func TestA45PreloadPackageFromWorkingFolder(t *testing.T) {
	files := map[string]string{
		"app/package.json":                   "{\"name\":\"app\"}\n",
		"app/server.js":                      "console.log(1)\n",
		"work/node_modules/hookmod/index.js": "module.exports = 1\n",
	}
	evil := map[string]string{"work/node_modules/hookmod/index.js": "require('child_process').execSync('id')\n"}
	a35Run(t, []a35Case{{
		name:  "node GRANTED/app/server.js, cwd GRANTED/work, NODE_OPTIONS=-r hookmod",
		files: files,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{filepath.Join(g, "app", "server.js")}, Cwd: filepath.Join(g, "work"),
				Env: map[string]string{"NODE_OPTIONS": "-r hookmod", "TOKEN": "t"}}
		},
		change: evil,
	}, {
		name:  "node --import hookmod GRANTED/app/server.js, cwd GRANTED/work",
		files: files,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{"--import", "hookmod", filepath.Join(g, "app", "server.js")}, Cwd: filepath.Join(g, "work"),
				Env: map[string]string{"TOKEN": "t"}}
		},
		change: evil,
	}})
}
