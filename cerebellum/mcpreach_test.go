package cerebellum_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a39, key level (no runner needs to be installed): code a server loads
// from a path dependency, an editable install's project, the working
// folder of npx, a folder of its PATH, or a folder a wrapper hides. A
// change in the granted folder after the approval changes the approval.
// plugins/mcp's TestA39ServerRunsAttackerCodeEndToEnd runs them.
func TestA39ApprovalCoversMoreReach(t *testing.T) {
	sp := "venv/lib/python3.11/site-packages/"
	a35Run(t, []a35Case{{
		name: "cargo run: a path dependency ../shared gains a build.rs",
		files: map[string]string{
			"srv/Cargo.toml":    "[package]\nname = \"srv\"\n\n[dependencies]\nshared = { path = \"../shared\" }\n",
			"srv/src/main.rs":   "fn main() {}\n",
			"shared/Cargo.toml": "[package]\nname = \"shared\"\n",
			"shared/src/lib.rs": "pub fn f() {}\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: filepath.Join(g, "srv")}
		},
		change: map[string]string{"shared/build.rs": "fn main() {}\n"},
	}, {
		name: "cargo run: a path dependency of a path dependency",
		files: map[string]string{
			"srv/Cargo.toml":  "[dependencies]\na = { path = \"../a\" }\n",
			"a/Cargo.toml":    "[dependencies.b]\npath = \"../b\"\n",
			"b/Cargo.toml":    "[package]\nname = \"b\"\n",
			"b/src/lib.rs":    "\n",
			"srv/src/main.rs": "\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: filepath.Join(g, "srv")}
		},
		change: map[string]string{"b/src/lib.rs": "pub fn evil() {}\n"},
	}, {
		name: "go run .: go.mod replace => ../lib",
		files: map[string]string{
			"srv/go.mod":  "module srv\n\nreplace example.com/lib => ../lib\n",
			"srv/main.go": "package main\n",
			"lib/go.mod":  "module example.com/lib\n",
			"lib/lib.go":  "package lib\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "go", Args: []string{"run", "."}, Cwd: filepath.Join(g, "srv")}
		},
		change: map[string]string{"lib/lib.go": "package lib\n\nfunc init() { panic(1) }\n"},
	}, {
		name: "uv run: [tool.uv.sources] path = ../shared",
		files: map[string]string{
			"srv/pyproject.toml":     "[project]\nname = \"srv\"\n\n[tool.uv.sources]\nshared = { path = \"../shared\", editable = true }\n",
			"srv/server.py":          "import shared\n",
			"shared/pyproject.toml":  "[project]\nname = \"shared\"\n",
			"shared/shared/__init__": "",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "uv", Args: []string{"run", "server.py"}, Cwd: filepath.Join(g, "srv")}
		},
		change: map[string]string{"shared/shared/__init__.py": "import os\n"},
	}, {
		name: "VENV/bin/python -m PKG: setuptools' editable finder maps a project beside the venv",
		files: map[string]string{
			"venv/pyvenv.cfg":                         "home = /usr/bin\n",
			sp + "__editable__.tracker-0.1.pth":       "import __editable___tracker_0_1_finder; __editable___tracker_0_1_finder.install()\n",
			sp + "__editable___tracker_0_1_finder.py": "MAPPING: dict[str, str] = {'tracker': '{G}/code/tracker/tracker'}\nNAMESPACES: dict[str, list[str]] = {}\n",
			"code/tracker/pyproject.toml":             "[project]\nname = \"tracker\"\n",
			"code/tracker/tracker/__main__.py":        "print(1)\n",
		},
		links:  map[string]string{"venv/bin/python": "/usr/bin/python3"},
		block:  venvModule("tracker"),
		change: map[string]string{"code/tracker/tracker/__main__.py": "import os\n"},
	}, {
		name: "VENV/bin/python -m PKG: hatchling's editables finder",
		files: map[string]string{
			"venv/pyvenv.cfg":                      "home = /usr/bin\n",
			sp + "_tracker.pth":                    "import _editable_impl_tracker\n",
			sp + "_editable_impl_tracker.py":       "from editables.redirector import RedirectingFinder as F\nF.install()\nF.map_module('tracker', '{G}/code/tracker/src/tracker/__init__.py')\n",
			"code/tracker/pyproject.toml":          "[project]\nname = \"tracker\"\n",
			"code/tracker/src/tracker/__init__.py": "",
		},
		links:  map[string]string{"venv/bin/python": "/usr/bin/python3"},
		block:  venvModule("tracker"),
		change: map[string]string{"code/tracker/src/tracker/__main__.py": "import os\n"},
	}, {
		name:  "npx -y PKG (cwd PROJECT): a node_modules copy planted in the working folder",
		files: map[string]string{"proj/package.json": "{\"name\":\"proj\"}"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "npx", Args: []string{"-y", "@acme/tracker-mcp"}, Cwd: filepath.Join(g, "proj")}
		},
		change: map[string]string{"proj/node_modules/@acme/tracker-mcp/index.js": "#!/usr/bin/env node\n"},
	}, {
		name:  "npm start with PATH=GRANTED/tools/bin: node planted there",
		files: map[string]string{"app/package.json": "{\"scripts\":{\"start\":\"node server.js\"}}", "tools/bin/README": "tools\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "npm", Args: []string{"start"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"PATH": filepath.Join(g, "tools/bin") + string(os.PathListSeparator) + "/usr/bin"}}
		},
		change: map[string]string{"tools/bin/node": "#!/bin/sh\n"},
	}, {
		name:  "npm start with PATH=GRANTED/tools/bin: a program there rewritten",
		files: map[string]string{"app/package.json": "{}", "tools/bin/node": "#!/bin/sh\nexec /usr/bin/node \"$@\"\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "npm", Args: []string{"start"}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"PATH": filepath.Join(g, "tools/bin") + string(os.PathListSeparator) + "/usr/bin"}}
		},
		change: map[string]string{"tools/bin/node": "#!/bin/sh\nenv > /tmp/x; exec /usr/bin/node \"$@\"\n"},
	}, {
		name:  "env -u DEBUG node PROJECT",
		files: map[string]string{"srv/package.json": "{\"main\":\"index.js\"}", "srv/index.js": "1\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "env", Args: []string{"-u", "DEBUG", "node", filepath.Join(g, "srv")}}
		},
		change: map[string]string{"srv/index.js": "2\n"},
	}, {
		name:  "env -C PROJECT npm start",
		files: map[string]string{"srv/package.json": "{\"scripts\":{\"start\":\"node index.js\"}}", "srv/index.js": "1\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "env", Args: []string{"-C", filepath.Join(g, "srv"), "npm", "start"}}
		},
		change: map[string]string{"srv/index.js": "2\n"},
	}, {
		name:  "timeout -s KILL 60 python3 PROJECT/server.py",
		files: map[string]string{"srv/server.py": "import helper\n", "srv/helper.py": "1\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "timeout", Args: []string{"-s", "KILL", "60", "python3", filepath.Join(g, "srv")}}
		},
		change: map[string]string{"srv/helper.py": "2\n"},
	}})
}

// A wrapper whose command cannot be told is refused with its reason,
// not guessed at.
func TestA39WrapperNotToldIsRefused(t *testing.T) {
	s := skillmd.MCPServer{Command: "env", Args: []string{"-S", "node /srv/index.js"}}
	for _, f := range cerebellum.LaunchFiles(&s, t.TempDir()) {
		if why, ok := strings.CutPrefix(f, cerebellum.RefusedPrefix); ok {
			if !strings.Contains(why, "env") {
				t.Errorf("the refusal does not name the wrapper: %s", why)
			}
			return
		}
	}
	t.Errorf("LaunchFiles of env -S %q holds no %s entry", s.Args[1], cerebellum.RefusedPrefix)
}

// rustup runs the bin/cargo of a toolchain a rust-toolchain.toml names by
// its path: a program there rewritten after the approval changes it.
func TestA39ToolchainPathProgramsCount(t *testing.T) {
	a35Run(t, []a35Case{{
		name: "cargo run: the toolchain GRANTED/rust-toolchain.toml names, its bin/cargo rewritten",
		files: map[string]string{
			"srv/Cargo.toml":      "[package]\nname = \"srv\"\n",
			"srv/src/main.rs":     "fn main() {}\n",
			"rust-toolchain.toml": "[toolchain]\npath = \"{G}/tc\"\n",
			"tc/bin/cargo":        "#!/bin/sh\nexec cargo \"$@\"\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: filepath.Join(g, "srv")}
		},
		change: map[string]string{"tc/bin/cargo": "#!/bin/sh\nenv > /tmp/pwned\n"},
	}})
}

// venvModule is the block of a server run as `VENV/bin/python -m module`
// from the venv folder of the grant.
func venvModule(module string) func(g string) skillmd.MCPServer {
	return func(g string) skillmd.MCPServer {
		return skillmd.MCPServer{Command: filepath.Join(g, "venv/bin/python"), Args: []string{"-m", module}}
	}
}
