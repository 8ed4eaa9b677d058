package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a45: parseEnvFile (mcpenvfile.go) reads an environment file "as node's,
// dotenv's and uv's parsers do, broadly", but each of those runtimes
// reads some files otherwise, and a variable the runtime sets while
// parseEnvFile does not see it escapes codeRoots:
//
//   - node --env-file (src/node_dotenv.cc, Dotenv::ParseContent; deno's
//     port does the same): a quoted value whose closing quote is missing
//     is the rest of its line only ("Example: KEY=\"value\nKEY2=value2
//     The value pair should be `\"value`"), so the next line is a
//     variable of its own. parseEnvFile takes the rest of the file as
//     the value and never reads the lines that follow;
//   - node's double-quoted value ends at the first '"' after the opening
//     one (content.find('"', 1)): a backslash escapes nothing, so
//     TITLE="C:\" ends on its line. parseEnvFile takes \" as an escaped
//     quote and reads on, over the NODE_OPTIONS line, to the next quote;
//   - dotenv-cli (npm dotenv's parse): a lone CR is a line break
//     (lines.replace(/\r\n?/mg, '\n')); parseEnvFile splits at LF only;
//   - dotenv-cli: the LINE regexp starts with \s*, and JavaScript's \s
//     matches U+FEFF, so a file saved with a byte-order mark sets its
//     first variable; parseEnvFile reads the key as "\ufeffNODE_OPTIONS";
//   - dotenv-cli expands ${VAR} (dotenv-expand, on unless --no-expand)
//     and uv's dotenvy substitutes $VAR/${VAR} from the lines above and
//     the environment: PYTHONPATH=${SHARED} names a folder parseEnvFile
//     never sees as a code variable's value.
//
// In each case the module in GRANTED/shared, outside the server's
// project, is not hashed: a sandboxed command rewrites it and the next
// start runs it with the server's secrets, the approval unchanged.
func TestA45EnvFileParsedOtherwise(t *testing.T) {
	node := func(envFile string) map[string]string {
		return map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
			"app/.env":         envFile,
			"shared/hook.js":   "module.exports = 1\n",
		}
	}
	nodeBlock := func(g string) skillmd.MCPServer {
		return skillmd.MCPServer{Command: "node", Args: []string{"--env-file=.env", "server.js"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
	}
	dotenvBlock := func(g string) skillmd.MCPServer {
		return skillmd.MCPServer{Command: "dotenv", Args: []string{"-e", ".env", "--", "node", "server.js"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
	}
	evil := map[string]string{"shared/hook.js": "require('child_process').execSync('id')\n"}
	a35Run(t, []a35Case{{
		name:   "node --env-file=.env server.js, .env: an unclosed quote, then NODE_OPTIONS=--require GRANTED/shared/hook.js",
		files:  node("GREETING=\"hello\nNODE_OPTIONS=--require {G}/shared/hook.js\n"),
		block:  nodeBlock,
		change: evil,
	}, {
		name:   `node --env-file=.env server.js, .env: TITLE="C:\" (node: no escapes), then NODE_OPTIONS, then FOOTER="x"`,
		files:  node("TITLE=\"C:\\\"\nNODE_OPTIONS=--require {G}/shared/hook.js\nFOOTER=\"x\"\n"),
		block:  nodeBlock,
		change: evil,
	}, {
		name:   "dotenv -e .env -- node server.js, .env with CR line ends (dotenv: \\r is a line break)",
		files:  node("DEBUG=0\rNODE_OPTIONS=--require {G}/shared/hook.js\r"),
		block:  dotenvBlock,
		change: evil,
	}, {
		name:   "dotenv -e .env -- node server.js, .env saved with a byte-order mark",
		files:  node("\ufeffNODE_OPTIONS=--require {G}/shared/hook.js\n"),
		block:  dotenvBlock,
		change: evil,
	}, {
		name:   "dotenv -e .env -- node server.js, .env: SHARED=GRANTED/shared, NODE_OPTIONS=--require ${SHARED}/hook.js (dotenv-expand)",
		files:  node("SHARED={G}/shared\nNODE_OPTIONS=\"--require ${SHARED}/hook.js\"\n"),
		block:  dotenvBlock,
		change: evil,
	}, {
		name: "uv run --env-file .env server.py, .env: SHARED=GRANTED/shared, PYTHONPATH=${SHARED} (dotenvy substitution)",
		files: map[string]string{
			"app/pyproject.toml": "[project]\nname = \"app\"\nversion = \"0.1.0\"\n",
			"app/server.py":      "import helper\n",
			"app/.env":           "SHARED={G}/shared\nPYTHONPATH=${SHARED}\n",
			"shared/helper.py":   "x = 1\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "uv", Args: []string{"run", "--env-file", ".env", "server.py"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"shared/helper.py": "import os; os.system('id')\n"},
	}})
}
