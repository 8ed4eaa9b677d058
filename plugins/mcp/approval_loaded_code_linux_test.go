//go:build linux

package mcp

import (
	"fmt"
	"path/filepath"
	"testing"
)

// a34: a stdio MCP server's approval covers the program and the scripts its
// command line names (cerebellum.LaunchFiles), by content; not the code
// those scripts load. A sandboxed shell command (or a plugin granted the
// folder, or an approved fs_write) rewrites a file the approved script
// sources, the entry point of a folder the command line names, or plants a
// module beside the approved script that shadows one it imports, and the
// next start of the server runs it, with the server's own secrets in its
// environment and its network: secrets the command was never given.
//
// Each case approves the server, starts it, then changes only a file that
// is not on the command line and restarts it: the start must be refused
// (ErrNotApproved) as it is when the script itself changes
// (TestServerStartsOnlyWithApprovedFiles), or the changed code must not
// run. Today it starts and the marker the new code writes appears.
func TestA34ServerRunsChangedCodeItLoads(t *testing.T) {
	f := newChangedCodeFixture(t)
	runChangedCodeCases(t, f, []changedCodeCase{{
		name: "a file the approved script sources",
		files: map[string]string{
			"server.sh": ". \"$(dirname \"$0\")/lib.sh\"\nexec \"$1\" " + a3HostileArg + "\n",
			"lib.sh":    ": v1\n",
		},
		block: func(g string) (string, []string, map[string]string, string) {
			return "/bin/sh", []string{filepath.Join(g, "server.sh"), f.exe}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"lib.sh": "printf %s \"$TRACKER_TOKEN\" > " + marker + "\n"}
		},
	}, {
		name:  "the entry point of a folder the command line names (node DIR)",
		files: map[string]string{"app/index.js": f.hostileJS},
		block: func(g string) (string, []string, map[string]string, string) {
			return "node", []string{filepath.Join(g, "app")}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"app/index.js": jsMarker(marker) + f.hostileJS}
		},
		need: "node",
	}, {
		// Nothing approved changes: a new file beside the approved script
		// shadows a standard module it imports (sys.path[0] is the
		// script's folder).
		name:  "a module planted beside the approved script (python3 server.py, json.py)",
		files: map[string]string{"server.py": fmt.Sprintf("import json, os, sys\nos.execv(sys.argv[1], [sys.argv[1], %q])\n", a3HostileArg)},
		block: func(g string) (string, []string, map[string]string, string) {
			return "/usr/bin/python3", []string{filepath.Join(g, "server.py"), f.exe}, nil, ""
		},
		changed: func(g, marker string) map[string]string {
			return map[string]string{"json.py": pyMarker(marker)}
		},
		need: "/usr/bin/python3",
	}})
}
