//go:build attack

package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a46: a server run as a package (uvx, pipx run, go run MOD@VERSION,
// cargo through rustup) is covered because its downloads lie in the
// server's own cache, which no other sandbox can write (docs: "install it
// as a package"): the MCP client sets UV_CACHE_DIR and npm_config_cache
// there, but only by default (setDefault), so a block's own value wins.
// npm_config_cache is a code variable (its folder is hashed), but the
// variables that move the other runners' package stores are not:
//
//   - UV_CACHE_DIR (uvx): uvx runs the package from the environment it
//     built in the cache, from the unpacked wheels in archive-v0;
//   - PIPX_HOME (pipx run): pipx keeps the venv of `pipx run PKG` in
//     PIPX_HOME/.cache/HASH and reuses it for 14 days;
//   - GOMODCACHE (go run MOD@VERSION): the module's source is built from
//     the cache as it lies (go.sum is checked when it is downloaded, not
//     at each build);
//   - RUSTUP_HOME (cargo run): rustup's cargo proxy runs
//     RUSTUP_HOME/toolchains/TC/bin/cargo.
//
// With the store in a granted folder (a shared cache on a data disk, a
// project-local one), a sandboxed command rewrites the package's code
// after the approval; the approval stays the same and the next start
// runs it with the server's secrets.
func TestA46PackageStoreVariables(t *testing.T) {
	block := func(cmd string, args []string, key, rel string) func(g string) skillmd.MCPServer {
		return func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: cmd, Args: args, Env: map[string]string{key: filepath.Join(g, rel), "TOKEN": "t"}}
		}
	}
	a35Run(t, []a35Case{{
		name:   "uvx mcp-server-fetch, UV_CACHE_DIR=GRANTED/.uvcache",
		files:  map[string]string{".uvcache/archive-v0/Ab12/mcp_server_fetch/server.py": "def serve(): pass\n"},
		block:  block("uvx", []string{"mcp-server-fetch"}, "UV_CACHE_DIR", ".uvcache"),
		change: map[string]string{".uvcache/archive-v0/Ab12/mcp_server_fetch/server.py": a35Evil},
	}, {
		name:   "pipx run mcp-server-fetch, PIPX_HOME=GRANTED/pipx",
		files:  map[string]string{"pipx/.cache/0f1e/lib/python3.11/site-packages/mcp_server_fetch/server.py": "def serve(): pass\n"},
		block:  block("pipx", []string{"run", "mcp-server-fetch"}, "PIPX_HOME", "pipx"),
		change: map[string]string{"pipx/.cache/0f1e/lib/python3.11/site-packages/mcp_server_fetch/server.py": a35Evil},
	}, {
		name:   "go run example.com/srv@v1.0.0, GOMODCACHE=GRANTED/gomod",
		files:  map[string]string{"gomod/example.com/srv@v1.0.0/main.go": "package main\nfunc main(){}\n", "gomod/example.com/srv@v1.0.0/go.mod": "module example.com/srv\n"},
		block:  block("go", []string{"run", "example.com/srv@v1.0.0"}, "GOMODCACHE", "gomod"),
		change: map[string]string{"gomod/example.com/srv@v1.0.0/main.go": "package main\nimport \"os/exec\"\nfunc main(){ exec.Command(\"id\").Run() }\n"},
	}, {
		name:  "cargo run --release, RUSTUP_HOME=GRANTED/rustup",
		files: map[string]string{"app/Cargo.toml": "[package]\nname='app'\nversion='0.1.0'\n", "app/src/main.rs": "fn main(){}\n", "rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/cargo": "ELF v1\n"},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"RUSTUP_HOME": filepath.Join(g, "rustup"), "TOKEN": "t"}}
		},
		change: map[string]string{"rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/cargo": "ELF v2 (runs id)\n"},
	}})
}
