//go:build attack

package cerebellum_test

import (
	"path/filepath"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a42: a build folder the block names outside the project
// (CARGO_TARGET_DIR in env, cargo --target-dir: a target folder shared
// by several projects, as people set up to save builds) is kept
// (BuildOutputOf), and nothing in it is hashed: CARGO_TARGET_DIR is no
// code variable and the folder is no code root. Cargo decides a build is
// fresh from the fingerprints in that same folder, never from the
// built program's content, so a sandboxed command that rewrites
// GRANTED/target-shared/release/app after the approval has `cargo run
// --release` run its program at the next start with the server's
// secrets, unasked (checked with cargo 1.95: a replaced target/debug/app
// runs as is).
func TestA42ApprovalMissesCargoTargetDirOutsideProject(t *testing.T) {
	files := map[string]string{
		"app/Cargo.toml":              "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"app/src/main.rs":             "fn main() {}\n",
		"target-shared/release/app":   "\x7fELF v1\n",
		"target-shared/release/app.d": "app: src/main.rs\n",
		"target-shared/CACHEDIR.TAG":  "Signature: 8a477f597d28d172789f06886806bc55\n",
	}
	a35Run(t, []a35Case{{
		name:  "cargo run --release, env CARGO_TARGET_DIR=GRANTED/target-shared",
		files: files,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"CARGO_TARGET_DIR": filepath.Join(g, "target-shared"), "TOKEN": "t"}}
		},
		change: map[string]string{"target-shared/release/app": "#!/bin/sh\nenv > /tmp/pwned\n"},
	}, {
		name:  "cargo run --release --target-dir GRANTED/target-shared",
		files: files,
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release", "--target-dir", filepath.Join(g, "target-shared")}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		change: map[string]string{"target-shared/release/app": "#!/bin/sh\nenv > /tmp/pwned\n"},
	}})
}
