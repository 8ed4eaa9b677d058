package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a45: codePathVars names LD_PRELOAD and LD_LIBRARY_PATH, but not the
// other variables that make a runtime load a shared library from a
// path, which Wrasse's own shell gate already counts as changing what
// runs (brain/gate/shellrisk.go: LD_*, DYLD_*, OPENSSL_CONF):
//
//   - LD_AUDIT: glibc's ld.so loads each listed library into every
//     dynamically linked program, before main (checked: node -e with
//     LD_AUDIT=audit.so prints "AUDIT RAN" from its la_version);
//   - OPENSSL_CONF: OpenSSL reads the file at start (node) or when ssl
//     is imported (python), and a [provider_sect] entry's module = PATH
//     is dlopen'ed (checked: node 20 and python 3 print "CTOR RAN" from
//     a constructor of that library); the file itself is not hashed
//     either, so a sandboxed command adds the provider after the
//     approval;
//   - DYLD_INSERT_LIBRARIES: macOS's LD_PRELOAD, honoured by every
//     program outside SIP's protection (Homebrew's, nvm's or pyenv's
//     node and python).
//
// The library or file in GRANTED/shared (GRANTED/cfg), outside the
// project, changes after the approval and the approval stays the same.
func TestA45LoaderVariables(t *testing.T) {
	files := func(more map[string]string) map[string]string {
		out := map[string]string{
			"app/package.json": "{\"name\":\"app\"}\n",
			"app/server.js":    "console.log(1)\n",
		}
		for k, v := range more {
			out[k] = v
		}
		return out
	}
	block := func(env map[string]string) func(g string) skillmd.MCPServer {
		return func(g string) skillmd.MCPServer {
			e := map[string]string{"TOKEN": "t"}
			for k, v := range env {
				e[k] = filepath.Join(g, v)
			}
			return skillmd.MCPServer{Command: "node", Args: []string{"server.js"}, Cwd: filepath.Join(g, "app"), Env: e}
		}
	}
	a35Run(t, []a35Case{{
		name:   "node server.js, LD_AUDIT=GRANTED/shared/audit.so",
		files:  files(map[string]string{"shared/audit.so": "ELF v1\n"}),
		block:  block(map[string]string{"LD_AUDIT": "shared/audit.so"}),
		change: map[string]string{"shared/audit.so": "ELF v2 (runs id)\n"},
	}, {
		name:   "node server.js, OPENSSL_CONF=GRANTED/cfg/openssl.cnf",
		files:  files(map[string]string{"cfg/openssl.cnf": "openssl_conf = init\n[init]\n"}),
		block:  block(map[string]string{"OPENSSL_CONF": "cfg/openssl.cnf"}),
		change: map[string]string{"cfg/openssl.cnf": "openssl_conf = init\n[init]\nproviders = p\n[p]\nevil = e\n[e]\nmodule = /tmp/evil.so\nactivate = 1\n"},
	}, {
		name:   "node server.js, DYLD_INSERT_LIBRARIES=GRANTED/shared/hook.dylib",
		files:  files(map[string]string{"shared/hook.dylib": "Mach-O v1\n"}),
		block:  block(map[string]string{"DYLD_INSERT_LIBRARIES": "shared/hook.dylib"}),
		change: map[string]string{"shared/hook.dylib": "Mach-O v2 (runs id)\n"},
	}})
}
