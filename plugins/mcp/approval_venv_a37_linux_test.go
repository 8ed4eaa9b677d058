//go:build linux

package mcp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// a37: end to end, as a35's harness: the person approves a server whose
// code lies in a virtual environment in a granted folder (the venv's
// python named by its path, "-m PKG"; a .pth in its site-packages) or in
// the folder of a file a project links to; a sandboxed command changes
// only files in the granted folder; the next start runs the changed code
// with the server's TRACKER_TOKEN. The start must be refused
// (ErrNotApproved) or the changed code must not run.
func TestA37ServerRunsChangedVenvCode(t *testing.T) {
	f := newChangedCodeFixture(t)
	sp := "env/lib/python3.11/site-packages/"
	runChangedCodeCases(t, f, []changedCodeCase{{
		// "command": "/path/to/venv/bin/python", "args": ["-m", "tracker_mcp"]
		name:  "VENV/bin/python -m PKG: the package in site-packages",
		files: map[string]string{"env/pyvenv.cfg": "home = /usr/bin\n", sp + "tracker_mcp/__init__.py": "", sp + "tracker_mcp/__main__.py": f.pyServer},
		links: map[string]string{"env/bin/python": "/usr/bin/python3.11"},
		block: func(g string) (string, []string, map[string]string, string) {
			return filepath.Join(g, "env/bin/python"), []string{"-m", "tracker_mcp", f.exe}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{sp + "tracker_mcp/__main__.py": pyMarker(marker) + f.pyServer}
		},
		need: "/usr/bin/python3.11",
	}, {
		name:  "VENV/bin/python PROJECT/server.py: a .pth planted in site-packages",
		files: map[string]string{"env/pyvenv.cfg": "home = /usr/bin\n", sp + "README.txt": "x\n", "srv/server.py": f.pyServer},
		links: map[string]string{"env/bin/python": "/usr/bin/python3.11"},
		block: func(g string) (string, []string, map[string]string, string) {
			return filepath.Join(g, "env/bin/python"), []string{filepath.Join(g, "srv/server.py"), f.exe}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{sp + "zz_evil.pth": strings.ReplaceAll(fmt.Sprintf("import os; open(%q, 'w').write(os.environ.get('TRACKER_TOKEN', ''))", marker), "\n", "") + "\n"}
		},
		need: "/usr/bin/python3.11",
	}, {
		// node runs a linked module from its real path: its ./util comes
		// from the link target's folder, which is not walked.
		name: "PROJECT/lib.js → ../shared/lib.js requiring ./util",
		files: map[string]string{
			"app/package.json": `{"name":"app"}`,
			"app/server.js":    "require('./lib');\n" + f.hostileJS,
			"shared/lib.js":    "require('./util');\n",
			"shared/util.js":   "// v1\n",
		},
		links: map[string]string{"app/lib.js": "../shared/lib.js"},
		block: func(g string) (string, []string, map[string]string, string) {
			return "node", []string{filepath.Join(g, "app/server.js")}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"shared/util.js": jsMarker(marker)}
		},
		need: "node",
	}})
}
