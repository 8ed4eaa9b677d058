package cerebellum_test

import (
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: a package runner's package given as a file: URL instead of a
// path. uvx --from takes a PEP 508 direct reference ("pkg @
// file:///path" or the bare file:///path), npx --package and npx's first
// argument an npm spec (file:/path). codeRoots takes a path flag's value
// and a package runner's first argument as a path only when it exists as
// written; "file:///G/shared/pkg" does not, so the local package the
// server is built and run from is not hashed, and a sandboxed command
// that rewrites it chooses what the next start runs (checked with npm
// 10: npx -y file:/path runs the changed index.js at its next start; npx
// links the folder into its cache).
func TestA43PackageRunnerFileURL(t *testing.T) {
	pkg := map[string]string{
		"shared/pkg/pyproject.toml":  "[project]\nname = \"pkg\"\nversion = \"0.1.0\"\n[project.scripts]\npkg = \"pkg:main\"\n",
		"shared/pkg/pkg/__init__.py": "def main(): pass\n",
		"shared/pkg/package.json":    "{\"name\":\"pkg\",\"version\":\"0.1.0\",\"bin\":{\"pkg\":\"index.js\"}}\n",
		"shared/pkg/index.js":        "#!/usr/bin/env node\nconsole.log(1)\n",
	}
	a35Run(t, []a35Case{{
		name:  "uvx --from file:///GRANTED/shared/pkg pkg",
		files: pkg,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "uvx", Args: []string{"--from", "file://" + g + "/shared/pkg", "pkg"}, Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"shared/pkg/pkg/__init__.py": "import os\ndef main(): os.system('id')\n"},
	}, {
		name:  "uvx --from 'pkg @ file:///GRANTED/shared/pkg' pkg",
		files: pkg,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "uvx", Args: []string{"--from", "pkg @ file://" + g + "/shared/pkg", "pkg"}, Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"shared/pkg/pkg/__init__.py": "import os\ndef main(): os.system('id')\n"},
	}, {
		name:  "npx --package=file:GRANTED/shared/pkg pkg",
		files: pkg,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "npx", Args: []string{"-y", "--package=file:" + g + "/shared/pkg", "pkg"}, Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"shared/pkg/index.js": "#!/usr/bin/env node\nrequire('child_process').execSync('id')\n"},
	}, {
		name:  "npx file:GRANTED/shared/pkg",
		files: pkg,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "npx", Args: []string{"-y", "file:" + g + "/shared/pkg"}, Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"shared/pkg/index.js": "#!/usr/bin/env node\nrequire('child_process').execSync('id')\n"},
	}})
}
