//go:build linux

package mcp

import (
	"path/filepath"
	"testing"
)

// a35: after 6f20e46 an approval covers the code files of the project of
// each script the command line names, of a folder node/python is given and
// of the working folder for python -m / npm / uv. Real command lines reach
// code that none of these hold: a project given by a flag (uv --directory,
// the MCP quickstart's own block), a folder on the block's PYTHONPATH, a
// shell's command string, a dependency npm installed as a link to a folder
// beside the project (file:../shared), a .npmrc npm reads before it starts
// the server. The person approves the server; a sandboxed command (or a
// plugin granted the folder, or fs_write) then changes only files in the
// granted folder, and the next start runs them with the server's secrets
// (TRACKER_TOKEN), which the command was never given.
//
// Each case approves and starts the server, changes files, restarts it:
// the start must be refused (ErrNotApproved) or the changed code must not
// run. Today it starts and the marker the changed code writes appears
// holding the token.
func TestA35ServerRunsChangedCodeTheApprovalMisses(t *testing.T) {
	f := newChangedCodeFixture(t)
	runChangedCodeCases(t, f, []changedCodeCase{{
		// The MCP quickstart's block, verbatim but for the path; uv here is
		// a stand-in that does what uv does with these arguments.
		name:  "uv --directory PROJECT run weather.py (the MCP quickstart)",
		files: map[string]string{"weather/weather.py": f.pyServer, "weather/pyproject.toml": "[project]\nname = \"weather\"\n"},
		tools: map[string]string{"uv": "#!/bin/sh\n# stand-in for uv: uv --directory D run SCRIPT ARGS...\nif [ \"$1\" = --directory ]; then cd \"$2\" || exit 1; shift 2; fi\n[ \"$1\" = run ] && shift\nexec /usr/bin/python3 \"$@\"\n"},
		block: func(g string) (string, []string, map[string]string, string) {
			return "uv", []string{"--directory", filepath.Join(g, "weather"), "run", "weather.py", f.exe}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"weather/weather.py": pyMarker(marker) + f.pyServer}
		},
		need: "/usr/bin/python3",
	}, {
		name:  "python3 -m PKG with PYTHONPATH in the block's env",
		files: map[string]string{"src/tracker_mcp/__init__.py": "", "src/tracker_mcp/__main__.py": f.pyServer},
		block: func(g string) (string, []string, map[string]string, string) {
			return "/usr/bin/python3", []string{"-m", "tracker_mcp", f.exe}, map[string]string{"PYTHONPATH": filepath.Join(g, "src")}, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"src/tracker_mcp/__main__.py": pyMarker(marker) + f.pyServer}
		},
		need: "/usr/bin/python3",
	}, {
		name:  "bash -c 'cd PROJECT && exec python3 server.py'",
		files: map[string]string{"proj/server.py": f.pyServer},
		block: func(g string) (string, []string, map[string]string, string) {
			return "/bin/bash", []string{"-c", "cd '" + filepath.Join(g, "proj") + "' && exec /usr/bin/python3 server.py \"$1\"", "bash", f.exe}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"proj/server.py": pyMarker(marker) + f.pyServer}
		},
		need: "/usr/bin/python3",
	}, {
		// npm installs "shared": "file:../shared" as a link; the link is
		// hashed by its path, the folder it leads to not at all.
		name: "node_modules/shared → ../../shared (a file: dependency)",
		files: map[string]string{
			"app/package.json":    `{"name":"app","dependencies":{"shared":"file:../shared"}}`,
			"app/server.js":       "require('shared');\n" + f.hostileJS,
			"shared/package.json": `{"name":"shared","main":"index.js"}`,
			"shared/index.js":     "// v1\n",
		},
		links: map[string]string{"app/node_modules/shared": "../../shared"},
		block: func(g string) (string, []string, map[string]string, string) {
			return "node", []string{filepath.Join(g, "app", "server.js")}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"shared/index.js": jsMarker(marker)}
		},
		need: "node",
	}, {
		// npm reads the project's .npmrc: node-options becomes the
		// NODE_OPTIONS of the script it runs, and node runs a required .txt
		// as JavaScript. Neither file is a "code file".
		name: "npm start: a .npmrc planted in the project",
		files: map[string]string{
			"proj/package.json": `{"name":"proj","version":"1.0.0","scripts":{"start":"node server.js"}}`,
			"proj/server.js":    f.hostileJS,
			"proj/notes.txt":    "meeting notes\n",
		},
		block: func(g string) (string, []string, map[string]string, string) {
			return "npm", []string{"start", "--silent"}, nil, filepath.Join(g, "proj")
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"proj/.npmrc": "node-options=--require ./notes.txt\n", "proj/notes.txt": jsMarker(marker)}
		},
		need: "npm",
	}})
}
