//go:build unix

package cerebellum_test

import (
	"testing"
)

// a41 probe: the path line of a plain .pth (uv's and pip's editable
// installs write _NAME.pth / __editable__.NAME.pth holding the project's
// src folder) puts a project beside the venv on sys.path.
func TestA41PthPathLine(t *testing.T) {
	sp := "venv/lib/python3.11/site-packages/"
	a35Run(t, []a35Case{{
		name: "uv editable: _tracker.pth names {G}/code/tracker/src",
		files: map[string]string{
			"venv/pyvenv.cfg":                      "home = /usr/bin\n",
			sp + "_tracker.pth":                    "{G}/code/tracker/src\n",
			"code/tracker/pyproject.toml":          "[project]\nname = \"tracker\"\n",
			"code/tracker/src/tracker/__init__.py": "",
		},
		links:  map[string]string{"venv/bin/python": "/usr/bin/python3"},
		block:  venvModule("tracker"),
		change: map[string]string{"code/tracker/src/tracker/__main__.py": "import os\n"},
	}, {
		name: "a .pth path line relative to site-packages (../../../../code/tracker/src)",
		files: map[string]string{
			"venv/pyvenv.cfg":                      "home = /usr/bin\n",
			sp + "tracker.pth":                     "../../../../code/tracker/src\n",
			"code/tracker/pyproject.toml":          "[project]\nname = \"tracker\"\n",
			"code/tracker/src/tracker/__init__.py": "",
		},
		links:  map[string]string{"venv/bin/python": "/usr/bin/python3"},
		block:  venvModule("tracker"),
		change: map[string]string{"code/tracker/src/tracker/__main__.py": "import os\n"},
	}})
}
