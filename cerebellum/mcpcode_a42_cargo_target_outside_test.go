package cerebellum_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wrasse-app/wrasse/cerebellum"
	"github.com/wrasse-app/wrasse/cerebellum/skillmd"
)

// a42: a build folder the block names outside the project
// (CARGO_TARGET_DIR in env, cargo --target-dir: a target folder shared
// by several projects, as people set up to save builds) was kept
// (BuildOutputOf), and nothing in it is hashed: CARGO_TARGET_DIR is no
// code variable and the folder is no code root. Cargo decides a build is
// fresh from the fingerprints in that same folder, never from the
// built program's content, so a sandboxed command that rewrote
// GRANTED/target-shared/release/app after the approval had `cargo run
// --release` run its program at the next start with the server's
// secrets, unasked (checked with cargo 1.95: a replaced target/debug/app
// runs as is).
//
// Hashing that folder would not do: the runner's own first build writes
// it and would undo the approval (a38). So no folder the block names is
// kept: named in env, the MCP client replaces it with the server's own
// cache as when none is named; on the command line, which no variable
// overrides, the server does not start and says to remove the setting
// (BuildOutput.Refused; plugins/mcp TestBuildOutsideTheApprovedProject
// checks the launcher does both). The approval needs nothing of the
// named folder then, and holds nothing of it.
func TestA42ApprovalMissesCargoTargetDirOutsideProject(t *testing.T) {
	files := map[string]string{
		"app/Cargo.toml":              "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"app/src/main.rs":             "fn main() {}\n",
		"target-shared/release/app":   "\x7fELF v1\n",
		"target-shared/release/app.d": "app: src/main.rs\n",
		"target-shared/CACHEDIR.TAG":  "Signature: 8a477f597d28d172789f06886806bc55\n",
	}
	cases := []struct {
		name    string
		block   func(g string) skillmd.MCPServer
		refused bool
	}{{
		name: "cargo run --release, env CARGO_TARGET_DIR=GRANTED/target-shared: replaced",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release"}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"CARGO_TARGET_DIR": filepath.Join(g, "target-shared"), "TOKEN": "t"}}
		},
	}, {
		name: "cargo run --release --target-dir GRANTED/target-shared: refused",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "cargo", Args: []string{"run", "--release", "--target-dir", filepath.Join(g, "target-shared")}, Cwd: filepath.Join(g, "app"), Env: map[string]string{"TOKEN": "t"}}
		},
		refused: true,
	}, {
		name: "env CARGO_TARGET_DIR=GRANTED/target-shared cargo run --release: refused",
		block: func(g string) skillmd.MCPServer {
			return skillmd.MCPServer{Command: "env", Args: []string{"CARGO_TARGET_DIR=" + filepath.Join(g, "target-shared"), "cargo", "run", "--release"}, Cwd: filepath.Join(g, "app")}
		},
		refused: true,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := filepath.Join(t.TempDir(), "granted")
			a35Write(t, g, files)
			s := c.block(g)
			capDir := t.TempDir()
			shared := filepath.Join(g, "target-shared")
			b := cerebellum.BuildOutputOf(&s, capDir)
			if b.Var != "CARGO_TARGET_DIR" || b.Set != shared || b.Inside {
				t.Fatalf("BuildOutputOf = %+v, want CARGO_TARGET_DIR named %s, outside the project", b, shared)
			}
			if b.Refused() != c.refused {
				t.Errorf("BuildOutputOf(%s %q).Refused() = %v, want %v: a folder named in env is replaced by the server's own cache, one on the command line refuses the start", s.Command, s.Args, b.Refused(), c.refused)
			}
			if files := cerebellum.LaunchFiles(&s, capDir); slices.ContainsFunc(files, func(f string) bool { return strings.Contains(f, shared) }) {
				t.Errorf("LaunchFiles holds the named build folder, which the server never runs from: %q", files)
			}
		})
	}
}
