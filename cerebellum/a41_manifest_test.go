//go:build unix

package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a41: path dependencies written in forms the manifests' own tools read
// but parseManifestPaths' regular expressions / line split do not. The
// dependency's folder is then not in the approval: a sandboxed command
// with write access to it changes the code the approved server builds
// and runs (cargo runs a path dependency's build.rs; go compiles the
// replacement), and the key stays the same.
func TestA41ManifestPathDifferentials(t *testing.T) {
	cargo := func(g string) skillmd.MCPServer {
		return skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: filepath.Join(g, "srv")}
	}
	shared := map[string]string{
		"srv/src/main.rs":   "fn main() {}\n",
		"shared/Cargo.toml": "[package]\nname = \"shared\"\n",
		"shared/src/lib.rs": "pub fn f() {}\n",
	}
	with := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for a, b := range m {
			out[a] = b
		}
		return out
	}
	a35Run(t, []a35Case{{
		// TOML dotted key: cargo's own docs use `shared.path = "../shared"`.
		name:   "Cargo.toml dotted key shared.path = ../shared",
		files:  with(shared, "srv/Cargo.toml", "[package]\nname = \"srv\"\n\n[dependencies]\nshared.path = \"../shared\"\n"),
		block:  cargo,
		change: map[string]string{"shared/build.rs": "fn main() {}\n"},
	}, {
		name:   "Cargo.toml quoted key \"path\" = ../shared",
		files:  with(shared, "srv/Cargo.toml", "[package]\nname = \"srv\"\n\n[dependencies]\nshared = { \"path\" = \"../shared\" }\n"),
		block:  cargo,
		change: map[string]string{"shared/build.rs": "fn main() {}\n"},
	}, {
		name:   "Cargo.toml escaped basic string path = \"..\\u002fshared\"",
		files:  with(shared, "srv/Cargo.toml", "[package]\nname = \"srv\"\n\n[dependencies]\nshared = { path = \"..\\u002fshared\" }\n"),
		block:  cargo,
		change: map[string]string{"shared/build.rs": "fn main() {}\n"},
	}, {
		name:   "Cargo.toml multi-line literal string path = '''../shared'''",
		files:  with(shared, "srv/Cargo.toml", "[package]\nname = \"srv\"\n\n[dependencies]\nshared = { path = '''../shared''' }\n"),
		block:  cargo,
		change: map[string]string{"shared/build.rs": "fn main() {}\n"},
	}, {
		name:   "Cargo.toml [dependencies.shared] with path on a dotted table key: [dependencies]\\nshared = {version=\"1\",path=\"../shared\"} via [target.'cfg(unix)'.dependencies] dotted",
		files:  with(shared, "srv/Cargo.toml", "[package]\nname = \"srv\"\n\n[target.'cfg(unix)'.dependencies]\nshared.path=\"../shared\"\n"),
		block:  cargo,
		change: map[string]string{"shared/build.rs": "fn main() {}\n"},
	}, {
		// go accepts Go string escapes in go.mod ("\x2e./lib" is ../lib:
		// verified with go run, it builds ../lib).
		name: "go.mod replace => \"\\x2e./lib\" (escaped quoted path)",
		files: map[string]string{
			"srv/go.mod":  "module srv\n\ngo 1.21\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => \"\\x2e./lib\"\n",
			"srv/main.go": "package main\n",
			"lib/go.mod":  "module example.com/lib\n",
			"lib/lib.go":  "package lib\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "go", Args: []string{"run", "."}, Cwd: filepath.Join(g, "srv")}
		},
		change: map[string]string{"lib/lib.go": "package lib\n\nfunc init() { panic(1) }\n"},
	}})
}

// a41: package.workspace = "../ws" makes cargo read ../ws/Cargo.toml as
// the workspace root (verified: cargo build in srv takes a root beside
// it that lists ../srv as a member). Only the root's [patch] and
// [profile] sections apply: a [patch.crates-io] added there swaps a
// registry dependency of the approved server for a path crate with a
// build.rs. The root is neither a parent folder nor a path = key.
func TestA41CargoWorkspaceRootBeside(t *testing.T) {
	a35Run(t, []a35Case{{
		name: "package.workspace = ../ws: the root gains [patch.crates-io]",
		files: map[string]string{
			"srv/Cargo.toml":  "[package]\nname = \"srv\"\nversion = \"0.1.0\"\nworkspace = \"../ws\"\n\n[dependencies]\nserde = \"1\"\n",
			"srv/src/main.rs": "fn main() {}\n",
			"ws/Cargo.toml":   "[workspace]\nmembers = [\"../srv\"]\n",
		},
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run"}, Cwd: filepath.Join(g, "srv")}
		},
		change: map[string]string{
			"ws/Cargo.toml":   "[workspace]\nmembers = [\"../srv\"]\n\n[patch.crates-io]\nserde = { path = \"../evil\" }\n",
			"evil/Cargo.toml": "[package]\nname = \"serde\"\nversion = \"1.0.999\"\n",
			"evil/build.rs":   "fn main() { std::process::Command::new(\"sh\").arg(\"-c\").arg(\"env > /tmp/pwned\").status().unwrap(); }\n",
			"evil/src/lib.rs": "\n",
		},
	}})
}
