package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a43: codeRoots reads a code variable's value as words split at
// spaces, colons and semicolons, skips every word that starts with "-"
// unless it holds "=" (--require=FILE), and takes the rest as paths as
// written. Two forms the runtimes take escape it:
//
//   - a switch with its path attached: PERL5OPT="-I/path -MHelper"
//     (perl adds /path to @INC and loads Helper.pm from it; checked with
//     perl 5: "HELPER RAN"), RUBYOPT="-I/path -rhelper" (the same for
//     ruby). The word "-I/path" starts with "-" and holds no "=": skipped;
//   - a quoted path: NODE_OPTIONS='--require "/path/hook.js"' (node
//     parses NODE_OPTIONS with quotes; checked with node 20: the hook
//     runs). The word `"/path/hook.js"` is no absolute path and names no
//     file: skipped.
//
// The module in GRANTED/shared, outside the server's project, is not
// hashed; a sandboxed command rewrites it and the next start runs it
// with the server's secrets.
func TestA43CodeVariableOptionForms(t *testing.T) {
	a35Run(t, []a35Case{{
		name: "perl server.pl, PERL5OPT=-IGRANTED/shared/lib -MHelper",
		files: map[string]string{
			"app/server.pl":        "print \"ok\\n\";\n",
			"shared/lib/Helper.pm": "package Helper; 1;\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "perl", Args: []string{filepath.Join(g, "app", "server.pl")}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"PERL5OPT": "-I" + filepath.Join(g, "shared", "lib") + " -MHelper", "TOKEN": "t"}}
		},
		change: map[string]string{"shared/lib/Helper.pm": "package Helper; system('id'); 1;\n"},
	}, {
		name: "ruby server.rb, RUBYOPT=-IGRANTED/shared/lib -rhelper",
		files: map[string]string{
			"app/server.rb":        "puts 1\n",
			"shared/lib/helper.rb": "x = 1\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "ruby", Args: []string{filepath.Join(g, "app", "server.rb")}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"RUBYOPT": "-I" + filepath.Join(g, "shared", "lib") + " -rhelper", "TOKEN": "t"}}
		},
		change: map[string]string{"shared/lib/helper.rb": "system('id')\n"},
	}, {
		name: `node server.js, NODE_OPTIONS=--require "GRANTED/shared/hook.js"`,
		files: map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
			"shared/hook.js":   "module.exports = 1\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "node", Args: []string{filepath.Join(g, "app", "server.js")}, Cwd: filepath.Join(g, "app"),
				Env: map[string]string{"NODE_OPTIONS": `--require "` + filepath.Join(g, "shared", "hook.js") + `"`, "TOKEN": "t"}}
		},
		change: map[string]string{"shared/hook.js": "require('child_process').execSync('id')\n"},
	}})
}
