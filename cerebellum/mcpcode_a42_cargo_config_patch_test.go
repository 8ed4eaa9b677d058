package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a42: a project's own .cargo/config.toml is hashed as a file, but the
// path dependencies it names are not followed: parseManifestPaths reads
// Cargo.toml, pyproject.toml, go.mod and go.work only. Cargo takes
// [patch.<registry>] (stable since 1.56) from .cargo/config.toml
// too, relative to the folder holding .cargo: a
// server (`cargo run`, cwd PROJECT) whose config patches a dependency
// with ../shared/helper builds and runs GRANTED/shared/helper, which is
// no code root. A sandboxed command rewrites it after the approval;
// the next start builds and runs it with the server's secrets, unasked
// (checked with cargo 1.95: `cargo run --offline` prints the patched
// crate's output).
func TestA42ApprovalMissesCargoConfigPatch(t *testing.T) {
	app := map[string]string{
		"app/Cargo.toml":           "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nhelper = \"0.1\"\n",
		"app/src/main.rs":          "fn main() { helper::hi(); }\n",
		"shared/helper/Cargo.toml": "[package]\nname = \"helper\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"shared/helper/src/lib.rs": "pub fn hi() {}\n",
	}
	with := func(extra map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range app {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	evil := map[string]string{"shared/helper/src/lib.rs": "pub fn hi() { let _ = std::fs::write(\"/tmp/pwned\", std::env::var(\"TOKEN\").unwrap_or_default()); }\n"}
	block := func(g string) skillmd.MCPServer {
		return skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
	}
	a35Run(t, []a35Case{{
		name:   "cargo run: app/.cargo/config.toml [patch.crates-io] helper = { path = \"../shared/helper\" }",
		files:  with(map[string]string{"app/.cargo/config.toml": "[patch.crates-io]\nhelper = { path = \"../shared/helper\" }\n"}),
		block:  block,
		change: evil,
	}, {
		// Cargo reads the configuration of every folder above its working
		// folder: one in the granted parent, paths relative to it.
		name:   "cargo run: GRANTED/.cargo/config [patch.crates-io] helper.path = \"shared/helper\" above the project",
		files:  with(map[string]string{".cargo/config": "[patch.crates-io]\nhelper.path = \"shared/helper\"\n"}),
		block:  block,
		change: evil,
	}, {
		name:   "cargo run: app/.cargo/config.toml paths = [\"../shared/helper\"]",
		files:  with(map[string]string{"app/.cargo/config.toml": "paths = [\"../shared/helper\"]\n"}),
		block:  block,
		change: evil,
	}, {
		name: "cargo run: app/.cargo/config.toml replaces crates-io with a vendored directory",
		files: with(map[string]string{
			"app/.cargo/config.toml":             "[source.crates-io]\nreplace-with = \"vendored\"\n\n[source.vendored]\ndirectory = \"../vendor\"\n",
			"vendor/helper/Cargo.toml":           "[package]\nname = \"helper\"\nversion = \"0.1.0\"\n",
			"vendor/helper/src/lib.rs":           "pub fn hi() {}\n",
			"vendor/helper/.cargo-checksum.json": "{\"files\":{},\"package\":null}\n",
		}),
		block:  block,
		change: map[string]string{"vendor/helper/src/lib.rs": evil["shared/helper/src/lib.rs"]},
	}})
}
